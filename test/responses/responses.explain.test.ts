/**
 * Both listings are index scans that need no sort, at any page, and a stream's batch reads the table
 * forwards from where the index says it starts: the plans of the exact queries responses.service.ts
 * runs, on a table large enough for the planner to take it seriously, with the values bound (custom
 * plan) and as a generic prepared plan (what a pooled, prepared statement may end up with).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { decodeCursor } from '../../src/keyset.ts';
import { listingSql, type ListResponsesInput } from '../../src/responses/responses.service.ts';
import { createTenant, setupIsolatedTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { bulkInsertResponses, createForm, createLead } from '../support/factories.ts';

let ctx: TestContext;
let tenant: TestTenant;
let other: TestTenant;
let formId: string;
let cursor: ListResponsesInput['after'];

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Scan Direction'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

const rowsOf = (result: unknown): Record<string, unknown>[] => (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<string, unknown>[];

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

function planFrom(result: unknown): PlanNode {
  const cell = rowsOf(result)[0]!['QUERY PLAN'];
  const parsed = typeof cell === 'string' ? JSON.parse(cell) : cell;
  return (parsed as { Plan: PlanNode }[])[0]!.Plan;
}

const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);

/** EXPLAIN of the listing with its values in place (the plan a custom plan of the statement gets). */
async function customPlan(db: Database, input: ListResponsesInput, batch = false): Promise<PlanNode> {
  const { sql: text, params } = listingSql(db, input, batch);
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
  return planFrom(await db.execute(sql.raw(`explain (format json) ${inlined}`)));
}

/** EXPLAIN of the listing as a generic plan of its prepared statement (values not known to the planner). */
async function genericPlan(db: Database, input: ListResponsesInput, batch = false): Promise<PlanNode> {
  const { sql: text, params } = listingSql(db, input, batch);
  const name = `listing_${Math.random().toString(36).slice(2, 10)}`;
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local plan_cache_mode = force_generic_plan`));
    await tx.execute(sql.raw(`prepare ${name} as ${text}`));
    try {
      const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
      return planFrom(await tx.execute(sql.raw(`explain (format json) execute ${name}${args}`)));
    } finally {
      await tx.execute(sql.raw(`deallocate ${name}`));
    }
  });
}

function expectIndexScanWithoutSort(plan: PlanNode, indexName: string) {
  const nodes = nodesOf(plan);
  const types = nodes.map((n) => n['Node Type']);
  expect(types, JSON.stringify(plan, null, 1)).not.toContain('Sort');
  expect(types).not.toContain('Incremental Sort');
  expect(nodes.filter((n) => n['Relation Name'] === 'responses').map((n) => n['Node Type'])).toEqual(['Index Scan']);
  expect(nodes.find((n) => n['Relation Name'] === 'responses')!['Index Name']).toBe(indexName);
  expect(plan['Node Type']).toBe('Limit');
}

/**
 * A stream's batch: the index alone finds where it starts (an index-only scan, in the listing's order),
 * then the batch's rows are read with the index walked oldest first (backward on these DESC indexes),
 * so the table's pages forwards, and sorted newest first before their text is made; no other read of
 * the table.
 */
function expectForwardBatch(plan: PlanNode, indexName: string) {
  const nodes = nodesOf(plan);
  const reads = nodes.filter((n) => n['Relation Name'] === 'responses');
  // The one sort is of the batch's rows, below the projection (the answers' text is made as rows are sent).
  expect(
    nodes.filter((n) => n['Node Type'] === 'Sort'),
    JSON.stringify(plan, null, 1),
  ).toHaveLength(1);
  expect(plan['Node Type']).toBe('Subquery Scan');
  expect(plan.Plans?.find((n) => n['Parent Relationship'] === 'Subquery')?.['Node Type']).toBe('Sort');
  expect(reads.map((n) => [n['Node Type'], n['Index Name'], n['Scan Direction']])).toEqual(
    expect.arrayContaining([
      ['Index Only Scan', indexName, 'Forward'],
      ['Index Scan', indexName, 'Backward'],
    ]),
  );
  expect(reads).toHaveLength(2);
  for (const read of reads) expect(read['Index Cond']).toMatch(/ROW\(created_at, id\) </);
}

beforeAll(async () => {
  // Its own database: the planner's statistics are this file's rows, not whatever other files are writing.
  ctx = await setupIsolatedTestApp();
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
  const forms = await Promise.all(Array.from({ length: 40 }, () => createForm(ctx.db, tenant.environmentId)));
  const otherForms = await Promise.all(Array.from({ length: 10 }, () => createForm(ctx.db, other.environmentId)));
  formId = forms[0]!.id;
  await bulkInsertResponses(ctx.db, {
    environmentId: tenant.environmentId,
    formIds: forms.map((f) => f.id),
    count: 20_000,
    leadId: (await createLead(ctx.db, tenant.environmentId)).id,
  });
  await bulkInsertResponses(ctx.db, {
    environmentId: other.environmentId,
    formIds: otherForms.map((f) => f.id),
    count: 20_000,
    leadId: (await createLead(ctx.db, other.environmentId)).id,
  });
  await ctx.db.execute(sql`analyze responses`);
  await ctx.db.execute(sql`analyze forms`);
  const [row] = rowsOf(
    await ctx.db.execute(
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", id from responses where environment_id = ${tenant.environmentId} order by created_at desc, id desc offset 500 limit 1`,
    ),
  );
  cursor = decodeCursor(Buffer.from(JSON.stringify(row)).toString('base64url'));
  expect(cursor).toBeDefined();
}, 120_000);

const base = () => ({ environmentId: tenant.environmentId, limit: 10 });

describe.each([
  ['custom', customPlan],
  ['generic', genericPlan],
] as const)('%s plans', (_, explain) => {
  it('one form, completed only: the partial per-form index, no sort', async () => {
    expectIndexScanWithoutSort(await explain(ctx.db, { ...base(), formId }), 'responses_form_finished_created_idx');
  });

  it('one form with partials: the per-form index, no sort', async () => {
    expectIndexScanWithoutSort(await explain(ctx.db, { ...base(), formId, includePartials: true }), 'responses_form_created_idx');
  });

  it('one form, a later page: the cursor is an index condition', async () => {
    const plan = await explain(ctx.db, { ...base(), formId, after: cursor });
    expectIndexScanWithoutSort(plan, 'responses_form_finished_created_idx');
    expect(nodesOf(plan).find((n) => n['Relation Name'] === 'responses')!['Index Cond']).toMatch(/ROW\(created_at, id\) </);
  });

  it('the environment, completed only: the partial per-environment index, no sort', async () => {
    expectIndexScanWithoutSort(await explain(ctx.db, { ...base(), limit: 100 }), 'responses_environment_finished_created_idx');
  });

  it('the environment with partials: the per-environment index, no sort', async () => {
    expectIndexScanWithoutSort(await explain(ctx.db, { ...base(), limit: 100, includePartials: true }), 'responses_environment_created_idx');
  });

  it('the environment, a later page: the cursor is an index condition', async () => {
    const plan = await explain(ctx.db, { ...base(), limit: 100, after: cursor, includePartials: true });
    expectIndexScanWithoutSort(plan, 'responses_environment_created_idx');
    expect(nodesOf(plan).find((n) => n['Relation Name'] === 'responses')!['Index Cond']).toMatch(/ROW\(created_at, id\) </);
  });

  it('the environment filtered by time: still the index, the range an index condition', async () => {
    const plan = await explain(ctx.db, { ...base(), limit: 100, since: new Date('2025-01-01T01:00:00Z'), until: new Date('2025-01-01T03:00:00Z') });
    expectIndexScanWithoutSort(plan, 'responses_environment_finished_created_idx');
    expect(nodesOf(plan).find((n) => n['Relation Name'] === 'responses')!['Index Cond']).toMatch(/created_at >=/);
  });

  it("a stream's batch of the environment: its start from the index, its rows read forwards", async () => {
    expectForwardBatch(await explain(ctx.db, { ...base(), limit: 200, after: cursor, includePartials: true }, true), 'responses_environment_created_idx');
  });

  it("a stream's batch of the environment's completed responses: the partial index", async () => {
    expectForwardBatch(await explain(ctx.db, { ...base(), limit: 200, after: cursor }, true), 'responses_environment_finished_created_idx');
  });

  it("a stream's batch of one form: the newest-first listing, since the form's index cannot find the batch's start alone", async () => {
    const plan = await explain(ctx.db, { ...base(), formId, limit: 200, after: cursor, includePartials: true }, true);
    // The listing's own plan, whichever the planner takes for so few rows: a LIMIT on top, no batch start, no backward read.
    expect(plan['Node Type'], JSON.stringify(plan, null, 1)).toBe('Limit');
    const reads = nodesOf(plan).filter((n) => n['Relation Name'] === 'responses');
    expect(reads.map((n) => n['Node Type'])).not.toContain('Index Only Scan');
    expect(reads.map((n) => n['Scan Direction'])).not.toContain('Backward');
  });
});
