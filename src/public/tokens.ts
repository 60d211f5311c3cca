/** Secrets of the public JSON API: resume tokens (per response) and visitor tokens (per lead). */
import { createHash, randomBytes } from 'node:crypto';
import { deriveSecret, secretsEqual } from '../auth/secrets.ts';

/** A new resume token: 256 random bits. Only its hash is stored (as the response's session key). */
export const newResumeToken = (): string => randomBytes(32).toString('base64url');

/** The session key an API response is stored under: a hash of its resume token. */
export const apiSessionKey = (resumeToken: string): string => `api:${createHash('sha256').update(resumeToken).digest('base64url')}`;

const mac = (secret: string, environmentId: string, leadId: string) => deriveSecret(secret, `visitor:${environmentId}:${leadId}`);

/** A token that lets an API client stay one lead across responses, like the page's cookie: `<leadId>.<mac>`. */
export const visitorToken = (secret: string, environmentId: string, leadId: string): string => `${leadId}.${mac(secret, environmentId, leadId)}`;

/** The lead id a visitor token stands for in this environment, or undefined when it was not issued by us for it. */
export function leadOfVisitorToken(secret: string, environmentId: string, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const leadId = token.slice(0, dot);
  return secretsEqual(token.slice(dot + 1), mac(secret, environmentId, leadId)) ? leadId : undefined;
}
