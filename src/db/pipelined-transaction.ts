/**
 * Transactions on PostgreSQL with BEGIN sent together with the transaction's first statement.
 *
 * postgres.js's `begin` sends BEGIN and holds the transaction's first statement until BEGIN is answered:
 * a round trip of its own in every transaction, and on loopback each round trip is a socket write that
 * costs the server more CPU than most statements' own work. Here the transaction runs on a reserved
 * connection: BEGIN is queued and the first statement goes out in the same write. The rest is what
 * `begin` does: COMMIT after the callback, ROLLBACK when it fails, savepoints for nested transactions
 * (drizzle's `tx.transaction`).
 *
 * A failed statement aborts the transaction even if the callback caught its error; PostgreSQL then
 * answers COMMIT with ROLLBACK, and that is thrown as the first failed statement's error. A connection
 * that closes meanwhile fails every later statement with CONNECTION_CLOSED and is left to the pool
 * (patches/postgres+3.4.9.patch).
 */
import type { ReservedSql, Sql } from 'postgres';

/**
 * Runs `fn` in a transaction on a connection reserved from `pool`. `scopeOf` makes what `fn` gets of the
 * connection (the caller's instrumentation); it calls `onFailure` with each failed statement's error.
 */
export async function pipelinedTransaction<T>(pool: Sql, fn: (sql: Sql) => T | Promise<T>, scopeOf: (connection: ReservedSql, onFailure: (error: unknown) => void) => Sql): Promise<T> {
  const connection = await pool.reserve();
  let firstFailure: { error: unknown } | undefined;
  const tx = scopeOf(connection, (error) => void (firstFailure ??= { error }));
  // Not awaited here: it goes out with the first statement. If it fails, so does every statement after it.
  const begin = connection.unsafe('begin');
  begin.catch(() => {});
  try {
    const result = await fn(tx);
    await begin;
    const commit = await connection.unsafe('commit');
    if (commit.command !== 'COMMIT') throw firstFailure?.error ?? new Error(`The transaction was rolled back (COMMIT answered ${commit.command})`);
    return result;
  } catch (error) {
    // On a closed connection this fails at once; the transaction died with the session.
    await connection.unsafe('rollback').catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}

/** A savepoint in the transaction on `sql`: RELEASE after `fn`, ROLLBACK TO when it fails. */
export async function withSavepoint<T>(sql: Sql, name: string, fn: () => T | Promise<T>): Promise<T> {
  await sql.unsafe(`savepoint ${name}`);
  try {
    const result = await fn();
    await sql.unsafe(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await sql.unsafe(`rollback to savepoint ${name}`).catch(() => {});
    throw error;
  }
}
