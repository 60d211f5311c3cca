/**
 * Work that must not run on several nodes at once, coordinated through PostgreSQL advisory locks
 * (session locks held on one reserved connection, so the job itself may use the pool and its own
 * transactions; a node that dies mid-job loses its connection and with it the lock).
 *
 * - `runExclusively(database, name, fn)`: for scheduled jobs. Runs `fn` unless another node is running
 *   the job `name` right now, in which case it returns `{ ran: false }` at once. Give every node the
 *   same timer: whichever gets there first does the work, the others skip. A job that must run at most
 *   once per period (not merely never twice at once) keeps its last run in a table and checks it first.
 * - `runSerially(database, name, fn)`: for start-up work every node must see done (migrations, the
 *   shared admin token). Waits its turn, then runs `fn`.
 *
 * If PostgreSQL closes the lock's connection while the job runs, the lock goes with the session and the
 * run ends with CONNECTION_CLOSED (patches/postgres+3.4.9.patch: unpatched, the unlock crashed the process).
 * A job whose `reserve()` waits for a busy pool gets a connection even if one closes meanwhile, or fails
 * when PostgreSQL refuses it (the same patch: unpatched, such a job could wait forever).
 *
 * The locks are taken on the handle's session client (`DatabaseHandle.session`): with DATABASE_DIRECT_URL
 * a connection straight to the primary, since through a transaction pooler the unlock could run on
 * another server connection than the lock and leave it held by a pooled connection for good.
 *
 * On PGlite (one process owns the database) the same rules hold within the process.
 */
import type { Sql } from 'postgres';
import type { DatabaseHandle } from './client.ts';

export type ExclusiveRun<T> = { ran: true; value: T } | { ran: false };

/** First half of every formloom job lock's key (the second is the job name's hash): 'flm'. */
const LOCK_NAMESPACE = 0x666c6d;
const WAIT_POLL_MS = 200;

type LockDatabase = Pick<DatabaseHandle, 'kind' | 'db' | 'session'>;

// PGlite: the names running in this process, and the tail of each name's queue.
const runningHere = new Set<string>();
const queuesHere = new Map<string, Promise<unknown>>();

export async function runExclusively<T>(database: LockDatabase, name: string, fn: () => Promise<T>): Promise<ExclusiveRun<T>> {
  if (database.kind === 'pglite') {
    if (runningHere.has(name)) return { ran: false };
    runningHere.add(name);
    try {
      return { ran: true, value: await fn() };
    } finally {
      runningHere.delete(name);
    }
  }
  const connection = await postgresClient(database).reserve();
  try {
    if (!(await tryLock(connection, name))) return { ran: false };
    try {
      return { ran: true, value: await fn() };
    } finally {
      await unlock(connection, name);
    }
  } finally {
    connection.release();
  }
}

export async function runSerially<T>(database: LockDatabase, name: string, fn: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') {
    const previous = queuesHere.get(name) ?? Promise.resolve();
    const mine = previous.catch(() => {}).then(fn);
    queuesHere.set(name, mine);
    try {
      return await mine;
    } finally {
      if (queuesHere.get(name) === mine) queuesHere.delete(name);
    }
  }
  const connection = await postgresClient(database).reserve();
  try {
    // Polls a try-lock rather than blocking in pg_advisory_lock, so no statement timeout cuts the wait.
    while (!(await tryLock(connection, name))) await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    try {
      return await fn();
    } finally {
      await unlock(connection, name);
    }
  } finally {
    connection.release();
  }
}

async function tryLock(connection: Sql, name: string): Promise<boolean> {
  const [row] = await connection`select pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(${name})) as locked`;
  return row?.locked === true;
}

async function unlock(connection: Sql, name: string): Promise<void> {
  await connection`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(${name}))`;
}

/** The session client; a handle without one, its pool (narrow adapter: drizzle keeps postgres.js's client on `$client`). */
function postgresClient(database: LockDatabase): Sql {
  return database.session ?? (database.db as unknown as { $client: Sql }).$client;
}
