/**
 * The form page: `GET /s/:formId[?step=N]` shows a step, `POST /s/:formId?step=N` submits it.
 *
 * - The first submitted step creates the session's response (`finished: false`), later steps update
 *   it. The server walks the response's path after each step (src/responses/path.ts, docs/logic.md):
 *   the redirect goes to the step the form's rules choose; a completion or invalid step, a `complete`
 *   or `invalid` action, or the end of the last step ends the response and shows its final screen
 *   (`?done=1`).
 * - Without `?step`, a returning browser continues its unfinished response at its next step. A step
 *   that is neither on the response's path nor its next step redirects there (GET and POST alike);
 *   steps on the path show the stored answers (not passwords), and re-submitting one updates the
 *   answers in place and walks the path again from there.
 * - Declared hidden fields come from the page's query (`?utm_source=ad`) when a response starts;
 *   other parameters are ignored.
 * - Visiting the form again after it ended (or `?new=1`) starts a new response.
 * - An invalid answer re-renders the step (422) with the input kept and a message at the field.
 */
import type { Hono } from 'hono';
import { appErrorOf } from '../graphql/errors.ts';
import type { Form } from '../forms/forms.service.ts';
import type { AppEnv } from '../http.ts';
import { answerOf, emailOf, nameOf } from '../responses/shapes.ts';
import {
  componentsOf,
  currentPath,
  findSessionResponse,
  prepareAnswers,
  submitAnswers,
  type ResponseRow,
  type SubmitInput,
} from '../responses/submissions.service.ts';
import { isInvalidResponse } from '../responses/model.ts';
import type { WalkedPath } from '../responses/path.ts';
import { LOGIC_LIMITS } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import type { FieldError } from '../forms/components.ts';
import { CAPTCHA_MESSAGES, checkCaptchas, enforcedCaptchas, postedCaptchaToken } from '../components/captchas.ts';
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import { moduleOf } from '../components/catalogue.ts';
import { readFormBody } from './form-body.ts';
import { answerFromFields, componentOfField, fieldName, PostedFields } from './form-fields.ts';
import { resolveUploadAnswers, storeUploads, syncResponseUploads } from '../uploads/uploads.service.ts';
import {
  leadCookieName,
  liveForm,
  closedFormPage,
  newNonce,
  newSession,
  notFoundPage,
  sendMessagePage,
  pageCsp,
  readSignedId,
  sendHtml,
  sessionCookieName,
  setLeadCookie,
  type PublicContext,
  type PublicDeps,
} from './http.ts';
import { frameOrigins, scriptOrigins, renderFinalPage, renderStepPage, type FieldMessages, type StepPageInput } from './render.ts';
import { clientCountry, clientIp } from './request-info.ts';
import { createId } from '../ids.ts';

export function mountPage(app: Hono<AppEnv>, deps: PublicDeps): void {
  const { db, config, cookieSecret } = deps;
  const limits = deps.answerLimits;
  /** submitAnswers, counted in the metrics. */
  const submit = async (input: SubmitInput) => {
    const result = await submitAnswers(db, input);
    deps.metrics?.responseSubmitted('page', { created: result.created, finished: result.response.finished });
    return result;
  };
  const formPath = (form: Form, query = '') => `/s/${form.id}${query}`;

  /** The visitor's lead id (cookie); a fresh one is only reserved here and created on the first submission. */
  async function visitorLead(c: PublicContext, form: Form): Promise<string> {
    const known = readSignedId(c, cookieSecret, leadCookieName(form.environmentId));
    if (known) return known;
    const reserved = createId();
    setLeadCookie(c, deps, form, reserved);
    return reserved;
  }

  async function showStep(
    c: PublicContext,
    form: Form,
    stepIndex: number,
    view: { values: Map<string, unknown>; errors?: FieldMessages; notices?: StepPageInput['notices']; data: ResponseRow['data']; walked: WalkedPath; starting: boolean },
    status = 200,
  ): Promise<Response> {
    const nonce = newNonce();
    const page = await renderStepPage({
      form,
      stepIndex,
      values: view.values,
      errors: view.errors ?? new Map(),
      notices: view.notices ?? [],
      backStep: stepBefore(view.walked, stepIndex),
      actionQuery: view.starting ? hiddenQuery(form, c) : '',
      prefill: { email: emailOf(view.data), name: nameOf(view.data) },
      host: new URL(c.req.url).host,
      nonce,
      fontsCssUrl: config.fontsCssUrl,
      captcha: await captchaSettingsForForm(db, deps.secretBox, config.captcha, { environmentId: form.environmentId, steps: [form.steps[stepIndex]!] }),
    });
    const step = form.steps[stepIndex]!;
    const csp = pageCsp(nonce, { fontsCssUrl: config.fontsCssUrl, frameOrigins: frameOrigins(step), scriptOrigins: scriptOrigins(step) });
    return sendHtml(c, page.toString(), status, csp);
  }

  const parseStep = (value: string | undefined, form: Form): number | undefined => {
    if (value === undefined || !/^\d{1,4}$/.test(value)) return undefined;
    const index = Number(value);
    return index < form.steps.length ? index : undefined;
  };

  /** The final screen of an ended response: the step that ended it, or the default one. */
  async function showFinal(c: PublicContext, form: Form, response: ResponseRow): Promise<Response> {
    const nonce = newNonce();
    const state = response.finished ? 'completed' : 'invalid';
    const last = currentPath(form, response).path.at(-1);
    const step = last === undefined ? undefined : form.steps[last];
    const page = renderFinalPage(form, { nonce, fontsCssUrl: config.fontsCssUrl }, state, step?.completion || step?.invalid ? step : undefined);
    return sendHtml(c, page.toString(), 200, pageCsp(nonce, { fontsCssUrl: config.fontsCssUrl, frameOrigins: step ? frameOrigins(step) : [], scriptOrigins: step ? scriptOrigins(step) : [] }));
  }

  app.get('/s/:formId', async (c) => {
    const form = await liveForm(db, c.req.param('formId'));
    if (!form) return notFoundPage(c);
    if (form.status === 'closed') return closedFormPage(c, form, config.fontsCssUrl);
    await visitorLead(c, form);
    const query = c.req.query();
    if (query.new !== undefined) {
      newSession(c, deps, form);
      return c.redirect(formPath(form, hiddenQuery(form, c).replace('&', '?')), 303);
    }
    let sessionId = readSignedId(c, cookieSecret, sessionCookieName(form.id));
    let response = sessionId ? await findSessionResponse(db, form.id, sessionId) : undefined;
    const ended = response !== undefined && (response.finished || isInvalidResponse(response.meta));
    if (query.done !== undefined) {
      if (!response || !ended) return c.redirect(formPath(form), 303);
      return showFinal(c, form, response);
    }
    if (!sessionId || ended) {
      // An ended response stays as it is; coming back starts a new one.
      sessionId = newSession(c, deps, form);
      response = undefined;
    }
    const walked = currentPath(form, response);
    const current = currentStep(walked);
    const requested = parseStep(query.step, form);
    if (query.step !== undefined && (requested === undefined || !mayShow(form, walked, requested))) {
      return c.redirect(formPath(form, `?step=${current}${response ? '' : hiddenQuery(form, c)}`), 303);
    }
    const stepIndex = requested ?? current;
    const stored = new Map((response?.data ?? []).map((a) => [a.questionId, a.response] as const));
    const values = new Map(form.steps[stepIndex]!.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
    return showStep(c, form, stepIndex, { values, data: response?.data ?? [], walked, starting: !response });
  });

  app.post('/s/:formId', async (c) => {
    const form = await liveForm(db, c.req.param('formId'));
    if (!form) return notFoundPage(c);
    if (form.status === 'closed') return closedFormPage(c, form, config.fontsCssUrl);
    const stepIndex = parseStep(c.req.query('step'), form);
    if (stepIndex === undefined) return c.redirect(formPath(form), 303);
    const step = form.steps[stepIndex]!;
    const uploaders = step.components.filter((component) => moduleOf(component.type)?.multipart === true);
    const read = await readFormBody(c, new Set(uploaders.map((component) => fieldName(component))));
    if (!read.ok && read.status === 415) {
      return sendMessagePage(c, 415, 'Unsupported form data', 'This page takes form posts (application/x-www-form-urlencoded or multipart/form-data).');
    }
    let fieldProblems = read.ok ? [] : read.problems;
    if (!read.ok && (fieldProblems.length === 0 || !fieldProblems.every((p) => componentOfField(step, p.name)))) {
      return sendMessagePage(c, 400, 'Invalid form data', 'The form data could not be read. Please go back and try again.');
    }
    const visitorLeadId = await visitorLead(c, form);
    const cookieSessionId = readSignedId(c, cookieSecret, sessionCookieName(form.id));
    const sessionId = cookieSessionId ?? newSession(c, deps, form);
    // A session started by this request (a fresh random id) has no response to look up.
    const existing = cookieSessionId ? await findSessionResponse(db, form.id, sessionId) : undefined;
    if (existing && (existing.finished || isInvalidResponse(existing.meta))) return c.redirect(formPath(form, '?done=1'), 303);
    // The server decides the path: a step neither on it nor next is not taken; back to where the respondent is.
    const walked = currentPath(form, existing);
    if (!mayShow(form, walked, stepIndex)) return c.redirect(formPath(form, `?step=${currentStep(walked)}${existing ? '' : hiddenQuery(form, c)}`), 303);
    const view = { data: existing?.data ?? [], walked, starting: !existing };

    const stored = new Map((existing?.data ?? []).map((a) => [a.questionId, a.response] as const));
    const storedValues = () => new Map(step.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
    const raw: Record<string, unknown> = {};
    const captchaSettings = await captchaSettingsForForm(db, deps.secretBox, config.captcha, { environmentId: form.environmentId, steps: [step] });
    const captchas = enforcedCaptchas(step, captchaSettings);
    const captchaTokens = new Map<string, string>();
    if (read.ok) {
      // Files posted with the step (no JavaScript): checked and stored first, then answered by id
      // like the JSON API; a rejected file is not stored and its message shows at the field.
      const uploadErrors: FieldMessages = new Map();
      for (const component of uploaders) {
        const posted = read.files.get(fieldName(component));
        if (!posted) continue;
        const files = await Promise.all(posted.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })));
        const target = { environmentId: form.environmentId, formId: form.id, component };
        const stored = await storeUploads(db, deps.fileStorage, target, files, { maxBodyBytes: config.uploads.maxBodyBytes });
        if (stored.ok) read.body.set(fieldName(component), stored.files.map((file) => file.id));
        else uploadErrors.set(component.id, stored.errors.map((error) => error.message));
      }
      if (uploadErrors.size > 0) return showStep(c, form, stepIndex, { ...view, values: storedValues(), errors: uploadErrors }, 422);
      const fields = new PostedFields(read.body);
      for (const component of step.components) {
        const value = answerFromFields(component, fields, stored.get(component.id));
        if (value !== undefined) raw[component.id] = value;
      }
      for (const captcha of captchas) captchaTokens.set(captcha.id, postedCaptchaToken(captcha, fields));
      fieldProblems = fields.problems;
    }
    // Fields that can't be taken as sent (bad encoding, NUL, a file, sent twice): 400, the step
    // shown again with the stored answers and a message at each such field.
    if (fieldProblems.length > 0) {
      const errors: FieldMessages = new Map();
      for (const { name, message } of fieldProblems) {
        const id = componentOfField(step, name)!.id;
        errors.set(id, [...(errors.get(id) ?? []), message]);
      }
      return showStep(c, form, stepIndex, { ...view, values: storedValues(), errors }, 400);
    }
    await resolveUploadAnswers(db, form, raw, existing?.id);
    // What the step shows again if something is wrong: the input as sent (never a password).
    const values = new Map(step.components.map((component) => [component.id, component.id in raw ? raw[component.id] : answerOf(component, stored.get(component.id))] as const));

    // The step is taken only from a person: every enforced captcha's token confirmed by its provider.
    const failedCaptchas = await checkCaptchas(captchas, (captcha) => captchaTokens.get(captcha.id), clientIp(c, config.trustProxy), captchaSettings);
    if (failedCaptchas.length > 0) {
      const errors: FieldMessages = new Map(failedCaptchas.map(({ component, outcome }) => [component.id, [CAPTCHA_MESSAGES[outcome]]]));
      const status = failedCaptchas.some(({ outcome }) => outcome === 'unavailable') ? 503 : 422;
      return showStep(c, form, stepIndex, { ...view, values, errors }, status);
    }
    const { answers, errors } = await prepareAnswers(form, raw, limits);
    if (errors.length > 0) return showStep(c, form, stepIndex, { ...view, values, errors: messagesByField(errors) }, 422);

    const submission: SubmitInput = {
      form,
      sessionId,
      visitorLeadId,
      answers,
      finish: false,
      step: stepIndex,
      hiddenFields: existing ? undefined : hiddenValues(form, c),
      newSession: cookieSessionId === undefined,
      context: { source: 'page', ip: clientIp(c, config.trustProxy), country: clientCountry(c, config.countryHeader), userAgent: c.req.header('user-agent') },
    };
    try {
      const submitted = await submit(submission);
      await syncResponseUploads(db, form, submitted);
      const { response, walked: after } = submitted;
      setLeadCookie(c, deps, form, response.leadId);
      return c.redirect(formPath(form, after.next === null ? '?done=1' : `?step=${after.next}`), 303);
    } catch (error) {
      const known = appErrorOf(error);
      // Ended meanwhile (e.g. the same last step sent twice at once).
      if (known?.code === 'CONFLICT') return c.redirect(formPath(form, '?done=1'), 303);
      if (known?.code !== 'BAD_USER_INPUT' || !known.errors) throw error;
      // Required questions of earlier steps on the path are unanswered (the form changed since they
      // were submitted): the response can't end yet. Point there; this step's input is shown again.
      const located = componentsOf(form.steps);
      const steps = [...new Set(known.errors.map((e) => located.get(String(e.path[1]))?.stepIndex ?? stepIndex))].sort((a, b) => a - b);
      const notices = steps.map((index) => ({
        message: `Some required questions in “${form.steps[index]!.name}” are not answered yet.`,
        href: formPath(form, `?step=${index}`),
        linkText: 'Answer them',
      }));
      return showStep(c, form, stepIndex, { ...view, values, notices }, 422);
    }
  });
}

/** The step a respondent is at: the path's next step (the first for a new response; the last on the path once it has ended). */
const currentStep = (walked: WalkedPath): number => walked.next ?? walked.path.at(-1) ?? 0;

/** Whether step `index` may be shown and posted: a step of the path so far (not its final screen), or its next step. */
function mayShow(form: Form, walked: WalkedPath, index: number): boolean {
  const step = form.steps[index]!;
  return index === walked.next || (walked.path.includes(index) && !step.completion && !step.invalid);
}

/** The step before `index` on the path (the back link): undefined for the first. */
function stepBefore(walked: WalkedPath, index: number): number | undefined {
  const at = walked.path.indexOf(index);
  const before = at === -1 ? walked.path.at(-1) : walked.path[at - 1];
  return before !== undefined && before < index ? before : undefined;
}

/** The form's declared hidden fields in the request's query: the values a new response brings. */
function hiddenValues(form: Form, c: PublicContext): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of form.hiddenFields) {
    const value = c.req.query(name);
    // A value that could not be stored is left out rather than refused: the page still works.
    if (value !== undefined && value.length <= LOGIC_LIMITS.maxValueLength && !unsafeStringProblem(value)) values[name] = value;
  }
  return values;
}

/** The hidden values as query parameters (`&name=value…`), carried by a new response's first step. */
const hiddenQuery = (form: Form, c: PublicContext): string =>
  Object.entries(hiddenValues(form, c))
    .map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('');

/** API error paths (`["answers", questionId, part…]`) as the page's field keys (`questionId[.part]`). */
function messagesByField(errors: FieldError[]): FieldMessages {
  const map: FieldMessages = new Map();
  for (const error of errors) {
    const key = error.path.slice(1).join('.');
    map.set(key, [...(map.get(key) ?? []), error.message]);
  }
  return map;
}
