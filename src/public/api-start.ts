/**
 * `POST /s/:formId/responses` `{answers, finished?, visitorToken?, hiddenFields?, language?}` → 201
 * `{id, resumeToken, visitorToken, finished, status, formVersion, nextStep}`: starts a response through
 * the JSON API. With an Idempotency-Key a retry of the same start reaches the same response.
 */
import { z } from 'zod';
import { deriveSecret } from '../auth/secrets.ts';
import { toFieldErrors } from '../errors.ts';
import type { Form } from '../forms/forms.service.ts';
import { languagesOf } from '../forms/translations.ts';
import { appErrorOf, respondWithError } from '../graphql/errors.ts';
import { claimIdempotencyKey, idempotencyClaimNonce, parseIdempotencyKey, requestHash } from '../idempotency/idempotency.service.ts';
import { readJsonObject } from '../limits/request-safety.ts';
import { findSessionResponse, prepareAnswers, type SubmitInput } from '../responses/submissions.service.ts';
import { resolveUploadAnswers, syncResponseUploads } from '../uploads/uploads.service.ts';
import { answersSchema, apiContext, captchaGate, FORM_NOT_FOUND, hiddenValue, invalidBody, responseResult, takeCaptchaTokens } from './api-answers.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, liveForm, submitCounted, type PublicRequest } from './context.ts';
import { apiSessionKey, leadOfVisitorToken, newResumeToken } from './tokens.ts';

const startSchema = z.strictObject({
  answers: answersSchema,
  finished: z.boolean().default(false),
  visitorToken: z.string().min(1).max(256).optional(),
  // Names the form does not declare are ignored (an embed may forward every parameter it has).
  hiddenFields: z.record(z.string().max(256), hiddenValue).optional(),
  /** A multilingual form: the language the respondent answers in (one of the form's; default its default). */
  language: z.string().max(35).optional(),
});

/** Shortest public Idempotency-Key: it picks the response, so it must be a random value (a UUID), not a counter. */
const MIN_PUBLIC_KEY_LENGTH = 16;

/** A start as checked: its answers ready to store, and what came with them. */
interface Start {
  body: unknown;
  answers: SubmitInput['answers'];
  finished: boolean;
  visitorLeadId: string | undefined;
  hiddenFields: Record<string, string>;
  captchaTokens: Map<string, unknown>;
  language: string;
}

export async function startResponse(request: PublicRequest): Promise<Response> {
  const { c, deps } = request;
  const form = await liveForm(deps.db, request.formId);
  if (!form) return c.json(FORM_NOT_FOUND, 404);
  if (form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
  const read = await readJsonObject(c, deps.config.maxJsonDepth);
  if ('response' in read) return read.response;
  const parsed = startSchema.safeParse(read.body);
  if (!parsed.success) return invalidBody(c, toFieldErrors(parsed.error.issues));
  const sent = parsed.data;
  let visitorLeadId: string | undefined;
  if (sent.visitorToken !== undefined) {
    const token = sent.visitorToken;
    visitorLeadId = deps.cookieKeys.verify((key) => leadOfVisitorToken(key, form.environmentId, token));
    if (!visitorLeadId) return invalidBody(c, [{ message: 'Unknown visitor token', path: ['visitorToken'] }]);
  }
  const languages = languagesOf(form);
  if (sent.language !== undefined && !languages.includes(sent.language)) {
    return invalidBody(c, [{ message: `Must be one of the form's languages: ${languages.join(', ')}`, path: ['language'] }]);
  }
  const language = sent.language ?? languages[0]!;
  await resolveUploadAnswers(deps.db, form, sent.answers, await idempotentResponseId(request, form.id));
  // Captcha tokens are checked only once the start is known not to be a replay (a token is good once).
  const captchaTokens = takeCaptchaTokens(form, sent.answers);
  const { answers, errors } = await prepareAnswers(form, sent.answers, deps.answerLimits, language);
  if (errors.length > 0) return invalidBody(c, errors);
  c.header('Cache-Control', 'no-store');
  const hiddenFields = declaredHidden(form, sent.hiddenFields);
  try {
    return await startOnce(request, form, {
      body: read.body,
      answers,
      finished: sent.finished,
      visitorLeadId,
      hiddenFields,
      captchaTokens,
      language,
    });
  } catch (error) {
    return respondWithError(request.c, error);
  }
}

/**
 * Creates the response, or answers as the first start did for a retry of it: with an Idempotency-Key
 * the resume token (so the response's session) follows from the form and the key.
 */
async function startOnce(request: PublicRequest, form: Form, start: Start): Promise<Response> {
  const { c, deps } = request;
  const key = parseIdempotencyKey(c.req.header('idempotency-key'), MIN_PUBLIC_KEY_LENGTH);
  let resumeToken = newResumeToken();
  let repeat = false;
  if (key !== undefined) {
    const claim = await claimIdempotencyKey(deps.db, startScope(form.id), key, requestHash(start.body));
    resumeToken = idempotentResumeToken(request, form.id, key, claim.nonce);
    repeat = claim.state === 'repeat';
  }
  const sessionId = apiSessionKey(resumeToken);
  const replay = async () => {
    const row = repeat ? await findSessionResponse(deps.db, form.id, sessionId) : undefined;
    if (!row) return undefined;
    c.header('Idempotent-Replayed', 'true');
    return c.json({ ...responseResult(request, form, row), resumeToken }, 201);
  };
  const replayed = await replay();
  if (replayed) return replayed;
  const { answers, finished: finish, hiddenFields } = start;
  const gate = await captchaGate(request, form, undefined, { answers, finish, hiddenFields }, start.captchaTokens);
  if ('refused' in gate) return gate.refused;
  try {
    // Without a key the resume token is fresh and random: no response can have its session yet.
    const submitted = await submitCounted(deps, 'api', {
      form,
      sessionId,
      visitorLeadId: start.visitorLeadId,
      answers,
      finish,
      hiddenFields,
      language: start.language,
      context: apiContext(request),
      newSession: key === undefined,
      captchas: gate.passes,
    });
    await syncResponseUploads(deps.db, form, submitted);
    return c.json({ ...responseResult(request, form, submitted.response, submitted.walked), resumeToken }, 201);
  } catch (error) {
    // A concurrent repeat finished the response first: answer as it did.
    if (appErrorOf(error)?.code === 'CONFLICT' && key !== undefined) {
      repeat = true;
      const again = await replay();
      if (again) return again;
    }
    throw error;
  }
}

/** The declared hidden fields among those sent. */
const declaredHidden = (form: Form, sent: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(sent ?? {}).filter(([name]) => form.hiddenFields.includes(name)));

const startScope = (formId: string) => `form:${formId}:start`;

/**
 * The resume token of an idempotent start: from the form, the key and its claim's random nonce, so a
 * retry within the claim reaches the same response, and the key claimed again once its claim expired a
 * new one (never the old response). A claim stored before claims had a nonce (null) keeps the token it gave.
 */
const idempotentResumeToken = ({ deps }: PublicRequest, formId: string, key: string, nonce: string | null) =>
  deriveSecret(deps.cookieKeys.current, nonce === null ? `idempotent-start:${formId}:${key}` : `idempotent-start:v2:${formId}:${key}:${nonce}`);

/**
 * The response an idempotent start's key already made, if any: a retry answers with the same uploads,
 * which that response holds by now. (An unreadable key is reported where the key is used.)
 */
async function idempotentResponseId(request: PublicRequest, formId: string): Promise<string | undefined> {
  let key: string | undefined;
  try {
    key = parseIdempotencyKey(request.c.req.header('idempotency-key'), MIN_PUBLIC_KEY_LENGTH);
  } catch {
    return undefined;
  }
  if (key === undefined) return undefined;
  const nonce = await idempotencyClaimNonce(request.deps.db, startScope(formId), key);
  if (nonce === undefined) return undefined;
  return (await findSessionResponse(request.deps.db, formId, apiSessionKey(idempotentResumeToken(request, formId, key, nonce))))?.id;
}
