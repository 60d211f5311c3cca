/**
 * No N+1: a query that lists forms with their summaries' totals and their last 3 responses, or with their
 * finished responses and quota counts, runs the same, small number of SQL statements for 10 forms as for 100. Statements are counted by a
 * drizzle logger on this file's own database handle.
 */
import { eq, sql } from 'drizzle-orm';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { forms as formsTable, responses } from '../../src/db/schema.ts';
import { FormsOverviewDocument } from '../../src/graphql/generated/graphql.ts';
import { createForm, insertResponses } from '../support/factories.ts';
import { appWith, createTenant, jsonRequest, openTestDatabase, type TestTenant } from '../support/helpers.ts';

const statements: string[] = [];
let counting = false;
let handle: DatabaseHandle;
let app: ReturnType<typeof appWith>;
let tenant: TestTenant;

beforeAll(async () => {
  handle = await openTestDatabase({
    logger: {
      logQuery: (query) => {
        if (counting) statements.push(query);
      },
    },
  });
  app = appWith(handle.db);
  tenant = await createTenant(handle.db);
  // 100 more forms (101 with the template), 5 responses each.
  // Made concurrently: on PostgreSQL the handle's connections share the 100 imports.
  const forms = await Promise.all(Array.from({ length: 100 }, (_, i) => createForm(handle.db, tenant.environmentId, `Form ${i}`)));
  await insertResponses(
    handle.db,
    forms.flatMap((form, i) =>
      Array.from({ length: 5 }, (_, j) => ({
        environmentId: tenant.environmentId,
        formId: form.id,
        finished: j % 2 === 0,
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000 + j * 1000).toISOString(),
      })),
    ),
  );
});
afterAll(() => handle.close());

/** The statements one request runs (the API key's verification is cached by a first request). */
async function statementsOf(first: number) {
  const request = () => app.request('/graphql', jsonRequest('POST', { query: print(FormsOverviewDocument), variables: { first } }, { 'x-api-key': tenant.apiKey }));
  await request();
  statements.length = 0;
  counting = true;
  const response = await request();
  counting = false;
  const body = (await response.json()) as {
    data?: { viewer: { environment: { forms: { edges: { node: { summary: { total: number }; responses: { edges: unknown[] } } }[] } } } };
    errors?: unknown[];
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return { count: statements.length, statements: [...statements], edges: body.data!.viewer.environment.forms.edges };
}

describe('batching', () => {
  it('lists 100 forms with summary totals and their last 3 responses in as many statements as 10 forms', async () => {
    const ten = await statementsOf(10);
    const hundred = await statementsOf(100);
    expect(hundred.edges).toHaveLength(100);
    expect(hundred.edges.every((edge) => edge.node.summary.total === 5 && edge.node.responses.edges.length === 3)).toBe(true);
    expect(ten.edges).toHaveLength(10);
    // The environment, its forms page, one summary-counts statement and one lateral responses statement.
    expect(hundred.count).toBe(ten.count);
    expect(hundred.count).toBeLessThanOrEqual(4);
  });
});

const QUOTA_COUNTS = `query ($first: Int!) {
  viewer { environment { forms(first: $first) { edges { node { id finishedResponses quotas { key count } } } } } }
}`;

async function quotaStatementsOf(first: number) {
  const request = () => app.request('/graphql', jsonRequest('POST', { query: QUOTA_COUNTS, variables: { first } }, { 'x-api-key': tenant.apiKey }));
  await request();
  statements.length = 0;
  counting = true;
  const response = await request();
  counting = false;
  const body = (await response.json()) as {
    data?: { viewer: { environment: { forms: { edges: { node: { id: string; finishedResponses: number; quotas: { key: string; count: number }[] } }[] } } } };
    errors?: unknown[];
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return { count: statements.length, nodes: body.data!.viewer.environment.forms.edges.map((edge) => edge.node) };
}

describe('batching the counts of limits and quotas', () => {
  it("lists 100 forms with finishedResponses and their quotas' counts in as many statements as 10 forms", async () => {
    const condition = { hidden: 'plan', op: 'answered' as const };
    await handle.db
      .update(formsTable)
      .set({
        quotas: [
          { key: 'a', condition, limit: 10, action: 'complete' },
          { key: 'b', condition, limit: 10, action: 'invalid' },
        ],
      })
      .where(eq(formsTable.environmentId, tenant.environmentId));
    // Every finished response counted toward "a"; none toward "b".
    await handle.db
      .update(responses)
      .set({ meta: sql`${responses.meta} || '{"quotas": ["a"]}'::jsonb` })
      .where(eq(responses.finished, true));
    const ten = await quotaStatementsOf(10);
    const hundred = await quotaStatementsOf(100);
    expect(hundred.nodes).toHaveLength(100);
    const counted = hundred.nodes.filter((node) => node.finishedResponses === 3);
    // The 100 forms with responses (the template has none).
    expect(counted.length).toBeGreaterThanOrEqual(99);
    for (const node of counted)
      expect(node.quotas).toEqual([
        { key: 'a', count: 3 },
        { key: 'b', count: 0 },
      ]);
    // The environment, its forms page and one statement of counts.
    expect(hundred.count).toBe(ten.count);
    expect(hundred.count).toBeLessThanOrEqual(3);
  });
});

const FORM_LISTING = `query ($first: Int!, $steps: Boolean!) {
  viewer { environment { forms(first: $first) { edges { node { id name version steps @include(if: $steps) { key } translations @include(if: $steps) { locale total } } } } } }
}`;

/** The statements of one listing of `first` forms, with or without their steps. */
async function listingStatementsOf(first: number, steps: boolean) {
  const request = () => app.request('/graphql', jsonRequest('POST', { query: FORM_LISTING, variables: { first, steps } }, { 'x-api-key': tenant.apiKey }));
  await request();
  statements.length = 0;
  counting = true;
  const response = await request();
  counting = false;
  const body = (await response.json()) as { data?: { viewer: { environment: { forms: { edges: { node: { steps?: { key: string }[] } }[] } } } }; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return { statements: [...statements], nodes: body.data!.viewer.environment.forms.edges.map((edge) => edge.node) };
}

const readsSteps = (statement: string) => /"steps"/.test(statement);

describe("reading forms' steps only when a field needs them", () => {
  it('lists forms without reading their steps; selected, all steps of the page are read in one more statement', async () => {
    const without = await listingStatementsOf(100, false);
    expect(without.nodes).toHaveLength(100);
    expect(without.statements.filter(readsSteps)).toEqual([]);

    const ten = await listingStatementsOf(10, true);
    const hundred = await listingStatementsOf(100, true);
    expect(hundred.nodes).toHaveLength(100);
    expect(hundred.nodes.every((node) => node.steps!.length > 0)).toBe(true);
    // steps and translations share the one statement that reads them, for 10 forms as for 100.
    expect(hundred.statements.filter(readsSteps)).toHaveLength(1);
    expect(hundred.statements).toHaveLength(without.statements.length + 1);
    expect(ten.statements).toHaveLength(hundred.statements.length);
  });
});
