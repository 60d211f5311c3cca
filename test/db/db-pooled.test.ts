/**
 * The pool opened for a transaction pooler (DATABASE_DIRECT_URL set: db/client.ts) keeps nothing in a
 * server session: no named prepared statements, no startup parameter (`statement_timeout` is kept by
 * cancelling from this side), and every statement with parameters in one message run ending in Sync,
 * so PgBouncer 1.18 can hand the server connection on between any two statements
 * (patches/postgres+3.4.9.patch). Against the suite's PostgreSQL, one connection, so what a statement
 * leaves in its session is seen by the next. test/process/db-cluster.test.ts runs the same through PgBouncer.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { watchRoundTrips } from '../../bench/round-trips.ts';
import { isDatabaseUnavailable } from '../../src/db/availability.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { runExclusively } from '../../src/db/locks.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { forms } from '../../src/db/schema.ts';

const databaseUrl = inject('testDatabaseUrl');

describe.skipIf(!databaseUrl)('the pool behind a transaction pooler', () => {
  let pooled: DatabaseHandle;
  let direct: DatabaseHandle;
  beforeAll(async () => {
    // The direct URL differs from the pool's only in a parameter: the same server, another session.
    const directUrl = `${databaseUrl}${databaseUrl!.includes('?') ? '&' : '?'}application_name=formloom-direct`;
    pooled = await openDatabase({ databaseUrl: databaseUrl!, directUrl, maxConnections: 1, statementTimeoutMs: 300 });
    direct = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 1, statementTimeoutMs: 300 });
  });
  afterAll(async () => {
    await pooled?.close();
    await direct?.close();
  });

  const lookup = (handle: DatabaseHandle, id: string) => handle.db.select({ id: forms.id }).from(forms).where(eq(forms.id, id));
  const oneValue = async <T>(handle: DatabaseHandle, query: ReturnType<typeof sql>) => Object.values(rowsOf<Record<string, T>>(await handle.db.execute(query))[0]!)[0]!;

  it('prepares no named statement and sends no startup parameter', async () => {
    expect(pooled.transactionPooler).toBe(true);
    for (let i = 0; i < 3; i++) await lookup(pooled, `pooled-${i}`);
    expect(await oneValue(pooled, sql`select count(*)::int from pg_prepared_statements`)).toBe(0);
    expect(await oneValue(pooled, sql`select current_setting('statement_timeout')`)).toBe('0');
    // Without a pooler, as before: named statements and the server's statement timeout.
    expect(direct.transactionPooler).toBe(false);
    for (let i = 0; i < 3; i++) await lookup(direct, `direct-${i}`);
    expect(await oneValue(direct, sql`select count(*)::int from pg_prepared_statements`)).toBeGreaterThan(0);
    expect(await oneValue(direct, sql`select current_setting('statement_timeout')`)).toBe('300ms');
  });

  it('sends a statement with parameters in one round trip, its first time too (no Parse, Describe, Flush first)', async () => {
    const watch = watchRoundTrips(Number(new URL(databaseUrl!).port || 5432));
    try {
      await lookup(pooled, `never-sent-before-${Date.now()}`);
      expect(watch.count()).toBe(1);
    } finally {
      watch.stop();
    }
  });

  it('cancels a statement past the statement timeout, and one waiting for a connection: 57014, a 503', async () => {
    const started = performance.now();
    const slow = await pooled.db.execute(sql`select pg_sleep(5)`).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(isDatabaseUnavailable(slow)).toBe(true);
    expect((slow as { cause?: { code?: string } }).cause?.code).toBe('57014');
    // The pool's one connection held by a transaction: a statement queued behind it is cancelled too.
    let release!: () => void;
    const holding = pooled.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const queued = await pooled.db.execute(sql`select 1`).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(queued)).toBe(true);
    expect((queued as { cause?: { code?: string } }).cause?.code).toBe('57014');
    release();
    await holding;
    expect(await oneValue(pooled, sql`select 2 as n`)).toBe(2);
  });

  it('takes job locks on the direct session, never on the pool', async () => {
    const ran = await runExclusively(pooled, `pooled-lock-${process.pid}`, async () =>
      oneValue<number>(
        pooled,
        sql`select count(*)::int from pg_locks l join pg_stat_activity a using (pid) where l.locktype = 'advisory' and a.application_name = 'formloom-direct'`,
      ),
    );
    expect(ran).toEqual({ ran: true, value: 1 });
  });
});
