/**
 * The request context every public handler works from, made once per request: hono's context (the
 * request, and the response being built), the services, and the form the address names. Handlers take
 * what they need from it; the page's handlers get more (the live form, the session: page-request.ts).
 */
import type { Context } from 'hono';
import type { SecretBox } from '../auth/secret-box.ts';
import type { SigningKeys } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { findFormById, type Form } from '../forms/forms.service.ts';
import { versionForResponse } from '../forms/versions.service.ts';
import type { AppEnv } from '../http.ts';
import type { RateLimit } from '../limits/rate-limits.ts';
import type { AppMetrics } from '../metrics.ts';
import { findFormAndResponse, submitAnswers, type AnswerLimits, type SeenResponse, type SubmitInput } from '../responses/submissions.service.ts';
import type { FileStorage } from '../uploads/storage.ts';

export interface PublicDeps {
  config: Config;
  db: Db;
  /** Sign and check respondents' cookies, embed session and visitor tokens (src/auth/signing-keys.ts). */
  cookieKeys: SigningKeys;
  /** Opens environments' sealed captcha secret keys. */
  secretBox: SecretBox;
  /** Public submissions per client address. */
  submissionLimit: RateLimit;
  /** Public page and definition reads per client address. */
  pageLimit: RateLimit;
  /** Password answers per submission, and the one bounded hasher the page and the JSON API share. */
  answerLimits: AnswerLimits;
  /** Where uploaded files are stored. */
  fileStorage: FileStorage;
  /** Counts created and finished responses. */
  metrics?: Pick<AppMetrics, 'responseSubmitted'>;
}

export type PublicContext = Context<AppEnv>;

/** One public request: hono's context, the services, and the id of the form its address names. */
export interface PublicRequest {
  readonly c: PublicContext;
  readonly deps: PublicDeps;
  readonly formId: string;
}

/** A route's handler over the request context: `app.get(path, handle(deps, showDefinition))`. */
export const handle =
  (deps: PublicDeps, handler: (request: PublicRequest) => Promise<Response>) =>
  (c: PublicContext): Promise<Response> =>
    handler({ c, deps, formId: c.req.param('formId') ?? '' });

/** The public JSON API (`/s/:id/definition`, `/s/:id/responses…`, `/s/:id/uploads`, `/s/:id/views`), which answers in JSON. */
export const isPublicApiRequest = (c: Context) => /^\/s\/[^/]+\/(?:responses|definition|uploads|views)(?:\/|$)/.test(c.req.path);
/** A public form page (`/s/…` but not the JSON API), which answers in HTML. */
export const isPublicPageRequest = (c: Context) => c.req.path.startsWith('/s/') && !isPublicApiRequest(c);

/**
 * A form the public may see: published or closed, not deleted. Drafts, deleted and unknown forms are
 * all "not found"; a closed form is shown as closed (`closedFormPage`, `FORM_CLOSED` with 410).
 */
export async function liveForm(db: Db, formId: string): Promise<Form | undefined> {
  const form = await findFormById(db, formId);
  return form && isLive(form) ? form : undefined;
}

const isLive = (form: Form) => form.status === 'published' || form.status === 'closed';

/** `liveForm`, with its response `responseId` as it is now (undefined if none), in one statement. */
export async function liveFormWithResponse(db: Db, formId: string, responseId: string): Promise<{ form: Form; response: SeenResponse | undefined } | undefined> {
  const found = await findFormAndResponse(db, formId, responseId);
  return found && isLive(found.form) ? found : undefined;
}

/**
 * The form as `response` is answered on (versions.service.ts, `versionForResponse`): the version it started
 * on while it is younger than PINNED_VERSION_MAX_AGE_HOURS and that version has the current one's captchas
 * and required consents, else the form as it is now. No response: the form as it is now.
 */
export async function formForResponse(db: Db, config: Pick<Config, 'pinnedVersionMaxAgeMs'>, form: Form, response: { meta: unknown; createdAt: Date } | undefined): Promise<Form> {
  if (!response) return form;
  return versionForResponse(db, form, response, config.pinnedVersionMaxAgeMs);
}

/** The public JSON API's answer for a closed form: 410 Gone, the form no longer takes responses. */
export const FORM_CLOSED = { message: 'This form is closed and no longer accepts responses' } as const;
export const FORM_CLOSED_STATUS = 410;

/** submitAnswers, counted in the metrics under the page or the JSON API. */
export async function submitCounted(deps: PublicDeps, source: 'page' | 'api', input: SubmitInput) {
  const result = await submitAnswers(deps.db, input);
  deps.metrics?.responseSubmitted(source, { created: result.created, finished: result.response.finished });
  return result;
}
