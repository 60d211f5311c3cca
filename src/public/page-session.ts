/**
 * How the form page keeps a respondent's session and lead between steps: signed cookies on the
 * stand-alone page, a signed token in every link and form post in embed mode (embed-query.ts,
 * docs/embedding.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { SigningKeys } from '../auth/signing-keys.ts';
import type { EmbedChrome } from '../components/markup.ts';
import { embedSessionToken, readEmbedSessionToken, type EmbedSession } from '../embed/session-token.ts';
import type { Form } from '../forms/forms.service.ts';
import { createId } from '../ids.ts';
import { isHttps } from '../request-info.ts';
import type { PublicContext, PublicDeps } from './context.ts';
import { EMBED_QUERY, embedStartQuery, type EmbedRequest } from './embed-query.ts';

export interface PageSession {
  /** The visitor's lead; a fresh id is reserved (and created with the first submission) when there is none. */
  lead(): string;
  /** The session the request brought (a good cookie or token), if any. */
  readonly sessionId: string | undefined;
  /** Starts a new session (a new response on its first submission) and returns its id. */
  start(): string;
  /**
   * Whether the session moves to a fresh id at every submission (embed mode: its token travels in URLs,
   * so a link another browser used must not continue the response).
   */
  readonly rotates: boolean;
  /** The session's response moved to `sessionId` (`rotates`): what links and posts carry from now on. */
  moveTo(sessionId: string): void;
  /** The lead the session's response belongs to now (an answered e-mail may have moved it). */
  setLead(leadId: string): void;
  /** What links and form posts carry, `&name=value…` ('' with cookies): read after the session's last change. */
  carry(): string;
  /** Embed mode's page chrome; undefined on the stand-alone page. */
  readonly embed: EmbedChrome | undefined;
  /** Embed mode: a token was sent that is not good for this form (altered, another form's, or expired). */
  readonly refused: boolean;
}

/** The stand-alone page's session: signed cookies (below). */
export function cookieSession(c: PublicContext, deps: PublicDeps, form: Form): PageSession {
  let lead: string | undefined;
  return {
    lead() {
      lead ??= readSignedId(c, deps.cookieKeys, leadCookieName(form.environmentId));
      if (lead === undefined) {
        lead = createId();
        setLeadCookie(c, deps, form, lead);
      }
      return lead;
    },
    sessionId: readSignedId(c, deps.cookieKeys, sessionCookieName(form.id)),
    start: () => newSession(c, deps, form),
    rotates: false,
    moveTo: () => undefined,
    setLead(leadId) {
      lead = leadId;
      setLeadCookie(c, deps, form, leadId);
    },
    carry: () => '',
    embed: undefined,
    refused: false,
  };
}

/** Embed mode's session: the signed token of the request's `fl-token`, handed on in every link and post; no cookie is read or set. */
export function tokenSession(deps: PublicDeps, form: Form, request: EmbedRequest): PageSession {
  const given = request.token === undefined ? undefined : deps.cookieKeys.verify((key) => readEmbedSessionToken(key, form.id, request.token!));
  const state: Partial<EmbedSession> = { ...given };
  return {
    lead: () => (state.leadId ??= createId()),
    sessionId: given?.sessionId,
    start: () => (state.sessionId = createId()),
    rotates: true,
    moveTo(sessionId) {
      state.sessionId = sessionId;
    },
    setLead(leadId) {
      state.leadId = leadId;
    },
    carry() {
      const params = new URLSearchParams(embedStartQuery(request.chrome));
      if (state.sessionId !== undefined && state.leadId !== undefined) {
        params.set(EMBED_QUERY.token, embedSessionToken(deps.cookieKeys.current, form.id, { sessionId: state.sessionId, leadId: state.leadId }));
      }
      return `&${params.toString()}`;
    },
    embed: request.chrome,
    refused: request.token !== undefined && given === undefined,
  };
}

// ---------------------------------------------------------------- cookies

/** The visitor's lead in an environment (one lead across visits). */
const leadCookieName = (environmentId: string) => `fl_lead_${environmentId}`;
/** The browser's session with one form: which response it is filling in. */
const sessionCookieName = (formId: string) => `fl_s_${formId}`;

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
function readSignedId(c: PublicContext, keys: SigningKeys, name: string): string | undefined {
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

function setLeadCookie(c: PublicContext, deps: PublicDeps, form: Form, leadId: string): void {
  setSignedCookie(c, leadCookieName(form.environmentId), leadId, deps.cookieKeys.current, {
    path: '/s',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, deps.config),
    maxAge: LEAD_MAX_AGE,
  });
}

/** Starts a new session with the form (a new response on its first submission). */
function newSession(c: PublicContext, deps: PublicDeps, form: Form): string {
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
