/**
 * Transactions on PostgreSQL (src/db/pipelined-transaction.ts): BEGIN goes out with the first statement,
 * and otherwise they behave as postgres.js's `begin`: COMMIT after the callback, ROLLBACK when it throws,
 * a failed statement fails the transaction even when the callback caught it, savepoints for nested
 * transactions, and nothing leaks into the pool's next use of the connection.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { watchRoundTrips } from '../bench/round-trips.ts';

const databaseUrl = inject('testDatabaseUrl');
const table = sql.identifier(`transactions_test_${process.pid}`);

describe.skipIf(!databaseUrl)('transactions on PostgreSQL', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: databaseUrl!, maxConnections: 2 });
    await handle.db.execute(sql`create table ${table} (id text primary key)`);
  });
  afterAll(async () => {
    await handle?.db.execute(sql`drop table if exists ${table}`);
    await handle?.close();
  });

  const insert = (db: DatabaseHandle['db'], id: string) => db.execute(sql`insert into ${table} (id) values (${id})`);
  const stored = async () => ((await handle.db.execute(sql`select id from ${table} order by id`)) as unknown as { id: string }[]).map((row) => row.id);
  const clear = () => handle.db.execute(sql`delete from ${table}`);

  it('sends BEGIN with the first statement: a transaction of one statement is two round trips, that one and COMMIT', async () => {
    await clear();
    await handle.db.transaction((tx) => insert(tx, 'warm-up'));
    const watch = watchRoundTrips(Number(new URL(databaseUrl!).port || 5432));
    try {
      await handle.db.transaction((tx) => insert(tx, 'one'));
      expect(watch.count()).toBe(2);
    } finally {
      watch.stop();
    }
    expect(await stored()).toEqual(['one', 'warm-up']);
  });

  it('rolls back when the callback throws, and the error is the callback’s', async () => {
    await clear();
    const failure = new Error('changed my mind');
    await expect(
      handle.db.transaction(async (tx) => {
        await insert(tx, 'kept?');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await stored()).toEqual([]);
  });

  it('a failed statement fails the transaction even when the callback caught its error', async () => {
    await clear();
    await insert(handle.db, 'taken');
    const outcome = handle.db.transaction(async (tx) => {
      await insert(tx, 'first');
      await insert(tx, 'taken').catch(() => 'swallowed');
      return 'the callback finished';
    });
    // As postgres.js's `begin`: the failed statement's own error (PostgreSQL answered COMMIT with ROLLBACK).
    await expect(outcome).rejects.toMatchObject({ code: '23505' });
    expect(await stored()).toEqual(['taken']);
  });

  it('a nested transaction is a savepoint: its failure undoes only its own statements', async () => {
    await clear();
    await handle.db.transaction(async (tx) => {
      await insert(tx, 'outer');
      await expect(
        tx.transaction(async (inner) => {
          await insert(inner, 'inner');
          await insert(inner, 'outer');
        }),
      ).rejects.toMatchObject({ cause: { code: '23505' } });
      await tx.transaction((inner) => insert(inner, 'second inner'));
    });
    expect(await stored()).toEqual(['outer', 'second inner']);
  });

  it('more transactions at once than connections wait their turn', async () => {
    await clear();
    const ids = Array.from({ length: 12 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    await Promise.all(
      ids.map((id) =>
        handle.db.transaction(async (tx) => {
          await insert(tx, id);
          const own = (await tx.execute(sql`select count(*)::int as n from ${table} where id = ${id}`)) as unknown as { n: number }[];
          expect(own[0]!.n).toBe(1);
          return id;
        }),
      ),
    );
    expect(await stored()).toEqual(ids);
    // The connections went back to the pool outside any transaction.
    const states = (await Promise.all([1, 2, 3].map(() => handle.db.execute(sql`select pg_current_xact_id_if_assigned() is null as idle`)))) as unknown as { idle: boolean }[][];
    expect(states.every(([row]) => row!.idle)).toBe(true);
  });
});
