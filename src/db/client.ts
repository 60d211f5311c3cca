/** Opens the database: PostgreSQL through postgres.js when a URL is given, embedded PGlite otherwise. */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { fromRoot } from '../paths.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { DatabaseMetrics, instrumentClient } from './instrument.ts';
import { pgliteStartParams } from './pglite-settings.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** The drizzle handle services take; the same type whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Services accept either the database or a transaction they are called inside. */
export type Db = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** Applies the migrations in `drizzle/`. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fromRoot('drizzle');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `undefined` with no URL means in memory. */
  dataDir?: string | undefined;
  /** A PGlite dump (from `dumpDataDir`) to start from instead of an empty cluster. */
  loadDataDir?: Blob | File | undefined;
  /** Pool size for postgres.js. */
  maxConnections?: number;
  /** PostgreSQL: longest statement (server-side `statement_timeout`), in milliseconds. */
  statementTimeoutMs?: number | undefined;
  /** PostgreSQL: longest wait for a new connection, in milliseconds. */
  connectTimeoutMs?: number | undefined;
  /** Sees every statement drizzle runs (tests count them). */
  logger?: Logger | undefined;
  /**
   * PGlite: run the database on its own worker thread (default, see pglite-thread.ts) or on the calling
   * thread ('inline': one thread fewer, for short-lived tools such as the test suite's dump).
   */
  pgliteThread?: 'worker' | 'inline';
  /**
   * PGlite: a migrated empty data dir (built by scripts/build.ts) that a new data dir is copied from
   * instead of running initdb (3–4 s and ~800 MB of memory); ignored when missing.
   */
  pgliteTemplate?: string | undefined;
}

/**
 * A new PGlite data dir starts as a copy of the template (a cleanly closed cluster: a file copy is a
 * valid cluster), copied beside it and renamed into place, so a copy cut short never looks like a
 * database. An existing data dir, or no template, is left to PGlite (which runs initdb on an empty dir).
 */
function startFromTemplate(dataDir: string, template: string | undefined): void {
  if (!template || !existsSync(join(template, 'PG_VERSION')) || existsSync(join(dataDir, 'PG_VERSION'))) return;
  if (readdirSync(dataDir).length > 0) return;
  const staging = `${dataDir.replace(/\/+$/, '')}.from-template`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(template, staging, { recursive: true });
  rmdirSync(dataDir);
  renameSync(staging, dataDir);
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const client = postgres(options.databaseUrl, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // No request holds a connection forever: a connection attempt to an unreachable server gives up
      // (postgres.js counts in seconds), and the server cancels a statement that runs too long. Both
      // failures are recognised by db/availability.ts and answered with 503.
      ...(options.connectTimeoutMs !== undefined ? { connect_timeout: options.connectTimeoutMs / 1000 } : {}),
      ...(options.statementTimeoutMs !== undefined ? { connection: { statement_timeout: options.statementTimeoutMs } } : {}),
      // postgres.js waits before reconnecting after failed attempts, by default up to 20 s, and queries
      // wait with it: during an outage requests would hang longer and longer. Retry soon instead (a
      // refused connection costs nothing), so each request gets its 503 at once and recovery is quick.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    });
    // Statement durations and pool use for /metrics (db/instrument.ts).
    const instrumented = instrumentClient('postgres', client, new DatabaseMetrics('postgres', options.maxConnections ?? 10));
    const db = drizzle(instrumented, { schema, logger: options.logger });
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      // On a connection of its own without the statement timeout: a long migration (an index on a large
      // table) must not be cancelled, or no node could ever start.
      migrate: async () => {
        const migrator = postgres(options.databaseUrl!, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0 } });
        try {
          await migrate(drizzle(migrator, { schema }), { migrationsFolder });
        } finally {
          await migrator.end();
        }
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  // drizzle loads on this thread while the database opens on its own.
  const drizzleModules = Promise.all([import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
  drizzleModules.catch(() => {}); // awaited below; not unhandled if opening fails first
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // One process per data dir (see data-dir-lock.ts); `formloom restore` checks the same lock.
  const lock = options.dataDir ? lockDataDir(options.dataDir) : undefined;
  let client: Pick<PGlite, 'close'>;
  try {
    const loadDataDir = options.loadDataDir ? { loadDataDir: options.loadDataDir } : {};
    if (options.dataDir && !options.loadDataDir) startFromTemplate(options.dataDir, options.pgliteTemplate);
    if (options.pgliteThread === 'inline') {
      const { PGlite } = await import('@electric-sql/pglite');
      client = await PGlite.create(options.dataDir, { ...loadDataDir, startParams: pgliteStartParams(PGlite.defaultStartParams) });
    } else {
      const { PGliteThread, asPGlite } = await import('./pglite-thread.ts');
      client = asPGlite(await PGliteThread.create(options.dataDir, loadDataDir));
    }
  } catch (error) {
    lock?.release();
    throw error;
  }
  const [{ drizzle }, { migrate }] = await drizzleModules;
  const db = drizzle(instrumentClient('pglite', client as PGlite, new DatabaseMetrics('pglite', 1)), { schema, logger: options.logger });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder }),
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}
