/**
 * Public form pages (`/s/:formId`), the public submission API (`/s/:formId/responses…`) and the embed
 * script (`/embed.js`): no API key, their own limits. Submissions (POST/PATCH) are rate-limited per client address
 * (PUBLIC_RATE_LIMIT per minute → 429 with Retry-After and the RateLimit headers) and size-limited
 * (PUBLIC_MAX_BODY_BYTES → 413, closing the connection); the JSON API answers those with `{message}`,
 * the page with a short HTML page. Each route's handler is a module of its own (docs/architecture.md,
 * "The public layer").
 */
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { appErrorOf, HTTP_STATUS, INTERNAL_ERROR_BODY } from '../graphql/errors.ts';
import type { AppEnv } from '../http.ts';
import { formatSize, pageWords } from '../i18n/locales.ts';
import { TOO_MANY_REQUESTS } from '../limits/api-guard.ts';
import { corsMiddleware } from '../limits/cors.ts';
import { clientAddressKey, rateLimitHeaders, type RateLimit } from '../limits/rate-limits.ts';
import { limitBodySize, methodNotAllowed } from '../limits/request-safety.ts';
import { clientIp } from '../request-info.ts';
import { startResponse } from './api-start.ts';
import { updateResponse } from './api-update.ts';
import { handle, isPublicApiRequest, liveForm, type PublicContext, type PublicDeps } from './context.ts';
import { showDefinition } from './definition.ts';
import { mountEmbedScript } from './embed-script.ts';
import { sendMessagePage } from './html-response.ts';
import { mountPageAssets } from './page-assets.ts';
import { handlePage } from './page-request.ts';
import { showStepPage } from './step-page.ts';
import { postStep } from './step-post.ts';
import { storeUpload } from './uploads.ts';
import { reportView } from './views.ts';

export type { PublicDeps } from './context.ts';

export function publicRoutes(deps: PublicDeps) {
  const app = new Hono<AppEnv>();
  guardRoutes(app, deps);
  mountEmbedScript(app);
  mountPageAssets(app);
  app.get('/s/:formId', handlePage(deps, showStepPage));
  app.post('/s/:formId', handlePage(deps, postStep));
  app.get('/s/:formId/definition', handle(deps, showDefinition));
  app.post('/s/:formId/responses', handle(deps, startResponse));
  app.patch('/s/:formId/responses/:responseId', handle(deps, updateResponse));
  app.post('/s/:formId/uploads', handle(deps, storeUpload));
  app.post('/s/:formId/views', handle(deps, reportView));
  app.all('/s/:formId', (c) => {
    c.header('Allow', 'GET, POST');
    return sendMessagePage(c, 405, 'Method not allowed', `This page answers GET and POST, not ${c.req.method}.`);
  });
  app.all('/s/:formId/definition', methodNotAllowed(['GET']));
  app.all('/s/:formId/responses', methodNotAllowed(['POST']));
  app.all('/s/:formId/responses/:responseId', methodNotAllowed(['PATCH']));
  app.all('/s/:formId/uploads', methodNotAllowed(['POST']));
  app.all('/s/:formId/views', methodNotAllowed(['POST']));
  app.onError(unexpectedError);
  return app;
}

/** The edge of every public route: CORS for the JSON API, the rate limits, the body size limits. */
function guardRoutes(app: Hono<AppEnv>, deps: PublicDeps): void {
  const { config, submissionLimit, pageLimit } = deps;
  // Open to every origin, without credentials: forms are embedded on customers' sites.
  const apiCors = corsMiddleware({
    allowOrigin: () => '*',
    allowMethods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key'],
    exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed'],
    maxAgeSeconds: 600,
  });
  for (const path of ['/s/:formId/definition', '/s/:formId/responses', '/s/:formId/responses/*', '/s/:formId/uploads', '/s/:formId/views']) app.use(path, apiCors);
  const rateLimit = rateLimited(deps, submissionLimit);
  // Reads are counted apart from submissions: rendering a page walks the form's rules too.
  app.get('/s/:formId', rateLimited(deps, pageLimit));
  app.get('/s/:formId/definition', rateLimited(deps, pageLimit));
  const limitBody = limitBodySize(config.publicMaxBodyBytes, tooMuchData(deps, config.publicMaxBodyBytes));
  for (const path of ['/s/:formId/responses', '/s/:formId/responses/:responseId']) {
    app.on(['POST', 'PATCH'], path, rateLimit, limitBody);
  }
  // Files: uploads, and page posts that may carry them (multipart), get the larger upload limit.
  const limitUploadBody = limitBodySize(config.uploads.maxBodyBytes, tooMuchData(deps, config.uploads.maxBodyBytes));
  const isMultipart = (c: Context<AppEnv>) => c.req.header('content-type')?.trim().toLowerCase().startsWith('multipart/form-data') === true;
  app.on(['POST', 'PATCH'], '/s/:formId', rateLimit, (c, next) => (isMultipart(c) ? limitUploadBody(c, next) : limitBody(c, next)));
  app.post('/s/:formId/uploads', rateLimit, limitUploadBody);
  app.post('/s/:formId/views', rateLimit, limitBody);
}

/** Requests per client address under `limit`: over it, 429 with Retry-After (JSON or a page). */
const rateLimited = (deps: PublicDeps, limit: RateLimit) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const decision = await limit.consume(clientAddressKey(clientIp(c, deps.config.trustProxy)));
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.resetSeconds));
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      if (isPublicApiRequest(c)) return c.json({ message: TOO_MANY_REQUESTS }, 429);
      return sendMessagePage(c, 429, TOO_MANY_REQUESTS, 'Please wait a minute, then try again.');
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });

/** A body over `maxBytes`: the JSON API's message, or a page in its form's language (the post was counted by the rate limit first). */
const tooMuchData = (deps: PublicDeps, maxBytes: number) => async (c: PublicContext, message: string) => {
  if (isPublicApiRequest(c)) return c.json({ message }, 413);
  const form = await liveForm(deps.db, c.req.param('formId') ?? '').catch(() => undefined);
  if (!form) return sendMessagePage(c, 413, 'Too much data', message);
  const words = pageWords(form.locale);
  return sendMessagePage(c, 413, words.tooMuchTitle, words.tooMuchText(formatSize(maxBytes, form.locale)), {
    locale: form.locale,
    formId: form.id,
  });
};

/** Unexpected failures: the JSON API answers like the rest of the API, a page with a page; the cause is logged. */
function unexpectedError(error: Error, c: PublicContext): Response | Promise<Response> {
  const known = appErrorOf(error);
  if (known?.code === 'UNAVAILABLE') {
    // The database is away: a retryable 503, the page says so.
    c.var.log.warn({ err: error }, 'database unavailable');
    if (isPublicApiRequest(c)) return c.json({ message: known.message }, HTTP_STATUS.UNAVAILABLE);
    return sendMessagePage(c, HTTP_STATUS.UNAVAILABLE, 'Service unavailable', 'The form cannot be loaded or saved right now. Please try again in a moment.');
  }
  c.var.log.error({ err: error }, 'unexpected error');
  if (isPublicApiRequest(c)) return c.json(INTERNAL_ERROR_BODY, 500);
  return sendMessagePage(c, 500, 'Something went wrong', 'Please try again in a moment.');
}
