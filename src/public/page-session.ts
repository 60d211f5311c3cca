/**
 * How the form page keeps a respondent's session and lead between steps: signed cookies on the
 * stand-alone page, a signed token in every link and form post in embed mode (embed-query.ts,
 * docs/embedding.md).
 */
import { EMBED_QUERY, embedStartQuery, type EmbedRequest } from './embed-query.ts';
import { embedSessionToken, readEmbedSessionToken, type EmbedSession } from '../embed/session-token.ts';
import type { Form } from '../forms/forms.service.ts';
import { createId } from '../ids.ts';
import type { EmbedChrome } from '../components/markup.ts';
import { leadCookieName, newSession, readSignedId, sessionCookieName, setLeadCookie, type PublicContext, type PublicDeps } from './http.ts';

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

/** The stand-alone page's session: signed cookies (http.ts). */
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
