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
 * - The session and lead live in signed cookies; in embed mode (`?embed=1`, docs/embedding.md) in a
 *   signed token every link and form post carries instead (page-session.ts).
 * - The page's own words follow the form's locale (src/i18n/locales.ts); who may frame it, its
 *   environment's embedOrigins (src/embed/embed-origins.ts).
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
import { CAPTCHA_MESSAGES, isCaptchaType, postedCaptchaToken } from '../components/captchas.ts';
import { checkSubmissionCaptchas } from '../responses/captcha-gate.ts';
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import { moduleOf } from '../components/catalogue.ts';
import { readFormBody } from './form-body.ts';
import { answerFromFields, componentOfField, fieldName, PostedFields } from './form-fields.ts';
import { resolveUploadAnswers, storeUploads, syncResponseUploads } from '../uploads/uploads.service.ts';
import { liveForm, closedFormPage, formForResponse, newNonce, notFoundPage, sendMessagePage, pageCsp, sendHtml, type PublicContext, type PublicDeps } from './http.ts';
import { frameOrigins, scriptOrigins, renderFinalPage, renderStepPage, type FieldMessages, type StepPageInput } from './render.ts';
import { clientCountry, clientIp } from '../request-info.ts';
import { createId } from '../ids.ts';
import type { FieldError } from '../errors.ts';
import { embedOriginsOf, frameAncestorsFor } from '../embed/embed-origins.ts';
import { formatSize, localizeMessage, pageWords } from '../i18n/locales.ts';
import { embedRequestOf, embedStartQuery } from './embed-query.ts';
import { cookieSession, tokenSession, type PageSession } from './page-session.ts';
import { countPageView, postedReferrer, referrerQuery } from './views.ts';

/** Requests whose frame-ancestors are already their form's (page.ts's framedBy). */
const framed = new WeakSet<PublicContext>();

export function mountPage(app: Hono<AppEnv>, deps: PublicDeps): void {
  const { db, config } = deps;
  const limits = deps.answerLimits;
  /** submitAnswers, counted in the metrics. */
  const submit = async (input: SubmitInput) => {
    const result = await submitAnswers(db, input);
    deps.metrics?.responseSubmitted('page', { created: result.created, finished: result.response.finished });
    return result;
  };
  /** `/s/<id>` with `query` (`step=1`) and what the session carries (embed mode), e.g. `/s/<id>?step=1&embed=1…`. */
  const formPath = (form: Form, session: PageSession, query = '') => {
    const params = [query, session.carry().replace(/^&/, '')].filter(Boolean).join('&');
    return `/s/${form.id}${params ? `?${params}` : ''}`;
  };

  /**
   * The live form the page shows, who may frame it (its environment's embedOrigins), and how its session
   * travels; or the answer to send instead (not found, closed, a bad embed parameter).
   */
  async function pageOf(c: PublicContext): Promise<{ form: Form; session: PageSession } | { response: Response }> {
    const form = await liveForm(db, c.req.param('formId')!);
    if (!form) return { response: await notFoundPage(c) };
    const embed = embedRequestOf(c);
    // A GET answers with a page; a step's post mostly with a redirect, so it looks who may frame it up only for a page.
    if (c.req.method === 'GET' || (embed && 'problem' in embed) || form.status === 'closed') await framedBy(c, form);
    if (embed && 'problem' in embed) return { response: await sendMessagePage(c, 400, 'Invalid address', embed.problem) };
    if (form.status === 'closed') return { response: await closedFormPage(c, form, config.fontsCssUrl) };
    return { form, session: embed ? tokenSession(deps, form, embed) : cookieSession(c, deps, form) };
  }

  /** Before a page of `form` is sent: who may frame it, its environment's embedOrigins (else FRAME_ANCESTORS); looked up once a request. */
  async function framedBy(c: PublicContext, form: Form): Promise<void> {
    if (framed.has(c)) return;
    framed.add(c);
    c.set('frameAncestors', frameAncestorsFor(await embedOriginsOf(db, form.environmentId), config.frameAncestors));
  }

  /** Embed mode's answer to a token that continues nothing: 400 "Session expired", a link that starts the form again. */
  async function sessionExpired(c: PublicContext, session: PageSession, form: Form): Promise<Response> {
    const words = pageWords(form.locale);
    const link = { href: `/s/${form.id}?${embedStartQuery(session.embed!)}`, text: words.startAgain };
    await framedBy(c, form);
    return sendMessagePage(c, 400, words.sessionExpiredTitle, words.sessionExpiredText, { link, locale: form.locale, formId: form.id });
  }

  async function showStep(
    c: PublicContext,
    session: PageSession,
    form: Form,
    stepIndex: number,
    view: { values: Map<string, unknown>; errors?: FieldMessages; notices?: StepPageInput['notices']; data: ResponseRow['data']; walked: WalkedPath; starting: boolean },
    status = 200,
  ): Promise<Response> {
    await framedBy(c, form);
    const nonce = newNonce();
    // Validation messages are written in English; the page shows them in the form's language.
    const errors: FieldMessages = new Map([...(view.errors ?? [])].map(([key, messages]) => [key, messages.map((message) => localizeMessage(form.locale, message))]));
    const page = await renderStepPage({
      form,
      stepIndex,
      values: view.values,
      errors,
      notices: view.notices ?? [],
      backStep: stepBefore(view.walked, stepIndex),
      actionQuery: view.starting ? hiddenQuery(form, c) + referrerQuery(c) : '',
      prefill: { email: emailOf(view.data), name: nameOf(view.data) },
      host: new URL(c.req.url).host,
      nonce,
      fontsCssUrl: config.fontsCssUrl,
      carry: session.carry(),
      embed: session.embed,
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
  async function showFinal(c: PublicContext, session: PageSession, form: Form, response: ResponseRow): Promise<Response> {
    await framedBy(c, form);
    const nonce = newNonce();
    const state = response.finished ? 'completed' : 'invalid';
    const last = currentPath(form, response).path.at(-1);
    const step = last === undefined ? undefined : form.steps[last];
    const chrome = { nonce, fontsCssUrl: config.fontsCssUrl, carry: session.carry(), embed: session.embed };
    const page = renderFinalPage(form, chrome, { state, responseId: response.id, step: step?.completion || step?.invalid ? step : undefined });
    return sendHtml(c, page.toString(), 200, pageCsp(nonce, { fontsCssUrl: config.fontsCssUrl, frameOrigins: step ? frameOrigins(step) : [], scriptOrigins: step ? scriptOrigins(step) : [] }));
  }

  app.get('/s/:formId', async (c) => {
    const opened = await pageOf(c);
    if ('response' in opened) return opened.response;
    const { form: current, session } = opened;
    session.lead();
    const query = c.req.query();
    if (query.new !== undefined) {
      session.start();
      return c.redirect(formPath(current, session, hiddenQuery(current, c).replace(/^&/, '')), 303);
    }
    let sessionId = session.sessionId;
    let response = sessionId ? await findSessionResponse(db, current.id, sessionId) : undefined;
    const ended = response !== undefined && (response.finished || isInvalidResponse(response.meta));
    if (query.done !== undefined) {
      if (!response || !ended) return c.redirect(formPath(current, session), 303);
      return showFinal(c, session, await formForResponse(db, config, current, response), response);
    }
    if (!sessionId || ended) {
      // An ended response stays as it is; coming back starts a new one.
      sessionId = session.start();
      response = undefined;
    }
    // An unfinished response is shown the version it started on; a new one the current version.
    const form = await formForResponse(db, config, current, response);
    const walked = currentPath(form, response);
    const at = currentStep(walked);
    const requested = parseStep(query.step, form);
    if (query.step !== undefined && (requested === undefined || !mayShow(form, walked, requested))) {
      return c.redirect(formPath(form, session, `step=${at}${response ? '' : hiddenQuery(form, c)}`), 303);
    }
    const stepIndex = requested ?? at;
    const stored = new Map((response?.data ?? []).map((a) => [a.questionId, a.response] as const));
    const values = new Map(form.steps[stepIndex]!.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
    // A new respondent shown where the form starts: a view (src/public/views.ts).
    if (!response && stepIndex === at) await countPageView(deps, c, form, hiddenValues(form, c));
    return showStep(c, session, form, stepIndex, { values, data: response?.data ?? [], walked, starting: !response });
  });

  app.post('/s/:formId', async (c) => {
    const opened = await pageOf(c);
    if ('response' in opened) return opened.response;
    const { form: current, session } = opened;
    // Embed mode: a token that is not this form's, was altered or has expired continues nothing.
    if (session.refused) return sessionExpired(c, session, current);
    const cookieSessionId = session.sessionId;
    // A session started by this request (a fresh random id, below) has no response to look up.
    const existing = cookieSessionId ? await findSessionResponse(db, current.id, cookieSessionId) : undefined;
    if (existing && (existing.finished || isInvalidResponse(existing.meta))) return c.redirect(formPath(current, session, 'done=1'), 303);
    // The step is one of the version the response started on (a new response: the current version).
    const form = await formForResponse(db, config, current, existing);
    const stepIndex = parseStep(c.req.query('step'), form);
    if (stepIndex === undefined) return c.redirect(formPath(form, session), 303);
    const step = form.steps[stepIndex]!;
    const uploaders = step.components.filter((component) => moduleOf(component.type)?.multipart === true);
    const read = await readFormBody(c, config.publicMaxBodyBytes, new Set(uploaders.map((component) => fieldName(component))));
    const words = pageWords(form.locale);
    const inForm = { locale: form.locale, formId: form.id };
    if (!read.ok && read.status === 413) {
      await framedBy(c, form);
      return sendMessagePage(c, 413, words.tooMuchTitle, words.tooMuchText(formatSize(config.publicMaxBodyBytes, form.locale)), inForm);
    }
    if (!read.ok && read.status === 415) {
      await framedBy(c, form);
      return sendMessagePage(c, 415, words.unsupportedTitle, words.unsupportedText, inForm);
    }
    let fieldProblems = read.ok ? [] : read.problems;
    if (!read.ok && (fieldProblems.length === 0 || !fieldProblems.every((p) => componentOfField(step, p.name)))) {
      await framedBy(c, form);
      return sendMessagePage(c, 400, words.unreadableTitle, words.unreadableText, inForm);
    }
    // The server decides the path: a step neither on it nor next is not taken; back to where the respondent is.
    const walked = currentPath(form, existing);
    if (!mayShow(form, walked, stepIndex)) return c.redirect(formPath(form, session, `step=${currentStep(walked)}${existing ? '' : hiddenQuery(form, c)}`), 303);
    const view = { data: existing?.data ?? [], walked, starting: !existing };
    const visitorLeadId = session.lead();
    // A rotating session (embed mode) starts each response on a fresh id and moves it to another at every step.
    const sessionId = cookieSessionId !== undefined && (existing || !session.rotates) ? cookieSessionId : session.start();
    const nextSessionId = existing && session.rotates ? createId() : undefined;

    const stored = new Map((existing?.data ?? []).map((a) => [a.questionId, a.response] as const));
    const storedValues = () => new Map(step.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
    const raw: Record<string, unknown> = {};
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
      if (uploadErrors.size > 0) return showStep(c, session, form, stepIndex, { ...view, values: storedValues(), errors: uploadErrors }, 422);
      const fields = new PostedFields(read.body);
      for (const component of step.components) {
        const value = answerFromFields(component, fields, stored.get(component.id));
        if (value !== undefined) raw[component.id] = value;
      }
      for (const component of step.components) if (isCaptchaType(component.type)) captchaTokens.set(component.id, postedCaptchaToken(component, fields));
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
      return showStep(c, session, form, stepIndex, { ...view, values: storedValues(), errors }, 400);
    }
    await resolveUploadAnswers(db, form, raw, existing?.id);
    // What the step shows again if something is wrong: the input as sent (never a password).
    const values = new Map(step.components.map((component) => [component.id, component.id in raw ? raw[component.id] : answerOf(component, stored.get(component.id))] as const));

    const { answers, errors } = await prepareAnswers(form, raw, limits);
    if (errors.length > 0) return showStep(c, session, form, stepIndex, { ...view, values, errors: messagesByField(errors) }, 422);
    // The step is taken only from a person: the captcha rule the JSON API shares (src/responses/captcha-gate.ts).
    const hiddenFields = existing ? undefined : hiddenValues(form, c);
    const gate = { db, secretBox: deps.secretBox, server: config.captcha };
    const captchaCheck = { answers, finish: false, step: stepIndex, hiddenFields };
    const verdict = await checkSubmissionCaptchas(gate, form, existing, captchaCheck, (captcha) => captchaTokens.get(captcha.id), clientIp(c, config.trustProxy));
    if (verdict.failed.length > 0) {
      const errors: FieldMessages = new Map(verdict.failed.map(({ component, outcome }) => [component.id, [CAPTCHA_MESSAGES[outcome]]]));
      const status = verdict.failed.some(({ outcome }) => outcome === 'unavailable') ? 503 : 422;
      return showStep(c, session, form, stepIndex, { ...view, values, errors }, status);
    }

    const submission: SubmitInput = {
      form,
      sessionId,
      visitorLeadId,
      answers,
      finish: false,
      step: stepIndex,
      hiddenFields,
      captchas: verdict.passes,
      newSession: sessionId !== cookieSessionId,
      nextSessionId,
      mustExist: existing !== undefined,
      context: { source: 'page', ip: clientIp(c, config.trustProxy), country: clientCountry(c, config.countryHeader), userAgent: c.req.header('user-agent'), referrer: postedReferrer(c) },
    };
    try {
      const submitted = await submit(submission);
      await syncResponseUploads(db, form, submitted);
      const { response, walked: after } = submitted;
      if (nextSessionId !== undefined) session.moveTo(nextSessionId);
      session.setLead(response.leadId);
      return c.redirect(formPath(form, session, after.next === null ? 'done=1' : `step=${after.next}`), 303);
    } catch (error) {
      const known = appErrorOf(error);
      // Ended meanwhile (e.g. the same last step sent twice at once).
      if (known?.code === 'CONFLICT') return c.redirect(formPath(form, session, 'done=1'), 303);
      // Another post with the same token moved the response on first (embed mode): this token is superseded.
      if (known?.code === 'NOT_FOUND' && nextSessionId !== undefined) return sessionExpired(c, session, current);
      if (known?.code !== 'BAD_USER_INPUT' || !known.errors) throw error;
      // Required questions of earlier steps on the path are unanswered (the form changed since they
      // were submitted): the response can't end yet. Point there; this step's input is shown again.
      const located = componentsOf(form.steps);
      const steps = [...new Set(known.errors.map((e) => located.get(String(e.path[1]))?.stepIndex ?? stepIndex))].sort((a, b) => a - b);
      const notices = steps.map((index) => ({
        message: words.unanswered(form.steps[index]!.name),
        href: formPath(form, session, `step=${index}`),
        linkText: words.answerThem,
      }));
      return showStep(c, session, form, stepIndex, { ...view, values, notices }, 422);
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
