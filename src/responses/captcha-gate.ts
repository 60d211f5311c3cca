/**
 * The one captcha rule of a submission, which the form page and the public JSON API share: every
 * enforced captcha on every step the submission takes (adds to the response's path, a finish walking
 * through every step left included, or answers, or posts) needs a token its provider confirms. Which
 * steps those are is the submission's own walk (submissions.service.ts, `stepsTakenBy`), so a step
 * without questions (a captcha alone: "verify and submit") is not passed by `{answers: {}}` or
 * `finished: true`. The transaction checks the rule again on the row it locked (`SubmitInput.captchas`).
 */
import type { SecretBox } from '../auth/secret-box.ts';
import type { Db } from '../db/client.ts';
import type { StoredComponent } from '../db/json-columns.ts';
import type { Form } from '../forms/forms.service.ts';
import { checkCaptchas, enforcedCaptchas, type CaptchaOutcome, type CaptchaSettings } from '../components/captchas.ts';
import { captchaSettingsForForm } from '../environments/captcha-keys.service.ts';
import { stepsTakenBy, type CaptchaPasses, type ResponseRow, type SubmitInput } from './submissions.service.ts';

export interface CaptchaGateDeps {
  db: Db;
  secretBox: SecretBox;
  /** The server's captcha settings (config.captcha). */
  server: CaptchaSettings;
}

export interface CaptchaVerdict {
  /** The captchas whose check did not pass, with why (empty: the submission may go on). */
  failed: { component: StoredComponent; outcome: Exclude<CaptchaOutcome, 'ok'> }[];
  /** For the submission (`SubmitInput.captchas`). */
  passes: CaptchaPasses;
}

/**
 * Checks the captchas `submission` must pass on `before` (undefined: a new response): each token from
 * `tokenOf` (a captcha's token as sent, undefined when none) is asked of its provider.
 */
export async function checkSubmissionCaptchas(
  deps: CaptchaGateDeps,
  form: Form,
  before: Pick<ResponseRow, 'data' | 'meta'> | undefined,
  submission: Pick<SubmitInput, 'answers' | 'finish' | 'step' | 'hiddenFields'>,
  tokenOf: (captcha: StoredComponent) => unknown,
  remoteIp: string,
): Promise<CaptchaVerdict> {
  const settings = await captchaSettingsForForm(deps.db, deps.secretBox, deps.server, form);
  const enforced = new Set(form.steps.flatMap((step) => enforcedCaptchas(step, settings)).map((captcha) => captcha.id));
  if (enforced.size === 0) return { failed: [], passes: { enforced, confirmed: new Set() } };
  const required = stepsTakenBy(form, before, submission).flatMap((step) => enforcedCaptchas(form.steps[step]!, settings));
  const failed = await checkCaptchas(required, tokenOf, remoteIp, settings);
  const refused = new Set(failed.map(({ component }) => component.id));
  return {
    failed,
    passes: { enforced, confirmed: new Set(required.map((captcha) => captcha.id).filter((id) => !refused.has(id))) },
  };
}
