/**
 * preparedQuery (src/db/prepared.ts) builds a query once and runs it on whichever handle asks: inside a
 * transaction it must run on that transaction's connection (seeing its uncommitted rows), and a query
 * first built inside a transaction must still work once that transaction has ended.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { preparedQuery } from '../src/db/prepared.ts';
import { leads } from '../src/db/schema.ts';
import { createId } from '../src/ids.ts';
import { createTenant, setupTestApp, type TestContext } from './helpers.ts';

let ctx: TestContext;
let environmentId: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  environmentId = (await createTenant(ctx.db)).environmentId;
});

const leadById = (db: Db, name: string) =>
  preparedQuery(db, name, (handle) => handle.select({ id: leads.id }).from(leads).where(eq(leads.id, sql.placeholder('id'))).prepare(name));

class RolledBack extends Error {}

/** Inserts a lead in a transaction, runs `inside` there, then rolls the transaction back. */
async function inRolledBackTransaction(inside: (tx: Db, id: string) => Promise<void>) {
  const id = createId();
  await expect(
    ctx.db.transaction(async (tx) => {
      await tx.insert(leads).values({ id, environmentId });
      await inside(tx, id);
      throw new RolledBack();
    }),
  ).rejects.toBeInstanceOf(RolledBack);
  return id;
}

it('runs a query built on the database inside a transaction, on the transaction', async () => {
  expect(await leadById(ctx.db, 'test_lead_built_outside').execute({ id: 'none' })).toEqual([]);
  const id = await inRolledBackTransaction(async (tx, id) => {
    expect(await leadById(tx, 'test_lead_built_outside').execute({ id })).toEqual([{ id }]);
  });
  expect(await leadById(ctx.db, 'test_lead_built_outside').execute({ id })).toEqual([]);
});

it('runs a query first built inside a transaction in later transactions and outside', async () => {
  const first = await inRolledBackTransaction(async (tx, id) => {
    expect(await leadById(tx, 'test_lead_built_inside').execute({ id })).toEqual([{ id }]);
  });
  await inRolledBackTransaction(async (tx, id) => {
    expect(await leadById(tx, 'test_lead_built_inside').execute({ id })).toEqual([{ id }]);
    expect(await leadById(tx, 'test_lead_built_inside').execute({ id: first })).toEqual([]);
  });
  expect(await leadById(ctx.db, 'test_lead_built_inside').execute({ id: first })).toEqual([]);
});
