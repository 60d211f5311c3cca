/**
 * The session of an embedded form, carried without cookies. Inside a cross-site frame browsers send no
 * `SameSite=Lax` cookie (and block third-party cookies), so in embed mode the page's session and lead
 * travel in a signed token in the step's links and form posts (`fl-token`) instead:
 *
 *   `<sessionId>.<leadId>.<expires>.<mac>`, mac = HMAC-SHA256(key, "embed-session:v1:<formId>:<sessionId>:<leadId>:<expires>")
 *
 * The key is the instance's page-cookie key (src/auth/admin-token.ts). The form id is signed but not
 * carried, so a token is good for its own form only; any change to a part breaks the mac; a token past
 * its expiry (seconds since the epoch) is refused. Each page the form shows hands out a fresh token, so
 * only a session left alone for EMBED_TOKEN_TTL_SECONDS expires. The session in a token is rotated at
 * every submitted step (public/step-post.ts), so a token a later step superseded finds no response.
 */
import { deriveSecret, secretsEqual } from '../auth/secrets.ts';

/** How long a token stays good after the page that issued it: a day. */
export const EMBED_TOKEN_TTL_SECONDS = 24 * 3600;

const ID = /^[\w-]{1,64}$/;
const MAX_TOKEN_LENGTH = 300;

export interface EmbedSession {
  sessionId: string;
  leadId: string;
}

const mac = (secret: string, formId: string, session: EmbedSession, expires: number) =>
  deriveSecret(secret, `embed-session:v1:${formId}:${session.sessionId}:${session.leadId}:${expires}`);

/** A token for `session` on form `formId`, good for EMBED_TOKEN_TTL_SECONDS from `now`. */
export function embedSessionToken(secret: string, formId: string, session: EmbedSession, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + EMBED_TOKEN_TTL_SECONDS;
  return `${session.sessionId}.${session.leadId}.${expires}.${mac(secret, formId, session, expires)}`;
}

/** The session a token stands for on form `formId`; undefined when it was not issued by us for this form, was altered, or has expired. */
export function readEmbedSessionToken(secret: string, formId: string, token: string, now = Date.now()): EmbedSession | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4) return undefined;
  const [sessionId, leadId, expiresText, given] = parts as [string, string, string, string];
  if (!ID.test(sessionId) || !ID.test(leadId) || !/^\d{1,12}$/.test(expiresText)) return undefined;
  const expires = Number(expiresText);
  const session = { sessionId, leadId };
  if (!secretsEqual(given, mac(secret, formId, session, expires))) return undefined;
  return expires * 1000 > now ? session : undefined;
}
