/**
 * What the JSON API's starts and updates share (docs/public-pages.md): the answers' schema, the
 * captcha rule, the answer a response is given back as, and the API's error bodies.
 */
import { z } from 'zod';
import { CAPTCHA_MESSAGES, isCaptchaType } from '../components/captchas.ts';
import type { FieldError } from '../errors.ts';
import type { Form } from '../forms/forms.service.ts';
import { LOGIC_LIMITS, stepKey } from '../forms/logic.ts';
import { recallValues, stepTexts } from '../forms/recall.ts';
import { defaultLanguageOf } from '../forms/translations.ts';
import { recallLookup } from '../responses/recall-values.ts';
import { unsafeStringProblem } from '../limits/json-safety.ts';
import { clientCountry, clientIp } from '../request-info.ts';
import { checkSubmissionCaptchas } from '../responses/captcha-gate.ts';
import { responseStatus } from '../responses/model.ts';
import type { WalkedPath } from '../responses/path.ts';
import { currentPath, type CaptchaPasses, type ResponseRow, type SubmitInput } from '../responses/submissions.service.ts';
import type { PublicContext, PublicRequest } from './context.ts';
import { visitorToken } from './tokens.ts';
import { apiReferrer } from './views.ts';
import { responseFormVersion } from '../forms/versions.service.ts';

export const answersSchema = z.record(z.string().min(1).max(64), z.unknown()).default({});
export const hiddenValue = z
  .string()
  .max(LOGIC_LIMITS.maxValueLength)
  .superRefine((value, ctx) => {
    const problem = unsafeStringProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `A hidden field value ${problem}` });
  });

export const FORM_NOT_FOUND = { message: 'Form not found' } as const;
export const invalidBody = (c: PublicContext, errors: FieldError[]) => c.json({ message: 'Invalid request body', errors }, 400);
/** The resume token of `Authorization: Bearer <resumeToken>`. */
export const bearerToken = (c: PublicContext) => /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];

/** Where the response comes from, as it is stored with it. */
export const apiContext = ({ c, deps }: PublicRequest): SubmitInput['context'] => ({
  source: 'api' as const,
  ip: clientIp(c, deps.config.trustProxy),
  country: clientCountry(c, deps.config.countryHeader),
  userAgent: c.req.header('user-agent'),
  referrer: apiReferrer(c),
});

/** A response as the API answers with it: `{id, visitorToken, finished, status, formVersion, nextStep}`. */
export const responseResult = ({ deps }: PublicRequest, form: Form, row: ResponseRow, walked: WalkedPath = currentPath(form, row)) => ({
  id: row.id,
  visitorToken: visitorToken(deps.cookieKeys.current, row.environmentId, row.leadId),
  finished: row.finished,
  status: responseStatus(row, new Date(), deps.config.dropOffMs),
  formVersion: responseFormVersion(row.meta),
  nextStep: walked.next === null ? null : stepKey(form.steps[walked.next]!, walked.next),
  ...recallOf(form, row, walked),
});

/**
 * `recall`: the values of the placeholders in the texts of the step the respondent sees next (the next step,
 * or the completion or invalid step that ended the response), for an embedding client to substitute; left
 * out when those texts hold none.
 */
function recallOf(form: Form, row: ResponseRow, walked: WalkedPath): { recall?: Record<string, string> } {
  const last = walked.path.at(-1);
  const shown = walked.next ?? (last !== undefined && (form.steps[last]!.completion || form.steps[last]!.invalid) ? last : undefined);
  if (shown === undefined) return {};
  const lookup = recallLookup({ data: row.data, meta: { ...row.meta, variables: walked.variables } }, { form, language: row.meta.language ?? defaultLanguageOf(form) });
  const values = recallValues(stepTexts(form.steps[shown]!), lookup);
  return Object.keys(values).length > 0 ? { recall: values } : {};
}

/** Takes the captcha tokens out of `answers` (a captcha records nothing): its answer is its token. */
export function takeCaptchaTokens(form: Form, answers: Record<string, unknown>): Map<string, unknown> {
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
export async function captchaGate(
  { c, deps }: PublicRequest,
  form: Form,
  before: ResponseRow | undefined,
  submission: Pick<SubmitInput, 'answers' | 'finish' | 'hiddenFields'>,
  tokens: Map<string, unknown>,
): Promise<{ passes: CaptchaPasses } | { refused: Response }> {
  const gate = { db: deps.db, secretBox: deps.secretBox, server: deps.config.captcha };
  const { failed, passes } = await checkSubmissionCaptchas(gate, form, before, submission, (captcha) => tokens.get(captcha.id), clientIp(c, deps.config.trustProxy));
  if (failed.some(({ outcome }) => outcome === 'unavailable')) return { refused: c.json({ message: CAPTCHA_MESSAGES.unavailable }, 503) };
  if (failed.length > 0) {
    return {
      refused: invalidBody(
        c,
        failed.map(({ component, outcome }) => ({
          message: CAPTCHA_MESSAGES[outcome],
          path: ['answers', component.id],
        })),
      ),
    };
  }
  return { passes };
}
