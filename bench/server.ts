/**
 * Benchmark child: the formloom app (REST + GraphQL) on BENCH_DATABASE_URL, listening on a free
 * loopback port it reports to the parent. Request logging is off (pino level silent), as for the
 * baseline, so the comparison measures the request path rather than log I/O. Every edge limit is on.
 * BENCH_DIRECT_URL (DATABASE_DIRECT_URL: BENCH_DATABASE_URL is then a transaction pooler) and
 * BENCH_REPLICA_URLS (DATABASE_REPLICA_URLS) open the database as the server does with them.
 */
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { openReplicaReads } from '../src/db/replicas.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const adminToken = process.env.BENCH_ADMIN_TOKEN ?? 'bench-admin-token-0123456789';
// Every limit is on, as in production; the per-key and per-address (public submissions, pages) quotas are set out of the bench's reach so each
// request is counted (the cost measured) but none is refused.
const config = { ...loadConfig({ API_RATE_LIMIT: String(1e9), PUBLIC_RATE_LIMIT: String(1e9), PAGE_RATE_LIMIT: String(1e9) }), databaseUrl, logLevel: 'silent' as const };
const logger = pino({ level: 'silent' });
const handle = await openDatabase({ databaseUrl, directUrl: process.env.BENCH_DIRECT_URL || undefined, maxConnections: 10, statementTimeoutMs: config.db.statementTimeoutMs });
const replicaUrls = process.env.BENCH_REPLICA_URLS?.split(',').filter(Boolean) ?? [];
const reads =
  replicaUrls.length > 0
    ? await openReplicaReads(handle.db, { urls: replicaUrls, maxLagMs: config.db.replicaMaxLagMs, transactionPooler: handle.transactionPooler, logger })
    : undefined;
const app = createApp({ config, db: handle.db, ...(reads ? { reads } : {}), logger, adminToken });
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send!({ port: info.port }));
process.on('SIGTERM', () => void Promise.all([reads?.close(), handle.close()]).finally(() => process.exit(0)));
