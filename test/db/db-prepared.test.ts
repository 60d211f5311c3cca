/**
 * preparedQuery (src/db/prepared.ts) builds a query once and runs it on whichever handle asks: inside a
 * transaction it must run on that transaction's connection (seeing its uncommitted rows), and a query
 * first built inside a transaction must still work once that transaction has ended.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { forEachRow, preparedQuery } from '../../src/db/prepared.ts';
import { leads } from '../../src/db/schema.ts';
import { createId } from '../../src/ids.ts';
import { createTenant, setupTestApp, type TestContext } from '../support/helpers.ts';

let ctx: TestContext;
let environmentId: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  environmentId = (await createTenant(ctx.db)).environmentId;
});

const leadById = (db: Db, name: string) =>
  preparedQuery(db, name, (handle) =>
    handle
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.id, sql.placeholder('id')))
      .prepare(name),
  );

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

describe('forEachRow', () => {
  const leadsOf = (db: Db) =>
    preparedQuery(db, 'test_leads_of_environment', (handle) =>
      handle
        .select({ id: leads.id })
        .from(leads)
        .where(eq(leads.environmentId, sql.placeholder('environmentId')))
        .orderBy(leads.id)
        .prepare('test_leads_of_environment'),
    );

  it("passes the driver's rows in order, as the query's own rows", async () => {
    const tenant = await createTenant(ctx.db);
    const ids = Array.from({ length: 25 }, () => createId());
    await ctx.db.insert(leads).values(ids.map((id) => ({ id, environmentId: tenant.environmentId })));
    const seen: string[] = [];
    await forEachRow<{ id: string }>(leadsOf(ctx.db), { environmentId: tenant.environmentId }, (row) => seen.push(row.id));
    expect(seen).toEqual([...ids].sort());
    expect(seen).toEqual((await leadsOf(ctx.db).execute({ environmentId: tenant.environmentId })).map((row) => row.id));
  });

  it("rejects with the callback's error, and the database answers the next statement", async () => {
    const tenant = await createTenant(ctx.db);
    await ctx.db.insert(leads).values(Array.from({ length: 5 }, () => ({ id: createId(), environmentId: tenant.environmentId })));
    let calls = 0;
    const failing = forEachRow(leadsOf(ctx.db), { environmentId: tenant.environmentId }, () => {
      calls++;
      throw new Error('row refused');
    });
    await expect(failing).rejects.toThrow('row refused');
    expect(calls).toBe(1);
    expect(await leadsOf(ctx.db).execute({ environmentId: tenant.environmentId })).toHaveLength(5);
  });
});
