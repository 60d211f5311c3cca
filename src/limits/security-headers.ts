/**
 * Security headers. API answers (/api, /graphql, health) carry personal data: never cached, never
 * sniffed, never framed. Public pages carry their own CSP (nonce'd, see public/html-response.ts) plus the
 * headers here; who may frame them is FRAME_ANCESTORS.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../http.ts';
import { isHttps } from '../request-info.ts';
import type { Config } from '../config.ts';

const HSTS = 'max-age=31536000; includeSubDomains';
/** The policy of an answer that is not a page: nothing loads, nothing frames it. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers every response gets, whatever route answered (set after the handler, so none can drop them). */
export function baseSecurityHeaders(config: Pick<Config, 'trustProxy' | 'frameAncestors'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('frameAncestors', config.frameAncestors);
    await next();
    const headers = c.res.headers;
    headers.set('X-Content-Type-Options', 'nosniff');
    // Whatever answered without a policy of its own (a JSON 404, the public JSON API, a script) renders nothing and is framed by nobody.
    const html = headers.get('content-type')?.startsWith('text/html') ?? false;
    if (!html && !headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', JSON_CSP);
    if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'no-referrer');
    if (isHttps(c, config)) headers.set('Strict-Transport-Security', HSTS);
  });
}

/**
 * API answers: `Cache-Control: no-store`, and a CSP that lets the JSON render nothing and be framed by
 * nobody. An HTML page served here (GraphiQL) brings its own CSP.
 */
export const apiSecurityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set('Cache-Control', 'no-store');
  const html = headers.get('content-type')?.startsWith('text/html') ?? false;
  if (!headers.has('Content-Security-Policy') && !html) headers.set('Content-Security-Policy', JSON_CSP);
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
});

/** Headers of a public HTML page beside its CSP. */
export function pageSecurityHeaders(frameAncestors: string): Record<string, string> {
  return {
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    // For browsers that predate CSP frame-ancestors; it can only say "same origin", so only then.
    ...(frameAncestors.trim() === "'self'" ? { 'X-Frame-Options': 'SAMEORIGIN' } : {}),
  };
}
