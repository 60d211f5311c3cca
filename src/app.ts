/** Builds the HTTP app from its dependencies: GraphQL, the v1 REST adapters, public pages, health. */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import { authenticate, deriveSecret } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { INTERNAL_ERROR_BODY } from './graphql/errors.ts';
import { createGraphQLServer } from './graphql/yoga.ts';
import type { AppEnv } from './http.ts';
import { publicRoutes } from './public/routes.ts';
import { adminRoutes } from './rest/admin.ts';
import { formsRoutes } from './rest/forms.ts';
import { responsesRoutes } from './rest/responses.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  adminToken: string;
}

export function createApp({ config, db, logger, adminToken }: AppDeps) {
  const app = new Hono<AppEnv>();
  const yoga = createGraphQLServer(logger, config);

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

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await db.execute(sql`select 1`);
      return c.json({ status: 'ready' });
    } catch (error) {
      c.var.log.warn({ err: error }, 'database not reachable');
      return c.json({ status: 'unavailable', message: 'Database not reachable' }, 503);
    }
  });

  const limitBody = bodyLimit({
    maxSize: config.maxBodyBytes,
    onError: (c) => c.json({ message: `Request body too large (limit ${config.maxBodyBytes} bytes)` }, 413),
  });
  // Who is calling, resolved once for the API surfaces (REST and GraphQL alike).
  const identify = createMiddleware<AppEnv>(async (c, next) => {
    c.set('principal', await authenticate(db, adminToken, { apiKey: c.req.header('x-api-key'), authorization: c.req.header('authorization') }));
    await next();
  });

  // Only bodies are size-limited: running bodyLimit on a GET makes the Node adapter build a full
  // Request for every call, a measurable share of the responses listing's cost.
  const limitBodies = createMiddleware<AppEnv>((c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  app.use('/api/*', limitBodies, identify);
  const restDeps = { db, dropOffMs: config.dropOffMs };
  app.route('/api/v1', formsRoutes(restDeps));
  app.route('/api/v1', responsesRoutes(restDeps));
  app.route('/api/v1', adminRoutes(restDeps));
  app.all('/api/*', (c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));

  app.use('/graphql', limitBodies, identify);
  app.on(['GET', 'POST', 'OPTIONS'], '/graphql', (c) => yoga.fetch(c.req.raw, { db, principal: c.var.principal }));

  // Public form pages and the public submission API: no API key, their own size and rate limits.
  app.route('/', publicRoutes({ config, db, cookieSecret: deriveSecret(adminToken, 'public-cookies') }));

  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => {
    (c.var.log ?? logger).error({ err: error }, 'unhandled error');
    return c.json(INTERNAL_ERROR_BODY, 500);
  });
  return app;
}
