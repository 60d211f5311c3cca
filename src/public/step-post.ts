/**
 * `POST /s/:formId?step=N`: submits a step. The first submitted step creates the session's response
 * (`finished: false`), later steps update it. The server walks the response's path after each step
 * (src/responses/path.ts, docs/logic.md): the redirect goes to the step the form's rules choose; a
 * completion or invalid step, a `complete` or `invalid` action, or the end of the last step ends the
 * response and shows its final screen (`?done=1`). A step neither on the path nor next is not taken.
 * An invalid answer re-renders the step (422) with the input kept and a message at the field.
 */
import type { StoredResponse } from '../components/answers.ts';
import { CAPTCHA_MESSAGES, isCaptchaType, postedCaptchaToken } from '../components/captchas.ts';
import { moduleOf } from '../components/catalogue.ts';
import type { StoredStep } from '../db/json-columns.ts';
import type { FieldError } from '../errors.ts';
import type { Form } from '../forms/forms.service.ts';
import { appErrorOf } from '../graphql/errors.ts';
import { formatSize, pageWords } from '../i18n/locales.ts';
import { createId } from '../ids.ts';
import { clientCountry, clientIp } from '../request-info.ts';
import { checkSubmissionCaptchas, type CaptchaVerdict } from '../responses/captcha-gate.ts';
import { NOT_ACCEPTING, NOT_YET_OPEN } from '../responses/gate.ts';
import { isInvalidResponse } from '../responses/model.ts';
import { answerOf } from '../responses/shapes.ts';
import { componentsOf, currentPath, findSeenSessionResponse, prepareAnswers, type ResponseRow, type SeenResponse, type SubmitInput } from '../responses/submissions.service.ts';
import { resolveUploadAnswers, storeUploads, syncResponseUploads } from '../uploads/uploads.service.ts';
import { formForResponse, submitCounted } from './context.ts';
import { readFormBody, type PostedFiles } from './form-body.ts';
import { closedFormPage } from './html-response.ts';
import { answerFromFields, componentOfField, fieldName, PostedFields, type FieldProblem, type FormBody } from './form-fields.ts';
import { currentStep, formMessagePage, formPath, hiddenQuery, hiddenValues, mayShow, pageLocale, parseStep, sessionExpired, type PageRequest } from './page-request.ts';
import { localizeForm } from '../forms/translations.ts';
import type { FieldMessages } from './render.ts';
import { sendStep, type StepView } from './step-view.ts';
import { postedReferrer } from './views.ts';

/** One step post as it is taken: the step of the version the response answers, and the response so far. */
interface StepPost {
  page: PageRequest;
  form: Form;
  stepIndex: number;
  step: StoredStep;
  existing: ResponseRow | undefined;
  /** The response as read, with its row version: a plain update is then one statement (submissions.service.ts). */
  seen: SeenResponse | undefined;
  stored: Map<string, StoredResponse>;
  view: Omit<StepView, 'values'>;
}

export async function postStep(page: PageRequest): Promise<Response> {
  const { c, deps, current, session } = page;
  // Embed mode: a token that is not this form's, was altered or has expired continues nothing.
  if (session.refused) return sessionExpired(page);
  // A session started by this request (a fresh random id, below) has no response to look up.
  const seen = session.sessionId ? await findSeenSessionResponse(deps.db, current.id, session.sessionId) : undefined;
  const existing = seen?.row;
  if (existing && (existing.finished || isInvalidResponse(existing.meta))) return c.redirect(formPath(page, 'done=1'), 303);
  // The step is one of the version the response started on (a new response: the current version).
  const form = await formForResponse(deps.db, deps.config, current, existing);
  const stepIndex = parseStep(c.req.query('step'), form);
  if (stepIndex === undefined) return c.redirect(formPath(page), 303);
  const step = form.steps[stepIndex]!;
  const read = await readStepBody(page, form, step);
  if (read instanceof Response) return read;
  // The server decides the path: a step neither on it nor next is not taken; back to where the respondent is.
  const walked = currentPath(form, existing);
  if (!mayShow(form, walked, stepIndex)) return c.redirect(formPath(page, `step=${currentStep(walked)}${existing ? '' : hiddenQuery(form, c)}`), 303);
  const stored = new Map((existing?.data ?? []).map((a) => [a.questionId, a.response] as const));
  const post: StepPost = {
    page,
    form,
    stepIndex,
    step,
    existing,
    seen,
    stored,
    view: { data: existing?.data ?? [], walked, starting: !existing, hiddenFields: existing?.meta.hiddenFields },
  };
  return takeStep(post, read);
}

/** The step's form post, or the message page for one that can't be read (too large, not a form post, unreadable). */
async function readStepBody(page: PageRequest, form: Form, step: StoredStep): Promise<{ body: FormBody; files: PostedFiles } | { problems: FieldProblem[] } | Response> {
  const { config } = page.deps;
  const uploaders = step.components.filter((component) => moduleOf(component.type)?.multipart === true);
  const read = await readFormBody(page.c, config.publicMaxBodyBytes, new Set(uploaders.map((component) => fieldName(component))));
  if (read.ok) return read;
  const locale = pageLocale(page);
  const words = pageWords(locale);
  if (read.status === 413) return formMessagePage(page, 413, words.tooMuchTitle, words.tooMuchText(formatSize(config.publicMaxBodyBytes, locale)));
  if (read.status === 415) return formMessagePage(page, 415, words.unsupportedTitle, words.unsupportedText);
  if (read.problems.length === 0 || !read.problems.every((p) => componentOfField(step, p.name))) {
    return formMessagePage(page, 400, words.unreadableTitle, words.unreadableText);
  }
  return { problems: read.problems };
}

/** The step's answers taken from the post, checked, and submitted; or the step shown again with what is wrong. */
async function takeStep(post: StepPost, read: { body: FormBody; files: PostedFiles } | { problems: FieldProblem[] }): Promise<Response> {
  const { page, form, step } = post;
  const session = page.session;
  const visitorLeadId = session.lead();
  const cookieSessionId = session.sessionId;
  // A rotating session (embed mode) starts each response on a fresh id and moves it to another at every step.
  const sessionId = cookieSessionId !== undefined && (post.existing || !session.rotates) ? cookieSessionId : session.start();
  const nextSessionId = post.existing && session.rotates ? createId() : undefined;
  const taken = 'body' in read ? await answersPosted(post, read.body, read.files) : { raw: {}, captchaTokens: new Map<string, string>(), problems: read.problems };
  if (taken instanceof Response) return taken;
  // Fields that can't be taken as sent (bad encoding, NUL, a file, sent twice): 400, the step
  // shown again with the stored answers and a message at each such field.
  if (taken.problems.length > 0) return showAgain(post, storedValues(post), { errors: problemsByComponent(step, taken.problems) }, 400);
  const { raw } = taken;
  await resolveUploadAnswers(page.deps.db, form, raw, post.existing?.id);
  // What the step shows again if something is wrong: the input as sent (never a password).
  const values = new Map(step.components.map((component) => [component.id, component.id in raw ? raw[component.id] : answerOf(component, post.stored.get(component.id))] as const));
  // The fields show the respondent's language; the answers are read in the default language's words.
  const { answers, errors } = await prepareAnswers(form, raw, page.deps.answerLimits, form.languages ? page.language : undefined);
  if (errors.length > 0) return showAgain(post, values, { errors: messagesByField(errors) }, 422);
  // The step is taken only from a person: the captcha rule the JSON API shares (src/responses/captcha-gate.ts).
  const hiddenFields = post.existing ? undefined : hiddenValues(form, page.c);
  const verdict = await checkCaptchas(post, { answers, finish: false, step: post.stepIndex, hiddenFields }, taken.captchaTokens);
  if (verdict.failed.length > 0) {
    const captchaErrors: FieldMessages = new Map(verdict.failed.map(({ component, outcome }) => [component.id, [CAPTCHA_MESSAGES[outcome]]]));
    return showAgain(post, values, { errors: captchaErrors }, verdict.failed.some(({ outcome }) => outcome === 'unavailable') ? 503 : 422);
  }
  const submission: SubmitInput = {
    form,
    sessionId,
    visitorLeadId,
    answers,
    finish: false,
    step: post.stepIndex,
    hiddenFields,
    language: page.language,
    captchas: verdict.passes,
    newSession: sessionId !== cookieSessionId,
    nextSessionId,
    mustExist: post.existing !== undefined,
    seen: post.seen,
    context: submissionContext(page),
  };
  return submitStep(post, submission, values);
}

/**
 * The answers a step's fields carry, the captchas' tokens and the fields that can't be taken. Files posted
 * with the step (no JavaScript) are checked and stored first, then answered by id like the JSON API; a
 * rejected file is not stored and its message shows at the field (the step again, 422).
 */
async function answersPosted(post: StepPost, body: FormBody, files: PostedFiles) {
  const { page, form, step } = post;
  const uploadErrors: FieldMessages = new Map();
  for (const component of step.components.filter((candidate) => moduleOf(candidate.type)?.multipart === true)) {
    const posted = files.get(fieldName(component));
    if (!posted) continue;
    const bytes = await Promise.all(posted.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })));
    const target = { environmentId: form.environmentId, formId: form.id, component };
    const stored = await storeUploads(page.deps.db, page.deps.fileStorage, target, bytes, {
      maxBodyBytes: page.deps.config.uploads.maxBodyBytes,
    });
    if (stored.ok)
      body.set(
        fieldName(component),
        stored.files.map((file) => file.id),
      );
    else
      uploadErrors.set(
        component.id,
        stored.errors.map((error) => error.message),
      );
  }
  if (uploadErrors.size > 0) return showAgain(post, storedValues(post), { errors: uploadErrors }, 422);
  const fields = new PostedFields(body);
  const raw: Record<string, unknown> = {};
  for (const component of step.components) {
    const value = answerFromFields(component, fields, post.stored.get(component.id));
    if (value !== undefined) raw[component.id] = value;
  }
  const captchaTokens = new Map<string, string>();
  for (const component of step.components) if (isCaptchaType(component.type)) captchaTokens.set(component.id, postedCaptchaToken(component, fields));
  return { raw, captchaTokens, problems: fields.problems };
}

function checkCaptchas(post: StepPost, submission: Pick<SubmitInput, 'answers' | 'finish' | 'step' | 'hiddenFields'>, tokens: Map<string, string>): Promise<CaptchaVerdict> {
  const { deps, c } = post.page;
  const gate = { db: deps.db, secretBox: deps.secretBox, server: deps.config.captcha };
  return checkSubmissionCaptchas(gate, post.form, post.existing, submission, (captcha) => tokens.get(captcha.id), clientIp(c, deps.config.trustProxy));
}

/** Where the response comes from, as it is stored with it. */
function submissionContext(page: PageRequest): SubmitInput['context'] {
  const { c, deps } = page;
  return {
    source: 'page',
    ip: clientIp(c, deps.config.trustProxy),
    country: clientCountry(c, deps.config.countryHeader),
    userAgent: c.req.header('user-agent'),
    referrer: postedReferrer(c),
  };
}

/** Submits the step and redirects to the step the path goes to next (or the final screen). */
async function submitStep(post: StepPost, submission: SubmitInput, values: Map<string, unknown>): Promise<Response> {
  const { page, form } = post;
  try {
    const submitted = await submitCounted(page.deps, 'page', submission);
    await syncResponseUploads(page.deps.db, form, submitted);
    const { response, walked: after } = submitted;
    if (submission.nextSessionId !== undefined) page.session.moveTo(submission.nextSessionId);
    page.session.setLead(response.leadId);
    return page.c.redirect(formPath(page, after.next === null ? 'done=1' : `step=${after.next}`), 303);
  } catch (error) {
    const known = appErrorOf(error);
    // Full or past its schedule meanwhile (or not open yet): the closed screen, which says which.
    if (known?.code === 'CONFLICT' && (known.message === NOT_ACCEPTING || known.message === NOT_YET_OPEN)) {
      await page.framedBy();
      return closedFormPage(page.c, form, page.deps.config.fontsCssUrl);
    }
    // Ended meanwhile (e.g. the same last step sent twice at once).
    if (known?.code === 'CONFLICT') return page.c.redirect(formPath(page, 'done=1'), 303);
    // Another post with the same token moved the response on first (embed mode): this token is superseded.
    if (known?.code === 'NOT_FOUND' && submission.nextSessionId !== undefined) return sessionExpired(page);
    if (known?.code !== 'BAD_USER_INPUT' || !known.errors) throw error;
    return unansweredBefore(post, known.errors, values);
  }
}

/**
 * Required questions of earlier steps on the path are unanswered (the form changed since they were
 * submitted): the response can't end yet. Point there; this step's input is shown again.
 */
function unansweredBefore(post: StepPost, errors: FieldError[], values: Map<string, unknown>): Promise<Response> {
  const { page, form, stepIndex } = post;
  const words = pageWords(pageLocale(page));
  const names = localizeForm(form, page.language).steps.map((step) => step.name);
  const located = componentsOf(form.steps);
  const steps = [...new Set(errors.map((e) => located.get(String(e.path[1]))?.stepIndex ?? stepIndex))].sort((a, b) => a - b);
  const notices = steps.map((index) => ({
    message: words.unanswered(names[index]!),
    href: formPath(page, `step=${index}`),
    linkText: words.answerThem,
  }));
  return showAgain(post, values, { notices }, 422);
}

const showAgain = (post: StepPost, values: Map<string, unknown>, messages: Pick<StepView, 'errors' | 'notices'>, status: number) =>
  sendStep(post.page, post.form, post.stepIndex, { ...post.view, values, ...messages }, status);

/** The step's stored answers (what it shows when the post's own input can't be shown). */
const storedValues = (post: StepPost) => new Map(post.step.components.map((component) => [component.id, answerOf(component, post.stored.get(component.id))] as const));

/** Field problems as messages at the components they belong to. */
function problemsByComponent(step: StoredStep, problems: FieldProblem[]): FieldMessages {
  const errors: FieldMessages = new Map();
  for (const { name, message } of problems) {
    const id = componentOfField(step, name)!.id;
    errors.set(id, [...(errors.get(id) ?? []), message]);
  }
  return errors;
}

/** API error paths (`["answers", questionId, part…]`) as the page's field keys (`questionId[.part]`). */
function messagesByField(errors: FieldError[]): FieldMessages {
  const map: FieldMessages = new Map();
  for (const error of errors) {
    const key = error.path.slice(1).join('.');
    map.set(key, [...(map.get(key) ?? []), error.message]);
  }
  return map;
}
