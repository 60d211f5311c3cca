/**
 * Public form pages (`/s/:formId`) and the public submission API (`/s/:formId/responses…`): no API
 * key, their own limits. Submissions (POST/PATCH) are rate-limited per client IP
 * (PUBLIC_RATE_LIMIT per minute → 429 with Retry-After) and size-limited (PUBLIC_MAX_BODY_BYTES → 413);
 * the JSON API answers those with `{message}`, the page with a short HTML page.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { appErrorOf, HTTP_STATUS, INTERNAL_ERROR_BODY } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { mountApi } from './api.ts';
import { sendMessagePage, type PublicContext, type PublicDeps } from './http.ts';
import { mountPage } from './page.ts';
import { FixedWindowRateLimiter } from './rate-limit.ts';
import { clientIp } from './request-info.ts';

export type { PublicDeps } from './http.ts';

const isApiRequest = (c: PublicContext) => /^\/s\/[^/]+\/(responses|definition)(\/|$)/.test(c.req.path);

export function publicRoutes(deps: PublicDeps) {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  const limiter = new FixedWindowRateLimiter(config.publicRateLimitPerMinute);

  const apiCors = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Authorization'],
    maxAge: 600,
  });
  app.use('/s/:formId/definition', apiCors);
  app.use('/s/:formId/responses', apiCors);
  app.use('/s/:formId/responses/*', apiCors);

  const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
    const decision = limiter.hit(clientIp(c, config.trustProxy) || 'unknown');
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      if (isApiRequest(c)) return c.json({ message: 'Too many requests' }, 429);
      return sendMessagePage(c, 429, 'Too many requests', 'Please wait a minute, then try again.');
    }
    await next();
  });
  const limitBody = bodyLimit({
    maxSize: config.publicMaxBodyBytes,
    onError: (c) => {
      const message = `Request body too large (limit ${config.publicMaxBodyBytes} bytes)`;
      return isApiRequest(c) ? c.json({ message }, 413) : sendMessagePage(c, 413, 'Too much data', message);
    },
  });
  for (const path of ['/s/:formId', '/s/:formId/responses', '/s/:formId/responses/:responseId']) {
    app.on(['POST', 'PATCH'], path, rateLimit, limitBody);
  }

  mountPage(app, deps);
  mountApi(app, deps);
  // Unexpected failures: the JSON API answers like the rest of the API, a page with a page; the cause is logged.
  app.onError((error, c) => {
    const known = appErrorOf(error);
    if (known?.code === 'UNAVAILABLE') {
      // The database is away: a retryable 503, the page says so.
      c.var.log.warn({ err: error }, 'database unavailable');
      if (isApiRequest(c)) return c.json({ message: known.message }, HTTP_STATUS.UNAVAILABLE);
      return sendMessagePage(c, HTTP_STATUS.UNAVAILABLE, 'Service unavailable', 'The form cannot be loaded or saved right now. Please try again in a moment.');
    }
    c.var.log.error({ err: error }, 'unexpected error');
    if (isApiRequest(c)) return c.json(INTERNAL_ERROR_BODY, 500);
    return sendMessagePage(c, 500, 'Something went wrong', 'Please try again in a moment.');
  });
  return app;
}
