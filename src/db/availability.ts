/**
 * The database going away, recognised in one place. A failure to reach the database (refused or
 * dropped connections, a server shutting down or starting up, a statement cut off by
 * `statement_timeout`) is not a bug: the error catalogue maps it to `UNAVAILABLE` (503
 * `{message: "Service unavailable"}`), and the request can be retried once the database is back.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** Node socket errors and postgres.js connection errors (its `code`s for connections it gave up on). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  // No server of a multi-host DATABASE_URL is the writable primary (patches/postgres+3.4.9.patch): a
  // failover under way, its standby not promoted yet.
  'TARGET_SESSION_ATTRS_UNMET',
  // Not CONNECTION_ENDED: that is our own handle closed by this process (a bug, or a request outliving
  // the shutdown), an unexpected 500 like PGlite's "PGlite is closed".
]);

/** SQLSTATEs that mean "not now" rather than "wrong": see PostgreSQL's errcodes appendix. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown: another backend crashed
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
  // read_only_sql_transaction: formloom opens no read-only transaction, so the server itself is
  // read-only: a standby still in recovery (during a failover), not the primary it should be.
  '25006',
]);

function isUnavailableItself(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // Class 08: connection exception (08000, 08003, 08006, 08001, 08004 …).
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  // PGlite runs inside the process: it cannot "go away" on its own, so its failures stay unexpected (500).
  return false;
}

/**
 * Whether `error` (or what it wraps: drizzle's query errors carry the driver's error as `cause`,
 * GraphQL errors as `originalError`, a failed dual-stack connect as `errors`) says the database cannot
 * be reached right now.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 8) return false;
  if (isUnavailableItself(error)) return true;
  const { cause, originalError, errors } = error as { cause?: unknown; originalError?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1) || isDatabaseUnavailable(originalError, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

/**
 * Readiness's database check: the server answers and is not in recovery (a standby still read-only:
 * every write would fail), given up after `timeoutMs` so a load balancer's probe gets its answer even
 * when the database host does not answer at all.
 */
export async function databaseReachable(db: Db, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [row] = rowsOf<{ recovery: boolean }>(await Promise.race([db.execute(sql`select pg_is_in_recovery() as recovery`), timedOut]));
    if (row?.recovery !== false) return { ok: false, error: new Error('the database server is a standby in recovery (read-only), not the primary') };
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}
