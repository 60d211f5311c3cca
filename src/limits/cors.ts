/**
 * CORS for the API (/graphql, /api/v1): only the origins in CORS_ORIGINS (default none) may call it
 * from a browser, without credentials (API keys travel in headers, never cookies), and an unlisted
 * origin gets no CORS headers at all. The public submission API has its own open policy (public/routes.ts).
 */
import { cors } from 'hono/cors';
import type { Config } from '../config.ts';

export function apiCors(config: Pick<Config, 'corsOrigins'>) {
  const allowed = new Set(config.corsOrigins);
  return cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    credentials: false,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'X-Api-Key', 'Authorization', 'X-Request-Id', 'Idempotency-Key'],
    exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'Content-Disposition'],
    maxAge: 600,
  });
}
