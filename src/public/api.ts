/**
 * The public JSON submission API, for forms embedded in other sites (CORS open, no API key):
 *
 * - `GET  /s/:formId/definition[?version=N]`: the published form's version, steps, components (ids are the
 *   questionIds), hidden fields, logic and theme; `version` asks for the version a response started on (its `formVersion`).
 * - `POST /s/:formId/responses` `{answers, finished?, visitorToken?, hiddenFields?}` → 201 `{id, resumeToken, visitorToken, finished, status, formVersion, nextStep}`.
 * - `POST /s/:formId/uploads` (multipart: `componentId`, `file`…) → 201 `{files: [{id, name, size, contentType}]}`:
 *   a FileUploader's answer is then the upload id (or a list of ids); see uploads.ts.
 * - `PATCH /s/:formId/responses/:responseId` with `Authorization: Bearer <resumeToken>`, `{answers, finished?}`
 *   → 200 `{id, visitorToken, finished, status, formVersion, nextStep}`.
 *
 * The server decides the response's path (docs/logic.md): `nextStep` is the key of the step to answer
 * next, or null when nothing is left to answer.
 *
 * Same validation, storage, leads and concurrency rules as the page (one service does both).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http.ts';
import { responseStatus } from '../responses/model.ts';
import { isAnswerable, isRequired } from '../responses/shapes.ts';
import { currentPath, findSessionResponse, prepareAnswers, submitAnswers, type CaptchaPasses, type ResponseRow, type SubmitInput } from '../responses/submissions.service.ts';
import { appErrorOf, respondWithError } from '../graphql/errors.ts';
import type { WalkedPath } from '../responses/path.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { claimIdempotencyKey, idempotencyClaimNonce, parseIdempotencyKey, requestHash } from '../idempotency/idempotency.service.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, formForResponse, liveForm, liveFormWithResponse, type PublicContext, type PublicDeps } from './http.ts';
import { formAtVersion, parseVersion, responseFormVersion } from '../forms/versions.service.ts';
import { clientCountry, clientIp } from '../request-info.ts';
import { apiSessionKey, leadOfVisitorToken, newResumeToken, visitorToken } from './tokens.ts';
import { resolveUploadAnswers, syncResponseUploads } from '../uploads/uploads.service.ts';
import { CAPTCHA_MESSAGES, isCaptchaType } from '../components/captchas.ts';
import { checkSubmissionCaptchas } from '../responses/captcha-gate.ts';
import type { Form } from '../forms/forms.service.ts';
import { toFieldErrors, type FieldError } from '../errors.ts';
import { readJsonObject } from '../limits/request-safety.ts';
import { deriveSecret, secretsEqual } from '../auth/secrets.ts';
import { apiReferrer } from './views.ts';

const answersSchema = z.record(z.string().min(1).max(64), z.unknown()).default({});
const hiddenValue = z
  .string()
  .max(LOGIC_LIMITS.maxValueLength)
  .superRefine((value, ctx) => {
    const problem = unsafeStringProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `A hidden field value ${problem}` });
  });
const startSchema = z.strictObject({
  answers: answersSchema,
  finished: z.boolean().default(false),
  visitorToken: z.string().min(1).max(256).optional(),
  // Names the form does not declare are ignored (an embed may forward every parameter it has).
  hiddenFields: z.record(z.string().max(256), hiddenValue).optional(),
});
const updateSchema = z.strictObject({ answers: answersSchema, finished: z.boolean().default(false) });

/** Shortest public Idempotency-Key: it picks the response, so it must be a random value (a UUID), not a counter. */
const MIN_PUBLIC_KEY_LENGTH = 16;

const FORM_NOT_FOUND = { message: 'Form not found' } as const;
const RESPONSE_NOT_FOUND = { message: 'Response not found' } as const;
/** The resume token of `Authorization: Bearer <resumeToken>`. */
const bearerToken = (c: PublicContext) => /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
const invalidBody = (c: PublicContext, errors: FieldError[]) => c.json({ message: 'Invalid request body', errors }, 400);

export function mountApi(app: Hono<AppEnv>, deps: PublicDeps): void {
  const { db, config, cookieKeys } = deps;
  const limits = deps.answerLimits;
  /** submitAnswers, counted in the metrics. */
  const submit = async (input: SubmitInput) => {
    const result = await submitAnswers(db, input);
    deps.metrics?.responseSubmitted('api', { created: result.created, finished: result.response.finished });
    return result;
  };

  const context = (c: PublicContext) => ({
    source: 'api' as const,
    ip: clientIp(c, config.trustProxy),
    country: clientCountry(c, config.countryHeader),
    userAgent: c.req.header('user-agent'),
    referrer: apiReferrer(c),
  });
  const result = (form: Form, row: ResponseRow, walked: WalkedPath = currentPath(form, row)) => ({
    id: row.id,
    visitorToken: visitorToken(cookieKeys.current, row.environmentId, row.leadId),
    finished: row.finished,
    status: responseStatus(row, new Date(), config.dropOffMs),
    formVersion: responseFormVersion(row.meta),
    nextStep: walked.next === null ? null : stepKey(form.steps[walked.next]!, walked.next),
  });
  /** The declared hidden fields among those sent. */
  const declaredHidden = (form: Form, sent: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(sent ?? {}).filter(([name]) => form.hiddenFields.includes(name)));

  /** Takes the captcha tokens out of `answers` (a captcha records nothing): its answer is its token. */
  function takeCaptchaTokens(form: Form, answers: Record<string, unknown>): Map<string, unknown> {
    const tokens = new Map<string, unknown>();
    for (const component of form.steps.flatMap((step) => step.components)) {
      if (!isCaptchaType(component.type) || !Object.hasOwn(answers, component.id)) continue;
      tokens.set(component.id, answers[component.id]);
      delete answers[component.id];
    }
    return tokens;
  }

  /**
   * The captcha rule (src/responses/captcha-gate.ts) for a submission on `before`: the passes to submit
   * with, or the response to send (400 with each captcha's path; 503 when a provider can't be reached and
   * CAPTCHA_FAIL_OPEN is off).
   */
  async function captchaGate(
    c: PublicContext,
    form: Form,
    before: ResponseRow | undefined,
    submission: Pick<SubmitInput, 'answers' | 'finish' | 'hiddenFields'>,
    tokens: Map<string, unknown>,
  ): Promise<{ passes: CaptchaPasses } | { refused: Response }> {
    const gate = { db, secretBox: deps.secretBox, server: config.captcha };
    const { failed, passes } = await checkSubmissionCaptchas(gate, form, before, submission, (captcha) => tokens.get(captcha.id), clientIp(c, config.trustProxy));
    if (failed.some(({ outcome }) => outcome === 'unavailable')) return { refused: c.json({ message: CAPTCHA_MESSAGES.unavailable }, 503) };
    if (failed.length > 0) {
      return { refused: invalidBody(c, failed.map(({ component, outcome }) => ({ message: CAPTCHA_MESSAGES[outcome], path: ['answers', component.id] }))) };
    }
    return { passes };
  }

  const startScope = (formId: string) => `form:${formId}:start`;
  /**
   * The resume token of an idempotent start: from the form, the key and its claim's random nonce, so a
   * retry within the claim reaches the same response, and the key claimed again once its claim expired a
   * new one (never the old response). A claim stored before claims had a nonce (null) keeps the token it gave.
   */
  const idempotentResumeToken = (formId: string, key: string, nonce: string | null) =>
    deriveSecret(cookieKeys.current, nonce === null ? `idempotent-start:${formId}:${key}` : `idempotent-start:v2:${formId}:${key}:${nonce}`);

  /**
   * The response an idempotent start's key already made, if any: a retry answers with the same uploads,
   * which that response holds by now. (An unreadable key is reported where the key is used.)
   */
  async function idempotentResponseId(c: PublicContext, formId: string): Promise<string | undefined> {
    let key: string | undefined;
    try {
      key = parseIdempotencyKey(c.req.header('idempotency-key'), MIN_PUBLIC_KEY_LENGTH);
    } catch {
      return undefined;
    }
    if (key === undefined) return undefined;
    const nonce = await idempotencyClaimNonce(db, startScope(formId), key);
    if (nonce === undefined) return undefined;
    return (await findSessionResponse(db, formId, apiSessionKey(idempotentResumeToken(formId, key, nonce))))?.id;
  }

  app.get('/s/:formId/definition', async (c) => {
    const current = await liveForm(db, c.req.param('formId'));
    if (!current) return c.json(FORM_NOT_FOUND, 404);
    if (current.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
    // `?version=N`: the version a response started on (its `formVersion`), which it is answered on.
    const asked = c.req.query('version');
    const version = asked === undefined ? undefined : parseVersion(asked);
    if (asked !== undefined && version === undefined) {
      return c.json({ message: 'Invalid query parameters', errors: [{ message: 'version must be a version number of the form (1, 2, …)', path: ['version'] }] }, 400);
    }
    // An older version only for the resume token of a response answered on it (as the PATCH sends it).
    if (version !== undefined && version !== current.version) {
      const token = bearerToken(c);
      if (!token) return c.json({ message: 'Missing resume token: an older version is shown only with the resume token of a response on it' }, 401);
      const row = await findSessionResponse(db, current.id, apiSessionKey(token));
      if (!row || (await formForResponse(db, config, current, row)).version !== version) return c.json({ message: 'Version not found' }, 404);
    }
    const form = version === undefined ? current : await formAtVersion(db, current, version);
    if (!form) return c.json({ message: 'Version not found' }, 404);
    c.header('Cache-Control', 'no-cache');
    return c.json({
      id: form.id,
      name: form.name,
      url: `/s/${form.id}`,
      locale: form.locale,
      version: form.version,
      hiddenFields: form.hiddenFields,
      theme: form.theme,
      steps: form.steps.map((step, index) => ({
        id: step.id,
        key: stepKey(step, index),
        name: step.name,
        completion: step.completion === true,
        invalid: step.invalid === true,
        logic: step.logic ?? null,
        components: step.components.map((component) => ({
          id: component.id,
          key: component.key ?? null,
          type: component.type,
          content: component.content,
          answerable: isAnswerable(component.type),
          required: isRequired(component),
        })),
      })),
    });
  });

  app.post('/s/:formId/responses', async (c) => {
    const form = await liveForm(db, c.req.param('formId'));
    if (!form) return c.json(FORM_NOT_FOUND, 404);
    if (form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
    const read = await readJsonObject(c, config.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = startSchema.safeParse(read.body);
    if (!parsed.success) return invalidBody(c, toFieldErrors(parsed.error.issues));
    let visitorLeadId: string | undefined;
    if (parsed.data.visitorToken !== undefined) {
      visitorLeadId = cookieKeys.verify((key) => leadOfVisitorToken(key, form.environmentId, parsed.data.visitorToken!));
      if (!visitorLeadId) return invalidBody(c, [{ message: 'Unknown visitor token', path: ['visitorToken'] }]);
    }
    await resolveUploadAnswers(db, form, parsed.data.answers, await idempotentResponseId(c, form.id));
    // Captcha tokens are checked only once the start is known not to be a replay (a token is good once).
    const captchaTokens = takeCaptchaTokens(form, parsed.data.answers);
    const { answers, errors } = await prepareAnswers(form, parsed.data.answers, limits);
    if (errors.length > 0) return invalidBody(c, errors);
    c.header('Cache-Control', 'no-store');
    try {
      // With an Idempotency-Key the resume token (so the response's session) follows from the form and
      // the key: a retry of the same start reaches the same response instead of creating another.
      const key = parseIdempotencyKey(c.req.header('idempotency-key'), MIN_PUBLIC_KEY_LENGTH);
      let resumeToken = newResumeToken();
      let repeat = false;
      if (key !== undefined) {
        const claim = await claimIdempotencyKey(db, startScope(form.id), key, requestHash(read.body));
        resumeToken = idempotentResumeToken(form.id, key, claim.nonce);
        repeat = claim.state === 'repeat';
      }
      const sessionId = apiSessionKey(resumeToken);
      const replay = async () => {
        const row = repeat ? await findSessionResponse(db, form.id, sessionId) : undefined;
        if (!row) return undefined;
        c.header('Idempotent-Replayed', 'true');
        return c.json({ ...result(form, row), resumeToken }, 201);
      };
      const replayed = await replay();
      if (replayed) return replayed;
      const hiddenFields = declaredHidden(form, parsed.data.hiddenFields);
      const gate = await captchaGate(c, form, undefined, { answers, finish: parsed.data.finished, hiddenFields }, captchaTokens);
      if ('refused' in gate) return gate.refused;
      try {
        // Without a key the resume token is fresh and random: no response can have its session yet.
        const submitted = await submit({
          form,
          sessionId,
          visitorLeadId,
          answers,
          finish: parsed.data.finished,
          hiddenFields,
          context: context(c),
          newSession: key === undefined,
          captchas: gate.passes,
        });
        await syncResponseUploads(db, form, submitted);
        return c.json({ ...result(form, submitted.response, submitted.walked), resumeToken }, 201);
      } catch (error) {
        // A concurrent repeat finished the response first: answer as it did.
        if (appErrorOf(error)?.code === 'CONFLICT' && key !== undefined) {
          repeat = true;
          const again = await replay();
          if (again) return again;
        }
        throw error;
      }
    } catch (error) {
      return respondWithError(c, error);
    }
  });

  app.patch('/s/:formId/responses/:responseId', async (c) => {
    const responseId = c.req.param('responseId');
    const found = await liveFormWithResponse(db, c.req.param('formId'), responseId);
    if (!found) return c.json(FORM_NOT_FOUND, 404);
    const { response: seen } = found;
    const sessionId = seen?.row.sessionId;
    if (found.form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
    const token = bearerToken(c);
    if (!token) return c.json({ message: 'Missing resume token' }, 401);
    if (!sessionId || !secretsEqual(sessionId, apiSessionKey(token))) return c.json(RESPONSE_NOT_FOUND, 404);
    // Answered on the version it started on, however the form changed since.
    const form = await formForResponse(db, config, found.form, seen?.row);
    const read = await readJsonObject(c, config.maxJsonDepth);
    if ('response' in read) return read.response;
    const parsed = updateSchema.safeParse(read.body);
    if (!parsed.success) return invalidBody(c, toFieldErrors(parsed.error.issues));
    await resolveUploadAnswers(db, form, parsed.data.answers, responseId);
    const captchaTokens = takeCaptchaTokens(form, parsed.data.answers);
    const { answers, errors } = await prepareAnswers(form, parsed.data.answers, limits);
    if (errors.length > 0) return invalidBody(c, errors);
    const gate = await captchaGate(c, form, seen.row, { answers, finish: parsed.data.finished }, captchaTokens);
    if ('refused' in gate) return gate.refused;
    try {
      const submitted = await submit({
        form,
        sessionId,
        answers,
        finish: parsed.data.finished,
        context: context(c),
        mustExist: true,
        seen,
        captchas: gate.passes,
      });
      await syncResponseUploads(db, form, submitted);
      c.header('Cache-Control', 'no-store');
      return c.json(result(form, submitted.response, submitted.walked));
    } catch (error) {
      return respondWithError(c, error);
    }
  });
}
