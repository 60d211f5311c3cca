/** Builds the HTTP app from its dependencies: GraphQL, the v1 REST adapters, public pages, health. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import { deriveSecret, forgetAllVerifiedKeys, forgetVerifiedKey } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import { databaseReachable } from './db/availability.ts';
import type { Db } from './db/client.ts';
import { LiveFeed } from './events/live-feed.ts';
import type { EventFeed } from './events/notifications.ts';
import { webhooksRoutes } from './rest/webhooks.ts';
import { graphQLErrorBody, INTERNAL_ERROR_BODY, appErrorOf, HTTP_STATUS } from './graphql/errors.ts';
import { createGraphQLServer } from './graphql/yoga.ts';
import type { AppEnv } from './http.ts';
import type { DrainState } from './lifecycle.ts';
import { apiGuard } from './limits/api-guard.ts';
import { apiCors } from './limits/cors.ts';
import { createRateLimits, type RateLimitStore } from './limits/rate-limits.ts';
import { limitBodySize, methodNotAllowed, rejectHostileUrls, type InputProblem } from './limits/request-safety.ts';
import { apiSecurityHeaders, baseSecurityHeaders } from './limits/security-headers.ts';
import { isPublicPageRequest, sendMessagePage } from './public/http.ts';
import { publicRoutes } from './public/routes.ts';
import { PasswordHasher } from './responses/password-hashing.ts';
import { adminRoutes } from './rest/admin.ts';
import { formsRoutes } from './rest/forms.ts';
import { responsesRoutes } from './rest/responses.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  adminToken: string;
  /** Where rate-limit counters live (default: this process's memory). */
  rateLimitStore?: RateLimitStore;
  /** Set by the process's graceful shutdown (src/lifecycle.ts): readiness answers 503 while draining. */
  drain?: DrainState;
  /**
   * What other nodes on the database announce (key revocations). Without it, a revocation made by
   * another process reaches this one's key cache only when the cached entry expires.
   */
  events?: EventFeed;
  /** The live feed of subscriptions; built from `events` when not given. */
  liveFeed?: LiveFeed;
}

/** Longest wait of `/readyz` for the database's `select 1`. */
const READINESS_DB_TIMEOUT_MS = 1_000;

export function createApp({ config, db, logger, adminToken, rateLimitStore, drain, events, liveFeed: liveFeedOf }: AppDeps) {
  const app = new Hono<AppEnv>();
  const yoga = createGraphQLServer(logger, config);
  const limits = createRateLimits(config, rateLimitStore);
  if (events) {
    events.on('api-key-revoked', ({ keyId }) => forgetVerifiedKey(keyId));
    events.onResume(forgetAllVerifiedKeys);
  }
  const keyCacheTrusted = () => events?.live ?? true;
  // The responseEvents subscription's source (without a feed, subscriptions are refused).
  const liveFeed = liveFeedOf ?? (events ? new LiveFeed(db, events, config.subscriptionBuffer, logger) : undefined);

  app.use(requestId({ limitLength: 128 }));
  app.use(async (c, next) => {
    const started = performance.now();
    c.set('log', logger.child({ reqId: c.var.requestId }));
    await next();
    c.var.log.info(
      { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  });
  app.use(baseSecurityHeaders(config));
  // Hostile path segments and query parameters, on every route (pages answer with a page).
  app.use(
    rejectHostileUrls((c, problem: InputProblem) =>
      isPublicPageRequest(c) ? sendMessagePage(c, 400, 'Invalid address', problem.errors[0]!.message) : c.json(problem, 400),
    ),
  );

  app.use('/healthz', apiSecurityHeaders);
  app.use('/readyz', apiSecurityHeaders);
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    if (drain?.draining) return c.json({ status: 'draining', message: 'Shutting down' }, 503);
    const check = await databaseReachable(db, READINESS_DB_TIMEOUT_MS);
    if (check.ok) return c.json({ status: 'ready' });
    c.var.log.warn({ err: check.error }, 'database not reachable');
    return c.json({ status: 'unavailable', message: 'Database not reachable' }, 503);
  });

  // The API edge, the same for REST and GraphQL: headers, CORS, body size, then who is calling and
  // whether their rate limit allows it.
  const apiEdge = [
    apiSecurityHeaders,
    apiCors(config),
    limitBodySize(config.maxBodyBytes, (c: Context<AppEnv>, message: string) => c.json({ message }, 413)),
    apiGuard({ db, adminToken, limits, config, keyCacheTrusted }),
  ] as const;

  app.use('/api/*', ...apiEdge);
  const restDeps = { db, dropOffMs: config.dropOffMs, maxJsonDepth: config.maxJsonDepth, webhookRules: { allowPrivate: config.webhooks.allowPrivate } };
  app.route('/api/v1', formsRoutes(restDeps));
  app.route('/api/v1', responsesRoutes(restDeps));
  app.route('/api/v1', adminRoutes(restDeps));
  app.route('/api/v1', webhooksRoutes(restDeps));
  app.all('/api/*', (c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));

  app.use('/graphql', ...apiEdge);
  app.on(['GET', 'POST'], '/graphql', (c) => yoga.fetch(c.req.raw, { db, principal: c.var.principal, liveFeed }));
  app.all('/graphql', methodNotAllowed(['GET', 'POST']));

  // Public form pages and the public submission API: no API key, their own size and rate limits.
  app.route(
    '/',
    publicRoutes({
      config,
      db,
      cookieSecret: deriveSecret(adminToken, 'public-cookies'),
      submissionLimit: limits.publicSubmissions,
      answerLimits: { maxPasswordAnswers: config.maxPasswordAnswers, passwords: new PasswordHasher(config.passwordHashConcurrency) },
    }),
  );

  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => {
    const log = c.var.log ?? logger;
    // Expected failures outside an operation (the database gone while authenticating): their documented answer.
    const known = appErrorOf(error);
    if (known?.code === 'UNAVAILABLE') {
      log.warn({ err: error }, 'database unavailable');
      const status = HTTP_STATUS.UNAVAILABLE;
      return c.req.path === '/graphql' ? c.json(graphQLErrorBody(known), status) : c.json({ message: known.message }, status);
    }
    log.error({ err: error }, 'unhandled error');
    return c.json(INTERNAL_ERROR_BODY, 500);
  });
  return app;
}
