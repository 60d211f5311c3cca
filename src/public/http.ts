/** Pieces the public page and the public JSON API share: the live form, headers, the CSP, cookies. */
import type { SigningKeys } from '../auth/signing-keys.ts';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppMetrics } from '../metrics.ts';
import type { Context } from 'hono';
import type { FileStorage } from '../uploads/storage.ts';
import { getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { findFormById, type Form } from '../forms/forms.service.ts';
import { versionForResponse } from '../forms/versions.service.ts';
import type { AppEnv } from '../http.ts';
import { createId } from '../ids.ts';
import { findFormAndResponse, type AnswerLimits, type SeenResponse } from '../responses/submissions.service.ts';
import { renderClosedPage, renderMessagePage } from './render.ts';
import { isHttps } from '../request-info.ts';
import { embedChromeOf } from './embed-query.ts';
import type { RateLimit } from '../limits/rate-limits.ts';
import { pageSecurityHeaders } from '../limits/security-headers.ts';

export interface PublicDeps {
  config: Config;
  db: Db;
  /** Key for signing the public pages' cookies and visitor tokens (src/auth/admin-token.ts). */
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

/** A closed form's page: its theme, "no longer accepting responses", 410 (in embed mode, with the embed's chrome). */
export async function closedFormPage(c: PublicContext, form: Form, fontsCssUrl: string | undefined): Promise<Response> {
  const nonce = newNonce();
  const page = await renderClosedPage(form, { nonce, fontsCssUrl, embed: embedChromeOf(c) });
  return sendHtml(c, page.toString(), FORM_CLOSED_STATUS, pageCsp(nonce, { fontsCssUrl }));
}

export const newNonce = () => randomBytes(16).toString('base64');

/** The page's Content-Security-Policy: nothing but our nonce'd style and script, the theme's font service, and the step's calendars and captcha provider. */
export function pageCsp(
  nonce: string,
  options: { fontsCssUrl?: string | undefined; frameOrigins?: readonly string[]; scriptOrigins?: readonly string[] },
): string {
  const fontsOrigin = options.fontsCssUrl ? new URL(options.fontsCssUrl).origin : undefined;
  const frames = options.frameOrigins ?? [];
  const scripts = options.scriptOrigins ?? [];
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${scripts.map((origin) => ` ${origin}`).join('')}`,
    `style-src 'nonce-${nonce}'${fontsOrigin ? ` ${fontsOrigin}` : ''}`,
    fontsOrigin ? "font-src 'self' https:" : "font-src 'self'",
    "img-src 'self' https: http: data: blob:",
    // The FileUploader's script uploads to this server.
    "connect-src 'self'",
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "form-action 'self'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Sends an HTML page with the security headers every public page carries. Pages hold answers: never
 * cached. Who may frame them (forms are embedded on customers' sites) is FRAME_ANCESTORS.
 */
export function sendHtml(c: PublicContext, body: string, status: number, csp: string): Response {
  const frameAncestors = c.var.frameAncestors ?? "'self'";
  c.header('Content-Security-Policy', `${csp}; frame-ancestors ${frameAncestors}`);
  for (const [name, value] of Object.entries(pageSecurityHeaders(frameAncestors))) c.header(name, value);
  c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  c.header('Cache-Control', 'no-store');
  return c.html(body, status as 200);
}

/** A message page; in embed mode with the embed's chrome, so the embedding page shows it too. */
export async function sendMessagePage(
  c: PublicContext,
  status: number,
  title: string,
  message: string,
  options: Parameters<typeof renderMessagePage>[3] = {},
): Promise<Response> {
  const nonce = newNonce();
  const page = await renderMessagePage({ nonce, fontsCssUrl: undefined, embed: embedChromeOf(c) }, title, message, options);
  return sendHtml(c, page.toString(), status, pageCsp(nonce, {}));
}

export const notFoundPage = (c: PublicContext) =>
  sendMessagePage(c, 404, 'Form not found', 'This form does not exist or is no longer available.');

// ---------------------------------------------------------------- cookies

/** The visitor's lead in an environment (one lead across visits). */
export const leadCookieName = (environmentId: string) => `fl_lead_${environmentId}`;
/** The browser's session with one form: which response it is filling in. */
export const sessionCookieName = (formId: string) => `fl_s_${formId}`;

const LEAD_MAX_AGE = 400 * 24 * 3600; // the longest browsers keep a cookie
const SESSION_MAX_AGE = 30 * 24 * 3600;
const ID = /^[\w-]{1,64}$/;

/**
 * Signed cookies in hono's format (`value.signature`, the signature HMAC-SHA256 in standard base64, the
 * whole URI-encoded), signed and checked with node:crypto: hono's own helpers import the key through
 * WebCrypto on every call, which cost a quarter of a page POST's CPU (bench: 2,170–2,222 → 1,544–1,676 µs
 * a submission). Cookies set by either verify with the other (test/public/public.page.test.ts).
 */
const cookieSignature = (value: string, secret: string) => createHmac('sha256', secret).update(value).digest('base64');

function setSignedCookie(c: PublicContext, name: string, value: string, secret: string, options: CookieOptions): void {
  setCookie(c, name, `${value}.${cookieSignature(value, secret)}`, options);
}

/** The id a cookie holds, if its signature is good and it looks like an id. */
export function readSignedId(c: PublicContext, keys: SigningKeys, name: string): string | undefined {
  return keys.verify((secret) => readSignedIdWith(c, secret, name));
}

function readSignedIdWith(c: PublicContext, secret: string, name: string): string | undefined {
  const cookie = getCookie(c, name) ?? '';
  const dot = cookie.lastIndexOf('.');
  if (dot < 0) return undefined;
  const value = cookie.slice(0, dot);
  const given = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(cookieSignature(value, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) && ID.test(value) ? value : undefined;
}

export function setLeadCookie(c: PublicContext, deps: PublicDeps, form: Form, leadId: string): void {
  setSignedCookie(c, leadCookieName(form.environmentId), leadId, deps.cookieKeys.current, {
    path: '/s',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, deps.config),
    maxAge: LEAD_MAX_AGE,
  });
}

/** Starts a new session with the form (a new response on its first submission). */
export function newSession(c: PublicContext, deps: PublicDeps, form: Form): string {
  const sessionId = createId();
  setSignedCookie(c, sessionCookieName(form.id), sessionId, deps.cookieKeys.current, {
    path: `/s/${form.id}`,
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, deps.config),
    maxAge: SESSION_MAX_AGE,
  });
  return sessionId;
}
