/** Entry point: read config, open and migrate the database, set up the demo once, listen, drain on SIGTERM. */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import type { DrainState } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { fromRoot } from './paths.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const logger = createLogger(config.logLevel);

// PostgreSQL's connections: the pool (perhaps through a transaction pooler) and the session URL.
const postgresOptions = {
  databaseUrl: config.databaseUrl,
  directUrl: config.db.directUrl,
  statementTimeoutMs: config.db.statementTimeoutMs,
  connectTimeoutMs: config.db.connectTimeoutMs,
};
// The database opens (on PGlite: its worker thread starts) while this thread loads the rest of the app.
const opening = openDatabase({
  ...postgresOptions,
  dataDir: join(config.dataDir, 'pglite'),
  pgliteTemplate: fromRoot('dist/pglite-template'),
}).catch((error: unknown) => {
  // Another server owns the embedded data dir: say so plainly instead of a stack trace.
  if (!(error instanceof DataDirInUseError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const [
  { serve },
  { createApp },
  { adminTokenBanner, bootstrapBanner, prepareDatabase },
  { joinCluster },
  { openDeliveryDatabase, startWebhookDispatcher },
  { startRetentionSweep },
  lifecycle,
  { deleteExpiredIdempotencyKeys },
  { startRetentionScheduler },
  { createFileStorage },
  { openReplicaReads },
  { startMailDispatcher },
  { signedFileUrl },
  { AppMetrics },
] = await Promise.all([
  import('@hono/node-server'),
  import('./app.ts'),
  import('./bootstrap.ts'),
  import('./cluster.ts'),
  import('./events/dispatcher.ts'),
  import('./events/retention.ts'),
  import('./lifecycle.ts'),
  import('./idempotency/idempotency.service.ts'),
  import('./privacy/retention.service.ts'),
  import('./uploads/storage.ts'),
  import('./db/replicas.ts'),
  import('./notifications/dispatcher.ts'),
  import('./uploads/file-urls.ts'),
  import('./metrics.ts'),
]);
const { exitGracefullyOnSignals, httpServerOptions, trackServer } = lifecycle;
const database = await opening;
const { adminToken, secrets, demo } = await prepareDatabase(config, database, logger);
const cluster = await joinCluster(config, database, logger);
// Read replicas for the lag-tolerant reads (db/replicas.ts), opened as the pool is (through a pooler too).
const replicaReads =
  database.kind === 'postgres' && config.db.replicaUrls.length > 0
    ? await openReplicaReads(database.db, {
        urls: config.db.replicaUrls,
        maxLagMs: config.db.replicaMaxLagMs,
        statementTimeoutMs: config.db.statementTimeoutMs,
        connectTimeoutMs: config.db.connectTimeoutMs,
        transactionPooler: database.transactionPooler,
        logger,
      })
    : undefined;

const drain: DrainState = { draining: false };
// Webhook delivery: a poller in this process, woken by the outbox's NOTIFY (src/events/dispatcher.ts).
const deliveryDatabase = config.webhooks.worker ? await openDeliveryDatabase(database, postgresOptions) : undefined;
const dispatcher = deliveryDatabase ? startWebhookDispatcher({ db: deliveryDatabase.db, config: config.webhooks, logger, events: cluster.events }) : undefined;
const metrics = new AppMetrics();
// E-mail delivery: the same loop over the mail outbox (src/notifications/dispatcher.ts); a delivery
// without a server (its environment's own, or SMTP_URL) waits.
const mailDispatcher = deliveryDatabase
  ? startMailDispatcher({
      db: deliveryDatabase.db,
      config: config.mail,
      logger,
      events: cluster.events,
      signFileUrl: (uploadId) => signedFileUrl(secrets.signing.fileUrls.current, uploadId, config.uploads.fileUrlTtlSeconds),
      onOutcome: (kind, outcome) => metrics.emailDeliveries.inc({ kind, outcome }),
      box: secrets.secretBox,
    })
  : undefined;
// A draining node claims no more deliveries (the other nodes take them); what it holds goes on until stop().
(drain.onDrainStart ??= []).push(() => {
  dispatcher?.stopClaiming();
  mailDispatcher?.stopClaiming();
});
if (!config.mail.smtp) logger.info('no SMTP_URL: e-mail notifications of environments without their own SMTP server are recorded and wait');
const app = createApp({
  config,
  metrics,
  db: database.db,
  ...(replicaReads ? { reads: replicaReads } : {}),
  logger,
  secrets,
  rateLimitStore: cluster.rateLimitStore,
  events: cluster.events,
  drain,
});
// Expired Idempotency-Keys are replaced when a key is reused; this hourly sweep keeps the table small.
const IDEMPOTENCY_SWEEP_MS = 60 * 60 * 1000;
const idempotencySweep = setInterval(() => {
  deleteExpiredIdempotencyKeys(database.db)
    .then((deleted) => deleted > 0 && logger.info({ deleted }, 'expired idempotency keys deleted'))
    .catch((error: unknown) => logger.warn({ err: error }, 'idempotency key sweep failed'));
}, IDEMPOTENCY_SWEEP_MS).unref();
// Retention and the purge of deleted forms: every node ticks, one runs per interval (src/privacy/retention.service.ts).
const stopRetention = config.retention.worker
  ? startRetentionScheduler(database, { intervalMs: config.retention.intervalMs, formPurgeDays: config.retention.formPurgeDays, logger, files: createFileStorage(config) })
  : undefined;
// Finished webhook events older than WEBHOOK_RETENTION_DAYS, hourly, one node at a time (src/events/retention.ts).
const stopRetentionSweep = startRetentionSweep(database, config.webhooks.retentionDays, logger);
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: httpServerOptions(config.http) }, (info) => {
  const baseUrl = `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
  process.stdout.write(demo ? bootstrapBanner(demo, baseUrl, adminToken) : adminTokenBanner(adminToken, config.dataDir));
  logger.info({ url: baseUrl, database: database.kind, startupMs: Math.round(performance.now()) }, 'formloom listening');
}) as Server;
// Attached before the listener's first connection (accepted on a later turn of the event loop).
const graceful = trackServer(server, drain, { shutdownTimeoutMs: config.shutdownTimeoutMs, drainDelayMs: config.drainDelayMs, logger });
exitGracefullyOnSignals(graceful, {
  shutdownTimeoutMs: config.shutdownTimeoutMs,
  drainDelayMs: config.drainDelayMs,
  logger,
  // The cluster's feed first (on PGlite it listens through the database handle); the shutdown
  // timeout bounds both, should either wait on a server that went away.
  closeResources: async () => {
    clearInterval(idempotencySweep);
    await stopRetention?.();
    stopRetentionSweep();
    // Deliveries in flight are released (not counted as attempts) before the database closes.
    await Promise.all([dispatcher?.stop(), mailDispatcher?.stop()]);
    await deliveryDatabase?.close();
    await replicaReads?.close();
    await cluster.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the cluster feed failed'));
    await database.close();
  },
});
