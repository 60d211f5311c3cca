/**
 * Opens the database: PostgreSQL through postgres.js when a URL is given, embedded PGlite otherwise.
 *
 * PostgreSQL may sit behind a transaction-mode pooler (PgBouncer): `directUrl` is then a session
 * connection straight to the primary for what a pooler cannot carry (LISTEN, session advisory locks,
 * migrations), and the pool on `databaseUrl` keeps no state in a session: no named prepared statements,
 * no startup parameters (PgBouncer refuses `statement_timeout` among them), the statement timeout kept
 * by cancelling the statement from this side (db/instrument.ts).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';
import { fromRoot, withoutTrailingSlashes } from '../paths.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { instrumentClient } from './instrument.ts';
import { pgliteStartParams } from './pglite-settings.ts';
import * as schema from './schema.ts';
import { DatabaseMetrics } from '../metrics.ts';

type Schema = typeof schema;
/** The drizzle handle services take; the same type whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Services accept either the database or a transaction they are called inside. */
export type Db = Database | Transaction;

/** The databases `openDatabase` opened on PostgreSQL (not PGlite), for `onPostgres`. */
const POSTGRES_DATABASES = new WeakSet<object>();

/** `db` is a database `openDatabase` opened on PostgreSQL (a transaction inside one is not recognised). */
export const onPostgres = (db: Db): boolean => POSTGRES_DATABASES.has(db);

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /**
   * PostgreSQL: where session work goes (LISTEN, session advisory locks): the direct URL, or the
   * database URL when there is none. Undefined on PGlite.
   */
  sessionUrl?: string | undefined;
  /** PostgreSQL: a client on `sessionUrl` for session advisory locks (the pool itself without a direct URL). */
  session?: Sql | undefined;
  /** PostgreSQL: the pool is opened for a transaction pooler (see the module comment). */
  transactionPooler?: boolean;
  /** Applies the migrations in `drizzle/`. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fromRoot('drizzle');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /**
   * PostgreSQL: a session connection straight to the primary (DATABASE_DIRECT_URL) for LISTEN, session
   * advisory locks and migrations. Given (and not `databaseUrl` itself), `databaseUrl` is taken for a
   * transaction pooler (see the module comment).
   */
  directUrl?: string | undefined;
  /** PostgreSQL: `databaseUrl` is a transaction pooler (default: a direct URL other than it is given). */
  transactionPooler?: boolean | undefined;
  /** PGlite data directory; `undefined` with no URL means in memory. */
  dataDir?: string | undefined;
  /** A PGlite dump (from `dumpDataDir`) to start from instead of an empty cluster. */
  loadDataDir?: Blob | File | undefined;
  /**
   * PGlite on the calling thread: a filesystem of its own instead of a data dir or a dump (the test suite
   * hands each file's database one already holding the migrated cluster: test/support/pglite-preload.ts).
   */
  pgliteFs?: PGliteOptions['fs'];
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
  const staging = `${withoutTrailingSlashes(dataDir)}.from-template`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(template, staging, { recursive: true });
  rmdirSync(dataDir);
  renameSync(staging, dataDir);
}

/** Connections of the session client (locks of jobs running at once on one node). */
const SESSION_POOL_SIZE = 4;

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    const directUrl = options.directUrl && options.directUrl !== options.databaseUrl ? options.directUrl : undefined;
    const pooled = options.transactionPooler ?? directUrl !== undefined;
    const connectionOptions = {
      onnotice: () => {},
      // No request holds a connection forever: a connection attempt to an unreachable server gives up
      // (postgres.js counts in seconds), and a statement that runs too long is cancelled. Both failures
      // are recognised by db/availability.ts and answered with 503.
      ...(options.connectTimeoutMs !== undefined ? { connect_timeout: options.connectTimeoutMs / 1000 } : {}),
      // postgres.js waits before reconnecting after failed attempts, by default up to 20 s, and queries
      // wait with it: during an outage requests would hang longer and longer. Retry soon instead (a
      // refused connection costs nothing), so each request gets its 503 at once and recovery is quick.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
    };
    const serverTimeout = options.statementTimeoutMs !== undefined ? { connection: { statement_timeout: options.statementTimeoutMs } } : {};
    const client = postgres(options.databaseUrl, {
      ...connectionOptions,
      max: options.maxConnections ?? 10,
      // Through a transaction pooler each transaction (each statement outside one) may run on another
      // server connection: a statement prepared on one is unknown on the next, and a setting made at
      // start-up is not the pooler's to keep.
      ...(pooled ? { prepare: false } : serverTimeout),
    });
    // Statement durations and pool use for /metrics; through a pooler, the statement timeout (db/instrument.ts).
    const instrumented = instrumentClient('postgres', client, new DatabaseMetrics('postgres', options.maxConnections ?? 10), {
      cancelAfterMs: pooled ? options.statementTimeoutMs : undefined,
    });
    const db = drizzle(instrumented, { schema, logger: options.logger });
    POSTGRES_DATABASES.add(db);
    const session = directUrl ? postgres(directUrl, { ...connectionOptions, ...serverTimeout, max: SESSION_POOL_SIZE, idle_timeout: 60 }) : client;
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      sessionUrl: directUrl ?? options.databaseUrl,
      session,
      transactionPooler: pooled,
      // On a session connection of its own without the statement timeout: a long migration (an index on
      // a large table) must not be cancelled, or no node could ever start.
      migrate: async () => {
        const migrator = postgres(directUrl ?? options.databaseUrl!, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0 } });
        try {
          await migrate(drizzle(migrator, { schema }), { migrationsFolder });
        } finally {
          await migrator.end();
        }
      },
      close: async () => {
        await client.end({ timeout: 5 });
        if (session !== client) await session.end({ timeout: 5 });
      },
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
      const fs = options.pgliteFs ? { fs: options.pgliteFs } : {};
      client = await PGlite.create(options.dataDir, { ...loadDataDir, ...fs, startParams: pgliteStartParams(PGlite.defaultStartParams) });
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
