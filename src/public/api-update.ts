/**
 * `PATCH /s/:formId/responses/:responseId` with `Authorization: Bearer <resumeToken>`, `{answers, finished?}`
 * → 200 `{id, visitorToken, finished, status, formVersion, nextStep}`: answers more of a response started
 * through the JSON API, on the version it started on however the form changed since.
 */
import { z } from 'zod';
import { secretsEqual } from '../auth/secrets.ts';
import { toFieldErrors } from '../errors.ts';
import { respondWithError } from '../graphql/errors.ts';
import { readJsonObject } from '../limits/request-safety.ts';
import { prepareAnswers } from '../responses/submissions.service.ts';
import { resolveUploadAnswers, syncResponseUploads } from '../uploads/uploads.service.ts';
import { answersSchema, apiContext, bearerToken, captchaGate, FORM_NOT_FOUND, invalidBody, responseResult, takeCaptchaTokens } from './api-answers.ts';
import { FORM_CLOSED, FORM_CLOSED_STATUS, formForResponse, liveFormWithResponse, submitCounted, type PublicRequest } from './context.ts';
import { apiSessionKey } from './tokens.ts';

const updateSchema = z.strictObject({ answers: answersSchema, finished: z.boolean().default(false) });
const RESPONSE_NOT_FOUND = { message: 'Response not found' } as const;

export async function updateResponse(request: PublicRequest): Promise<Response> {
  const { c, deps } = request;
  const responseId = c.req.param('responseId') ?? '';
  const found = await liveFormWithResponse(deps.db, request.formId, responseId);
  if (!found) return c.json(FORM_NOT_FOUND, 404);
  const { response: seen } = found;
  const sessionId = seen?.row.sessionId;
  if (found.form.status === 'closed') return c.json(FORM_CLOSED, FORM_CLOSED_STATUS);
  const token = bearerToken(c);
  if (!token) return c.json({ message: 'Missing resume token' }, 401);
  if (!seen || !sessionId || !secretsEqual(sessionId, apiSessionKey(token))) return c.json(RESPONSE_NOT_FOUND, 404);
  // Answered on the version it started on, however the form changed since.
  const form = await formForResponse(deps.db, deps.config, found.form, seen.row);
  const read = await readJsonObject(c, deps.config.maxJsonDepth);
  if ('response' in read) return read.response;
  const parsed = updateSchema.safeParse(read.body);
  if (!parsed.success) return invalidBody(c, toFieldErrors(parsed.error.issues));
  await resolveUploadAnswers(deps.db, form, parsed.data.answers, responseId);
  const captchaTokens = takeCaptchaTokens(form, parsed.data.answers);
  // Answered in the language the response started in (a choice may also be given in the default language's words).
  const language = typeof seen.row.meta.language === 'string' ? seen.row.meta.language : undefined;
  const { answers, errors } = await prepareAnswers(form, parsed.data.answers, deps.answerLimits, language);
  if (errors.length > 0) return invalidBody(c, errors);
  const finish = parsed.data.finished;
  const gate = await captchaGate(request, form, seen.row, { answers, finish }, captchaTokens);
  if ('refused' in gate) return gate.refused;
  try {
    const submitted = await submitCounted(deps, 'api', {
      form,
      sessionId,
      answers,
      finish,
      context: apiContext(request),
      mustExist: true,
      seen,
      captchas: gate.passes,
    });
    await syncResponseUploads(deps.db, form, submitted);
    c.header('Cache-Control', 'no-store');
    return c.json(responseResult(request, form, submitted.response, submitted.walked));
  } catch (error) {
    return respondWithError(c, error);
  }
}
