/** Builds the HTTP app from its dependencies: GraphQL, the v1 REST adapters, public pages, health. */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import { instanceSecretsOf, type InstanceSecrets } from './auth/admin-token.ts';
import { forgetAllVerifiedKeys, forgetVerifiedKey, requireApiKey } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import { databaseReachable } from './db/availability.ts';
import { dumpDatabase, supportsServerBackup } from './db/backup.ts';
import { databaseMetricsOf } from './db/instrument.ts';
import type { Db } from './db/client.ts';
import type { LagTolerantReads } from './db/replicas.ts';
import { LiveFeed } from './events/live-feed.ts';
import { StreamSlots } from './events/stream-slots.ts';
import type { EventFeed } from './events/notifications.ts';
import { invalidInput } from './errors.ts';
import { webhooksRoutes } from './rest/webhooks.ts';
import { notificationsRoutes } from './rest/notifications.ts';
import { oldestDueEmailSeconds } from './notifications/deliveries.service.ts';
import { graphQLErrorBody, INTERNAL_ERROR_BODY, appErrorOf, HTTP_STATUS, respondWithError } from './graphql/errors.ts';
import { answerGraphQL, errorsOfAnswer } from './graphql/http.ts';
import type { CaptchaKeyring, GraphQLContext } from './graphql/context.ts';
import { createGraphQLServer, type YogaServerContext } from './graphql/yoga.ts';
import { parseIdempotencyKey } from './idempotency/idempotency.service.ts';
import type { AppEnv } from './http.ts';
import type { DrainState } from './lifecycle.ts';
import { AppMetrics, METRICS_CONTENT_TYPE } from './metrics.ts';
import { apiGuard, TOO_MANY_REQUESTS, tooManyRequests } from './limits/api-guard.ts';
import { apiCors } from './limits/cors.ts';
import { clientAddressKey, createRateLimits, type RateLimits, type RateLimitStore } from './limits/rate-limits.ts';
import { limitBodySize, methodNotAllowed, readJsonObject, rejectHostileUrls, unsupportedMediaType, type InputProblem } from './limits/request-safety.ts';
import { apiSecurityHeaders, baseSecurityHeaders } from './limits/security-headers.ts';
import { isPublicPageRequest } from './public/context.ts';
import { sendMessagePage } from './public/html-response.ts';
import { clientIp } from './request-info.ts';
import { publicRoutes } from './public/routes.ts';
import { isResultsPageRequest, resultsRoutes, sendResultsMessage } from './results/routes.ts';
import { lastJobRun, RETENTION_JOB } from './privacy/retention.service.ts';
import { PasswordHasher } from './responses/password-hashing.ts';
import { adminRoutes } from './rest/admin.ts';
import { insightsRoutes } from './rest/insights.ts';
import { shareLinksRoutes } from './rest/share-links.ts';
import { formsRoutes } from './rest/forms.ts';
import { translationsRoutes } from './rest/translations.ts';
import { DOCS_CSP, openApiRoutes, renderDocsPage } from './rest/docs.ts';
import { exportRoutes } from './rest/export.ts';
import { privacyRoutes } from './rest/privacy.ts';
import { responsesRoutes } from './rest/responses.ts';
import { keysRoutes } from './rest/keys.ts';
import { answerMcp, MCP_SERVER_VERSION, type McpContext } from './mcp/server.ts';
import { settingsRoutes } from './rest/settings.ts';
import { filesRoutes } from './rest/files.ts';
import { signedFileUrl } from './uploads/file-urls.ts';
import { createFileStorage, type FileStorage } from './uploads/storage.ts';
import { secretsEqual } from './auth/secrets.ts';
import type { SigningKeys } from './auth/signing-keys.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Where lag-tolerant reads (listings, export, summaries) run: read replicas (db/replicas.ts); default `db`. */
  reads?: LagTolerantReads;
  logger: Logger;
  /** The admin token check, signing keys and encryption key this node shares with the others (src/auth/admin-token.ts). */
  secrets?: InstanceSecrets;
  /** Without `secrets`: every secret derived from this admin token (tests and benchmarks). */
  adminToken?: string;
  /** Where rate-limit counters live (default: this process's memory). */
  rateLimitStore?: RateLimitStore;
  /** Set by the process's graceful shutdown (src/lifecycle.ts): readiness answers 503 while draining. */
  drain?: DrainState;
  /**
   * What other nodes on the database announce (key revocations). Without it, a revocation made by
   * another process reaches this one's key cache only when the cached entry expires.
   */
  events?: EventFeed;
  /** Where request and submission metrics are counted (default: a fresh set). */
  metrics?: AppMetrics;
  /** The live feed of subscriptions; built from `events` when not given. */
  liveFeed?: LiveFeed;
  /** Where uploaded files live (default: from the config, DATA_DIR/uploads or the S3 bucket). */
  fileStorage?: FileStorage;
}

/** Longest wait of `/readyz` for the database's `select 1`. */
const READINESS_DB_TIMEOUT_MS = 1_000;

/**
 * The route template of the handler that answered (Hono records the index of the last handler it ran),
 * for metric labels; `unmatched` when only the catch-all middleware ran.
 */
function routeTemplate(c: Context): string {
  const path = routePath(c);
  return path === '*' || path === '/*' || path === '' ? 'unmatched' : path;
}

export function createApp({
  config,
  db,
  reads,
  logger,
  secrets: given,
  adminToken,
  rateLimitStore,
  drain,
  events,
  metrics = new AppMetrics(),
  liveFeed: liveFeedOf,
  fileStorage: fileStorageOf,
}: AppDeps) {
  const app = new Hono<AppEnv>();
  if (!given && adminToken === undefined) throw new Error('createApp needs the instance secrets (or an admin token to derive them from)');
  const secrets = given ?? instanceSecretsOf(adminToken!);
  const limits = createRateLimits(config, rateLimitStore);
  if (events) {
    events.on('api-key-revoked', ({ keyId }) => forgetVerifiedKey(keyId));
    events.onResume(forgetAllVerifiedKeys);
  }
  const keyCacheTrusted = () => events?.live ?? true;
  const fileStorage = fileStorageOf ?? createFileStorage(config);
  const liveFeed = liveFeedOf ?? (events ? createLiveFeed(db, events, config, rateLimitStore, logger) : undefined);
  // Subscriptions never finish by themselves: end them when the drain begins, not at its deadline.
  if (drain && liveFeed) (drain.onDrainStart ??= []).push(() => liveFeed.close());

  const signing = secrets.signing;
  mountEdge(app, config, logger, metrics);
  // Keys another node rotated reach this one within the keyring's maximum age (src/auth/signing-keys.ts).
  app.use(async (_, next) => {
    await signing.refreshIfStale();
    await next();
  });
  mountHealthAndDocs(app, db, drain);
  mountMetrics(app, { config, db, reads, metrics, limits, secrets });

  // The API edge, the same for REST and GraphQL (after the headers above): CORS, body size, then who
  // is calling and whether their rate limit allows it.
  const apiEdge = [
    apiCors(config),
    limitBodySize(config.maxBodyBytes, (c: Context<AppEnv>, message: string) => c.json({ message }, 413)),
    apiGuard({ db, admin: secrets.admin, limits, config, keyCacheTrusted }),
  ] as const;
  const captchaKeyring = { defaults: config.captcha, box: secrets.secretBox };

  app.use('/api/*', ...apiEdge);
  mountRest(app, { config, db, reads, fileStorage, captchaKeyring, fileUrlKeys: signing.fileUrls });

  app.use('/mcp', ...apiEdge);
  mountMcp(
    app,
    {
      db,
      reads,
      dropOffMs: config.dropOffMs,
      webhookRules: { allowPrivate: config.webhooks.allowPrivate },
      fileStorage,
      captchaKeyring,
      smtpConfigured: config.mail.smtp !== undefined,
      formMaxVersions: config.formMaxVersions,
      maxDefinitionBytes: config.graphql.maxDefinitionBytes,
    },
    config.maxJsonDepth,
  );

  app.use('/graphql', ...apiEdge);
  const signFileUrl = (uploadId: string) => signedFileUrl(signing.fileUrls.current, uploadId, config.uploads.fileUrlTtlSeconds);
  mountGraphQL(app, createGraphQLServer(logger, config), { db, reads, liveFeed, signFileUrl, fileStorage, captchaKeyring, signing });

  // Public form pages and the public submission API: no API key, their own size and rate limits.
  app.route(
    '/',
    publicRoutes({
      config,
      db,
      cookieKeys: signing.cookies,
      secretBox: secrets.secretBox,
      fileStorage,
      submissionLimit: limits.publicSubmissions,
      pageLimit: limits.publicPages,
      metrics,
      answerLimits: { maxPasswordAnswers: config.maxPasswordAnswers, passwords: new PasswordHasher(config.passwordHashConcurrency) },
    }),
  );

  // Read-only results pages of share links: the public pages' rate limit, no API key.
  app.route('/', resultsRoutes({ db, reads, config, pageLimit: limits.publicPages }));

  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => answerUnhandledError(error, c, logger));
  return app;
}

/**
 * The responseEvents subscription's source (without a feed, subscriptions are refused); the per-key
 * stream cap is counted in Redis with the rate limits when they are.
 */
function createLiveFeed(db: Db, events: EventFeed, config: Config, rateLimitStore: RateLimitStore | undefined, logger: Logger): LiveFeed {
  const { bufferSize, maxLifetimeMs, maxPerKey } = config.subscriptions;
  const slots = maxPerKey > 0 ? new StreamSlots(maxPerKey, rateLimitStore?.kind === 'redis' ? rateLimitStore.client : undefined, logger) : undefined;
  return new LiveFeed(db, events, { bufferSize, maxLifetimeMs, slots }, logger);
}

/** What every request passes first: its id and log line, its metrics, the security headers, the hostile-URL check. */
function mountEdge(app: Hono<AppEnv>, config: Config, logger: Logger, metrics: AppMetrics): void {
  app.use(requestId({ limitLength: 128 }));
  app.use(async (c, next) => {
    const started = performance.now();
    c.set('log', logger.child({ reqId: c.var.requestId }));
    await next();
    c.var.log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    metrics.observeRequest(c.req.method, routeTemplate(c), c.res.status, (performance.now() - started) / 1000);
  });
  app.use(baseSecurityHeaders(config));
  // API answers are marked no-store/nosniff/unframeable before anything else can answer them.
  for (const path of ['/api/*', '/graphql', '/mcp', '/healthz', '/readyz']) app.use(path, apiSecurityHeaders);
  // Hostile path segments and query parameters, on every route: a page answers with a page, GraphQL
  // with a BAD_USER_INPUT error, the rest with the documented 400 body.
  app.use(
    rejectHostileUrls((c, problem: InputProblem) => {
      if (isPublicPageRequest(c)) return sendMessagePage(c, 400, 'Invalid address', problem.errors[0]!.message);
      if (isResultsPageRequest(c)) return sendResultsMessage(c, 400, 'Invalid address', problem.errors[0]!.message);
      if (c.req.path === '/graphql') return c.json({ ...problem, ...graphQLErrorBody(invalidInput(problem.errors, problem.message)) }, 400);
      return c.json(problem, 400);
    }),
  );
}

/** /healthz, /readyz and the API reference at /docs. */
function mountHealthAndDocs(app: Hono<AppEnv>, db: Db, drain: DrainState | undefined): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    if (drain?.draining) return c.json({ status: 'draining', message: 'Shutting down' }, 503);
    const check = await databaseReachable(db, READINESS_DB_TIMEOUT_MS);
    if (check.ok) return c.json({ status: 'ready' });
    c.var.log.warn({ err: check.error }, 'database not reachable');
    return c.json({ status: 'unavailable', message: 'Database not reachable' }, 503);
  });

  // The API reference, rendered from /api/v1/openapi.json: no script, one hashed stylesheet.
  app.get('/docs', (c) => {
    c.header('Content-Security-Policy', DOCS_CSP);
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-cache');
    return c.html(renderDocsPage());
  });
  app.all('/docs', methodNotAllowed(['GET']));
}

/** Prometheus at /metrics: the metrics token or the admin token, as a Bearer token. */
function mountMetrics(
  app: Hono<AppEnv>,
  {
    config,
    db,
    reads,
    metrics,
    limits,
    secrets,
  }: { config: Config; db: Db; reads: LagTolerantReads | undefined; metrics: AppMetrics; limits: RateLimits; secrets: InstanceSecrets },
): void {
  app.use('/metrics', apiSecurityHeaders);
  app.get('/metrics', async (c) => {
    // Guessing the token is throttled like guessing a key (AUTH_FAILURE_LIMIT per address).
    const address = clientAddressKey(clientIp(c, config.trustProxy));
    const standing = await limits.authFailures.peek(address);
    if (!standing.allowed) return tooManyRequests(c, standing);
    const bearer = c.req
      .header('authorization')
      ?.match(/^Bearer\s(.+)$/i)?.[1]
      ?.trim();
    const allowed = bearer !== undefined && ((config.metricsToken !== undefined && secretsEqual(bearer, config.metricsToken)) || secrets.admin.matches(bearer));
    if (!allowed) {
      if (bearer !== undefined) await limits.authFailures.consume(address);
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ message: bearer === undefined ? 'Missing metrics token' : 'Invalid metrics token' }, 401);
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await scrapeMetrics(metrics, db, reads), 200, { 'content-type': METRICS_CONTENT_TYPE });
  });
  app.all('/metrics', methodNotAllowed(['GET']));
}

/** The v1 REST adapters under /api/v1 (behind the API edge), and the 404 of any other /api path. */
function mountRest(
  app: Hono<AppEnv>,
  deps: { config: Config; db: Db; reads: LagTolerantReads | undefined; fileStorage: FileStorage; captchaKeyring: CaptchaKeyring; fileUrlKeys: SigningKeys },
): void {
  const { config, db, reads, fileStorage, captchaKeyring } = deps;
  const restDeps = {
    db,
    reads,
    dropOffMs: config.dropOffMs,
    maxJsonDepth: config.maxJsonDepth,
    webhookRules: { allowPrivate: config.webhooks.allowPrivate },
    smtpConfigured: config.mail.smtp !== undefined,
    fileStorage,
    captchaKeyring,
    maxDefinitionBytes: config.graphql.maxDefinitionBytes,
    formMaxVersions: config.formMaxVersions,
  };
  app.route('/api/v1', formsRoutes(restDeps));
  app.route('/api/v1', translationsRoutes(restDeps));
  app.route('/api/v1', insightsRoutes(restDeps));
  app.route('/api/v1', shareLinksRoutes(restDeps));
  // Before the listing's and the export's routes: POST /responses/delete and DELETE /responses/:id.
  app.route('/api/v1', privacyRoutes(restDeps));
  app.route('/api/v1', responsesRoutes(restDeps));
  app.route('/api/v1', exportRoutes(restDeps));
  app.route('/api/v1', openApiRoutes());
  app.route('/api/v1', adminRoutes({ backup: supportsServerBackup(db) ? { dump: () => dumpDatabase(db) } : undefined }));
  app.route('/api/v1', webhooksRoutes(restDeps));
  app.route('/api/v1', notificationsRoutes(restDeps));
  app.route('/api/v1', settingsRoutes(restDeps));
  app.route('/api/v1', keysRoutes(restDeps));
  app.route('/api/v1', filesRoutes({ db, storage: fileStorage, keys: deps.fileUrlKeys }));
  app.all('/api/*', (c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));
}

/** The MCP server at /mcp (behind the API edge): its tools run the same operations as the caller's API key. */
function mountMcp(app: Hono<AppEnv>, deps: Omit<McpContext, 'principal'>, maxJsonDepth: number): void {
  app.post('/mcp', async (c) => {
    try {
      requireApiKey(c.var.principal);
    } catch (error) {
      return respondWithError(c, error);
    }
    const read = await readJsonObject(c, maxJsonDepth);
    if ('response' in read) return read.response;
    return answerMcp(c.req.raw, read.body, { ...deps, principal: c.var.principal }, MCP_SERVER_VERSION);
  });
  // Stateless: no session to end (DELETE) and nothing sent unprompted, so no stream to open (GET: 405, as the transport allows).
  app.all('/mcp', methodNotAllowed(['POST']));
}

/** /graphql (behind the API edge): the Idempotency-Key, yoga's answer, and the documented 415 and 429 bodies. */
function mountGraphQL(
  app: Hono<AppEnv>,
  yoga: ReturnType<typeof createGraphQLServer>,
  deps: Omit<YogaServerContext, 'principal' | 'idempotency'> & Pick<GraphQLContext, 'reads'>,
): void {
  app.on(['GET', 'POST'], '/graphql', async (c) => {
    let key: string | undefined;
    try {
      key = parseIdempotencyKey(c.req.header('idempotency-key'));
    } catch (error) {
      return c.json(graphQLErrorBody(appErrorOf(error)!), 400);
    }
    const idempotency = key === undefined ? undefined : { key, replayed: false };
    const context = { ...deps, principal: c.var.principal, idempotency };
    const response = await answerGraphQL(yoga, c.req.raw, () => c.req.arrayBuffer(), context);
    // yoga's 415 has no body; give it the documented one.
    if (response.status === 415) return unsupportedMediaType(c, { graphql: true });
    // A stream refused by its key's stream cap: the JSON body of every other 429, whatever the Accept.
    if (response.status === 429) {
      const errors = (await errorsOfAnswer(response)).map(({ message, extensions }) => ({ message, extensions: { code: extensions?.code } }));
      return c.json({ message: TOO_MANY_REQUESTS, errors }, 429, { 'Retry-After': response.headers.get('retry-after') ?? '1' });
    }
    if (!idempotency?.replayed) return response;
    const replayed = new Response(response.body, response);
    replayed.headers.set('Idempotent-Replayed', 'true');
    return replayed;
  });
  app.all('/graphql', methodNotAllowed(['GET', 'POST']));
}

/** An error no handler answered: the documented 503 when the database is gone, else a 500 with details only in the log. */
function answerUnhandledError(error: Error, c: Context<AppEnv>, logger: Logger): Response {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when the error came before the request's logger was made
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
}

/** What a scrape of /metrics answers: the database probed (reachability, ping, replicas, the retention job's last run), then every metric. */
async function scrapeMetrics(metrics: AppMetrics, db: Db, reads: LagTolerantReads | undefined): Promise<string> {
  for (const replica of reads?.status?.() ?? []) {
    metrics.replicaInUse.set({ replica: replica.server }, replica.usable ? 1 : 0);
    metrics.replicaLag.set({ replica: replica.server }, (replica.lagMs ?? Number.POSITIVE_INFINITY) / 1000);
  }
  const started = performance.now();
  const check = await databaseReachable(db, 1_000);
  metrics.databaseUp.set(check.ok ? 1 : 0);
  if (check.ok) {
    metrics.databasePing.set((performance.now() - started) / 1000);
    // The job runs on one node per interval; every node reports its last run from the database.
    const run = await lastJobRun(db, RETENTION_JOB).catch(() => undefined);
    const finished = run?.finishedAt ? run.finishedAt.getTime() / 1000 : 0;
    metrics.retentionLastRun.set(finished);
    metrics.retentionLastSuccess.set(run?.status === 'succeeded' ? 1 : 0);
    metrics.retentionLastDeleted.set(run?.finishedAt ? run.responsesDeleted : 0);
    metrics.retentionLastPurged.set(run?.finishedAt ? run.formsPurged : 0);
    const age = await oldestDueEmailSeconds(db).catch(() => undefined);
    if (age !== undefined) metrics.emailQueueAge.set(age);
  }
  // The database's statement durations and pool use, kept with its handle (db/instrument.ts).
  return metrics.text(databaseMetricsOf(db));
}
