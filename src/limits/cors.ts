/**
 * CORS. The API (/graphql, /api/v1): only the origins in CORS_ORIGINS (default none) may call it from a
 * browser, without credentials (API keys travel in headers, never cookies), and an unlisted origin gets
 * no CORS headers at all. The public submission API is open to every origin (public/routes.ts).
 *
 * Why not hono/cors: it writes its headers on `c.res` before the handler runs, which makes Hono rebuild
 * every answer as a WHATWG Response with a stream body (and again for `Vary` after it). That took the
 * answer off @hono/node-server's direct write and cost ≈ 30 % of a listing request's CPU. Here the
 * handler's answer is kept and its headers are added after it.
 */
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config.ts';
import type { AppEnv } from '../http.ts';

export interface CorsPolicy {
  /** The Access-Control-Allow-Origin value for a request from `origin`, or null: no CORS headers. */
  allowOrigin: (origin: string) => string | null;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

/**
 * Every OPTIONS request is answered here with 204 (a preflight gets the policy when its origin is
 * allowed); other requests get Allow-Origin and Expose-Headers on the handler's answer when allowed.
 * An answer that depends on the origin says so with `Vary: Origin`.
 */
export function corsMiddleware(policy: CorsPolicy) {
  const allowMethods = policy.allowMethods.join(',');
  const allowHeaders = policy.allowHeaders.join(',');
  const exposeHeaders = policy.exposeHeaders.join(',');
  const maxAge = String(policy.maxAgeSeconds);
  const anyOrigin = policy.allowOrigin('') === '*';
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header('origin');
    const allowed = origin === undefined ? (anyOrigin ? '*' : null) : policy.allowOrigin(origin);
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = {};
      if (allowed) {
        headers['Access-Control-Allow-Origin'] = allowed;
        headers['Access-Control-Allow-Methods'] = allowMethods;
        headers['Access-Control-Allow-Headers'] = allowHeaders;
        headers['Access-Control-Max-Age'] = maxAge;
      }
      if (!anyOrigin) headers.Vary = 'Origin';
      return c.body(null, 204, headers);
    }
    await next();
    const headers = c.res.headers;
    if (allowed) {
      headers.set('Access-Control-Allow-Origin', allowed);
      headers.set('Access-Control-Expose-Headers', exposeHeaders);
    }
    if (!anyOrigin) headers.append('Vary', 'Origin');
  });
}

/** The API's policy: the configured origins only. */
export function apiCors(config: Pick<Config, 'corsOrigins'>) {
  const allowed = new Set(config.corsOrigins);
  return corsMiddleware({
    allowOrigin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'X-Api-Key', 'Authorization', 'X-Request-Id', 'Idempotency-Key', 'If-Match'],
    exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'Content-Disposition', 'ETag'],
    maxAgeSeconds: 600,
  });
}
