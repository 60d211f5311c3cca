/**
 * Who is calling, and whether they may: the one gate in front of /api and /graphql.
 *
 * 1. An address in its failed-authentication cool-down is refused (429) before its credentials are
 *    even looked at.
 * 2. The caller is authenticated (API key or admin token).
 * 3. A failed authentication counts against its address (an IPv6 client's /64) (AUTH_FAILURE_LIMIT per minute, then a
 *    cool-down of AUTH_FAILURE_BLOCK_SECONDS); a request without credentials against its address
 *    (ANONYMOUS_RATE_LIMIT); a known caller against its key (API_RATE_LIMIT).
 * 4. Every answer carries the RateLimit-Policy/RateLimit headers of the policy that applied.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { authenticate, type AdminTokenCheck } from '../auth/auth.service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AppEnv } from '../http.ts';
import { clientIp } from '../request-info.ts';
import { clientAddressKey, rateLimitHeaders, type RateDecision, type RateLimits } from './rate-limits.ts';

export const TOO_MANY_REQUESTS = 'Too many requests';

/** 429 with Retry-After and the RateLimit headers; GraphQL callers also get a GraphQL `errors` list. */
export function tooManyRequests(c: Context, decision: RateDecision, options: { graphql?: boolean } = {}): Response {
  const headers = { ...rateLimitHeaders(decision), 'Retry-After': String(decision.resetSeconds) };
  const body = options.graphql ? { message: TOO_MANY_REQUESTS, errors: [{ message: TOO_MANY_REQUESTS, extensions: { code: 'RATE_LIMITED' } }] } : { message: TOO_MANY_REQUESTS };
  return c.json(body, 429, headers);
}

export function apiGuard(deps: {
  db: Db;
  admin: AdminTokenCheck;
  limits: RateLimits;
  config: Pick<Config, 'trustProxy'>;
  /** Whether verified keys may come from the cache now (false while revocations from other nodes can't be heard). */
  keyCacheTrusted?: () => boolean;
}) {
  const { db, admin, limits, config, keyCacheTrusted = () => true } = deps;
  return createMiddleware<AppEnv>(async (c, next) => {
    const graphql = c.req.path === '/graphql';
    const address = clientAddressKey(clientIp(c, config.trustProxy));
    const standing = await limits.authFailures.peek(address);
    if (!standing.allowed) return tooManyRequests(c, standing, { graphql });

    const principal = await authenticate(db, admin, { apiKey: c.req.header('x-api-key'), authorization: c.req.header('authorization') }, { useCache: keyCacheTrusted() });
    c.set('principal', principal);
    let decision: RateDecision;
    if (principal.kind === 'anonymous') {
      decision = principal.offered ? await limits.authFailures.consume(address) : await limits.anonymous.consume(address);
      if (!decision.allowed) return tooManyRequests(c, decision, { graphql });
    } else {
      decision = await limits.apiKey.consume(principal.kind === 'admin' ? 'admin' : principal.keyId);
      if (!decision.allowed) return tooManyRequests(c, decision, { graphql });
    }
    await next();
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.res.headers.set(name, value);
  });
}
