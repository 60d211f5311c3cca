/** Entry point: read config, open and migrate the database, set up the demo once, listen, drain on SIGTERM. */
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { bootstrapBanner, prepareDatabase } from './bootstrap.ts';
import { joinCluster } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createLogger } from './logger.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const logger = createLogger(config.logLevel);

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') });
const { adminToken, demo } = await prepareDatabase(config, database);
const cluster = await joinCluster(config, database, logger);

const app = createApp({ config, db: database.db, logger, adminToken: adminToken.token, rateLimitStore: cluster.rateLimitStore, events: cluster.events });
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  const baseUrl = `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
  if (demo) process.stdout.write(bootstrapBanner(demo, baseUrl, adminToken));
  logger.info({ url: baseUrl, database: database.kind, startupMs: Math.round(performance.now()) }, 'formloom listening');
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'draining');
  const forced = setTimeout(() => {
    logger.error('drain timed out; exiting');
    process.exit(1);
  }, 10_000).unref();
  // Stop accepting, let in-flight requests finish, drop idle keep-alive sockets.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
  await cluster.close();
  await database.close();
  clearTimeout(forced);
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
