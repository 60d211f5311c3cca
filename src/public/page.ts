/**
 * The form page: `GET /s/:formId[?step=N]` shows a step, `POST /s/:formId?step=N` submits it.
 *
 * - The first submitted step creates the session's response (`finished: false`), later steps update
 *   it, the last step finishes it and shows the thank-you page (`?done=1`).
 * - Without `?step`, a returning browser continues its unfinished response where it left off.
 *   Steps past that point redirect back to it; earlier steps show the stored answers (not passwords)
 *   and re-submitting them updates the answers in place.
 * - Visiting the form again after finishing (or `?new=1`) starts a new response.
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
  findSessionResponse,
  prepareAnswers,
  resumeStepIndex,
  submitAnswers,
  type ResponseRow,
  type SubmitInput,
} from '../responses/submissions.service.ts';
import { CAPTCHA_MESSAGES, checkCaptchas, enforcedCaptchas, postedCaptchaToken } from '../components/captchas.ts';
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import { moduleOf } from '../components/catalogue.ts';
import { readFormBody } from './form-body.ts';
import { answerFromFields, componentOfField, fieldName, PostedFields } from './form-fields.ts';
import { resolveUploadAnswers, storeUploads, syncResponseUploads } from '../uploads/uploads.service.ts';
import { liveForm, closedFormPage, formForResponse, newNonce, notFoundPage, sendMessagePage, pageCsp, sendHtml, type PublicContext, type PublicDeps } from './http.ts';
import { frameOrigins, scriptOrigins, renderStepPage, renderThanksPage, type FieldMessages, type StepPageInput } from './render.ts';
import { clientCountry, clientIp } from '../request-info.ts';
import { createId } from '../ids.ts';
import type { FieldError } from '../errors.ts';
import { embedOriginsOf, frameAncestorsFor } from '../embed/embed-origins.ts';
import { localizeMessage, pageWords } from '../i18n/locales.ts';
import { embedRequestOf, embedStartQuery } from './embed-query.ts';
import { cookieSession, tokenSession, type PageSession } from './page-session.ts';

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

  async function showStep(
    c: PublicContext,
    session: PageSession,
    form: Form,
    stepIndex: number,
    view: { values: Map<string, unknown>; errors?: FieldMessages; notices?: StepPageInput['notices']; data: ResponseRow['data'] },
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

  app.get('/s/:formId', async (c) => {
    const opened = await pageOf(c);
    if ('response' in opened) return opened.response;
    const { form: current, session } = opened;
    session.lead();
    const query = c.req.query();
    if (query.new !== undefined) {
      session.start();
      return c.redirect(formPath(current, session), 303);
    }
    let sessionId = session.sessionId;
    let response = sessionId ? await findSessionResponse(db, current.id, sessionId) : undefined;
    if (query.done !== undefined) {
      if (!response?.finished) return c.redirect(formPath(current, session), 303);
      const nonce = newNonce();
      const page = await renderThanksPage(await formForResponse(db, current, response), { nonce, fontsCssUrl: config.fontsCssUrl, carry: session.carry(), embed: session.embed }, { state: 'completed', responseId: response.id });
      return sendHtml(c, page.toString(), 200, pageCsp(nonce, { fontsCssUrl: config.fontsCssUrl }));
    }
    if (!sessionId || response?.finished) {
      // A finished response stays as it is; coming back starts a new one.
      sessionId = session.start();
      response = undefined;
    }
    // An unfinished response is shown the version it started on; a new one the current version.
    const form = await formForResponse(db, current, response);
    const resume = resumeStepIndex(form, response);
    const requested = parseStep(query.step, form);
    if (query.step !== undefined && (requested === undefined || requested > resume)) return c.redirect(formPath(form, session, `step=${resume}`), 303);
    const stepIndex = requested ?? resume;
    const stored = new Map((response?.data ?? []).map((a) => [a.questionId, a.response] as const));
    const values = new Map(form.steps[stepIndex]!.components.map((component) => [component.id, answerOf(component, stored.get(component.id))] as const));
    return showStep(c, session, form, stepIndex, { values, data: response?.data ?? [] });
  });

  app.post('/s/:formId', async (c) => {
    const opened = await pageOf(c);
    if ('response' in opened) return opened.response;
    const { form: current, session } = opened;
    // Embed mode: a token that is not this form's, was altered or has expired continues nothing.
    if (session.refused) {
      const words = pageWords(current.locale);
      const link = { href: `/s/${current.id}?${embedStartQuery(session.embed!)}`, text: words.startAgain };
      await framedBy(c, current);
      return sendMessagePage(c, 400, words.sessionExpiredTitle, words.sessionExpiredText, { link, locale: current.locale, formId: current.id });
    }
    const cookieSessionId = session.sessionId;
    // A session started by this request (a fresh random id, below) has no response to look up.
    const existing = cookieSessionId ? await findSessionResponse(db, current.id, cookieSessionId) : undefined;
    if (existing?.finished) return c.redirect(formPath(current, session, 'done=1'), 303);
    // The step is one of the version the response started on (a new response: the current version).
    const form = await formForResponse(db, current, existing);
    const stepIndex = parseStep(c.req.query('step'), form);
    if (stepIndex === undefined) return c.redirect(formPath(form, session), 303);
    const step = form.steps[stepIndex]!;
    const uploaders = step.components.filter((component) => moduleOf(component.type)?.multipart === true);
    const read = await readFormBody(c, new Set(uploaders.map((component) => fieldName(component))));
    if (!read.ok && read.status === 415) {
      await framedBy(c, form);
      return sendMessagePage(c, 415, 'Unsupported form data', 'This page takes form posts (application/x-www-form-urlencoded or multipart/form-data).');
    }
    let fieldProblems = read.ok ? [] : read.problems;
    if (!read.ok && (fieldProblems.length === 0 || !fieldProblems.every((p) => componentOfField(step, p.name)))) {
      await framedBy(c, form);
      return sendMessagePage(c, 400, 'Invalid form data', 'The form data could not be read. Please go back and try again.');
    }
    const visitorLeadId = session.lead();
    const sessionId = cookieSessionId ?? session.start();

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
      if (uploadErrors.size > 0) return showStep(c, session, form, stepIndex, { values: storedValues(), errors: uploadErrors, data: existing?.data ?? [] }, 422);
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
      return showStep(c, session, form, stepIndex, { values: storedValues(), errors, data: existing?.data ?? [] }, 400);
    }
    await resolveUploadAnswers(db, form, raw, existing?.id);
    // What the step shows again if something is wrong: the input as sent (never a password).
    const values = new Map(step.components.map((component) => [component.id, component.id in raw ? raw[component.id] : answerOf(component, stored.get(component.id))] as const));

    // The step is taken only from a person: every enforced captcha's token confirmed by its provider.
    const failedCaptchas = await checkCaptchas(captchas, (captcha) => captchaTokens.get(captcha.id), clientIp(c, config.trustProxy), captchaSettings);
    if (failedCaptchas.length > 0) {
      const errors: FieldMessages = new Map(failedCaptchas.map(({ component, outcome }) => [component.id, [CAPTCHA_MESSAGES[outcome]]]));
      const status = failedCaptchas.some(({ outcome }) => outcome === 'unavailable') ? 503 : 422;
      return showStep(c, session, form, stepIndex, { values, errors, data: existing?.data ?? [] }, status);
    }
    const { answers, errors } = await prepareAnswers(form, raw, limits);
    if (errors.length > 0) return showStep(c, session, form, stepIndex, { values, errors: messagesByField(errors), data: existing?.data ?? [] }, 422);

    const isLast = stepIndex === form.steps.length - 1;
    const submission: SubmitInput = {
      form,
      sessionId,
      visitorLeadId,
      answers,
      finish: isLast,
      newSession: cookieSessionId === undefined,
      context: { source: 'page', ip: clientIp(c, config.trustProxy), country: clientCountry(c, config.countryHeader), userAgent: c.req.header('user-agent') },
    };
    try {
      const submitted = await submit(submission);
      await syncResponseUploads(db, form, submitted);
      const { response } = submitted;
      session.setLead(response.leadId);
      return c.redirect(formPath(form, session, isLast ? 'done=1' : `step=${stepIndex + 1}`), 303);
    } catch (error) {
      const known = appErrorOf(error);
      // Finished meanwhile (e.g. the same last step sent twice at once).
      if (known?.code === 'CONFLICT') return c.redirect(formPath(form, session, 'done=1'), 303);
      if (known?.code !== 'BAD_USER_INPUT' || !known.errors) throw error;
      // Required questions of earlier steps are unanswered: keep this step's answers, point there.
      const submitted = await submit({ ...submission, finish: false });
      await syncResponseUploads(db, form, submitted);
      const { response } = submitted;
      session.setLead(response.leadId);
      const located = componentsOf(form.steps);
      const steps = [...new Set(known.errors.map((e) => located.get(String(e.path[1]))?.stepIndex ?? stepIndex))].sort((a, b) => a - b);
      const words = pageWords(form.locale);
      const notices = steps.map((index) => ({
        message: words.unanswered(form.steps[index]!.name),
        href: formPath(form, session, `step=${index}`),
        linkText: words.answerThem,
      }));
      return showStep(c, session, form, stepIndex, { values, notices, data: response.data }, 422);
    }
  });
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
