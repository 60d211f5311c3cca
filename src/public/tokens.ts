/** Secrets of the public JSON API: resume tokens (per response) and visitor tokens (per lead). */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new resume token: 256 random bits. Only its hash is stored (as the response's session key). */
export const newResumeToken = (): string => randomBytes(32).toString('base64url');

/** The session key an API response is stored under: a hash of its resume token. */
export const apiSessionKey = (resumeToken: string): string => `api:${createHash('sha256').update(resumeToken).digest('base64url')}`;

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const mac = (secret: string, environmentId: string, leadId: string) =>
  createHmac('sha256', secret).update(`visitor:${environmentId}:${leadId}`).digest('base64url');

/** A token that lets an API client stay one lead across responses, like the page's cookie: `<leadId>.<mac>`. */
export const visitorToken = (secret: string, environmentId: string, leadId: string): string => `${leadId}.${mac(secret, environmentId, leadId)}`;

/** The lead id a visitor token stands for in this environment, or undefined when it was not issued by us for it. */
export function leadOfVisitorToken(secret: string, environmentId: string, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const leadId = token.slice(0, dot);
  return sameSecret(token.slice(dot + 1), mac(secret, environmentId, leadId)) ? leadId : undefined;
}
