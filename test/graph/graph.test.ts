/**
 * The connected graph: viewer, the edges between environments, forms, keys, leads and
 * responses, node/nodes, closing and reopening forms, response summaries, and tenancy on every edge.
 * Operations are the typed documents of test/graph/graph.graphql (codegen).
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { isInterfaceType, isObjectType, print, type GraphQLInterfaceType, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createApiKey, revokeApiKey } from '../../src/auth/auth.service.ts';
import { schema } from '../../src/graphql/schema.ts';
import { importForm } from '../../src/forms/forms.service.ts';
import {
  CloseFormDocument,
  EnvironmentGraphDocument,
  FormGraphDocument,
  FormSummaryDocument,
  NodeLookupDocument,
  NodesLookupDocument,
  ReopenFormDocument,
  ViewerDocument,
} from '../../src/graphql/generated/graphql.ts';
import { createLead, insertResponse } from '../support/factories.ts';
import { ADMIN_TOKEN, createTenant, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let a: TestTenant;
let b: TestTenant;

/** Runs a typed document over HTTP against /graphql. */
async function run<TData, TVars extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVars>,
  variables: TVars,
  headers: Record<string, string>,
): Promise<{ status: number; data: TData | null | undefined; errors: { message: string; extensions?: { code?: string } }[] | undefined }> {
  const response = await ctx.app.request('/graphql', jsonRequest('POST', { query: print(document), variables }, headers));
  const body = (await response.json()) as { data?: TData | null; errors?: { message: string; extensions?: { code?: string } }[] };
  return { status: response.status, data: body.data, errors: body.errors };
}

const asKey = (tenant: TestTenant) => ({ 'x-api-key': tenant.apiKey });
const asAdmin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const twoSteps = [
  {
    name: 'First',
    components: [
      { type: 'Dropdown', content: { question: 'Size?', options: ['S', 'M', 'L'] } },
      { type: 'Disclaimer', content: { text: 'Terms' } },
    ],
  },
  {
    name: 'Second',
    components: [
      { type: 'MultipleOptionsQuestion', content: { question: 'Pick', choices: ['a', 'b'], isMulti: true } },
      { type: 'ShortInput', content: { question: 'Why?' } },
    ],
  },
];

/** Fixtures of tenant A: a generated form with responses of two leads; B: a form with one response. */
let formA: Awaited<ReturnType<typeof makeForm>>;
let formB: Awaited<ReturnType<typeof makeForm>>;
let leadA: { id: string };
let leadB: { id: string };
let responseA: string;
let responseB: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  a = await createTenant(ctx.db);
  b = await createTenant(ctx.db);
  formA = await makeForm(ctx.db, a, twoSteps, 'Survey A');
  formB = await makeForm(ctx.db, b, twoSteps, 'Survey B');
  leadA = await createLead(ctx.db, a.environmentId, 'ada@example.com');
  leadB = await createLead(ctx.db, b.environmentId, 'bob@example.com');
  const [dropdown, disclaimer] = formA.steps[0]!.components;
  const [options, short] = formA.steps[1]!.components;
  const base = { componentShapeVersion: '2.0' };
  // Finished: answered both steps.
  responseA = await insertResponse(ctx.db, {
    environmentId: a.environmentId,
    formId: formA.id,
    leadId: leadA.id,
    finished: true,
    createdAt: '2026-01-01T10:00:00.000001Z',
    data: [
      { questionId: dropdown!.id, response: { ...base, type: 'Dropdown', selected: 'M' } },
      { questionId: disclaimer!.id, response: { ...base, type: 'Disclaimer', check: true } },
      {
        questionId: options!.id,
        response: {
          ...base,
          type: 'MultipleOptionsQuestion',
          choices: [
            { key: 'a', value: true, index: 0 },
            { key: 'b', value: true, index: 1 },
          ],
        },
      },
      { questionId: short!.id, response: { ...base, type: 'ShortInput', input: 'because' } },
    ],
  });
  // Dropped off after the first step (untouched for far longer than DROP_OFF_MINUTES).
  await insertResponse(ctx.db, {
    environmentId: a.environmentId,
    formId: formA.id,
    leadId: leadA.id,
    finished: false,
    createdAt: '2026-01-01T09:00:00Z',
    data: [{ questionId: dropdown!.id, response: { ...base, type: 'Dropdown', selected: 'S' } }],
  });
  // In progress (touched just now), first step only.
  await insertResponse(ctx.db, {
    environmentId: a.environmentId,
    formId: formA.id,
    finished: false,
    createdAt: new Date(),
    data: [
      { questionId: dropdown!.id, response: { ...base, type: 'Dropdown', selected: 'M' } },
      { questionId: disclaimer!.id, response: { ...base, type: 'Disclaimer', check: false } },
    ],
  });
  responseB = await insertResponse(ctx.db, { environmentId: b.environmentId, formId: formB.id, leadId: leadB.id, finished: true });
});

describe('viewer', () => {
  it("is the API key and its environment, with the key's public metadata and never a secret", async () => {
    const { data, errors } = await run(ViewerDocument, {}, asKey(a));
    expect(errors).toBeUndefined();
    expect(data!.viewer.kind).toBe('API_KEY');
    expect(data!.viewer.environment!.id).toBe(a.environmentId);
    expect(data!.viewer.apiKey).toMatchObject({ id: a.apiKeyId, prefix: `fl_${a.apiKeyId}_`, name: 'test', revoked: false, revokedAt: null });
    // Authenticating this request recorded the key's use.
    expect(Date.parse(data!.viewer.apiKey!.lastUsedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(data)).not.toContain(a.apiKey.slice(a.apiKey.indexOf('_', 3) + 1));
  });

  it('is the admin token without an environment; anonymous callers are UNAUTHENTICATED', async () => {
    const admin = await run(ViewerDocument, {}, asAdmin);
    expect(admin.data!.viewer).toEqual({ kind: 'ADMIN', environment: null, apiKey: null });
    const anonymous = await run(ViewerDocument, {}, {});
    expect(anonymous.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});

describe('Environment edges', () => {
  it('lists forms newest first with status and name filters, keyset pages, keys, leads and responses', async () => {
    const { data, errors } = await run(EnvironmentGraphDocument, { id: a.environmentId, first: 1 }, asKey(a));
    expect(errors).toBeUndefined();
    const environment = data!.environment;
    expect(environment.forms.edges.map((e) => e.node.id)).toEqual([formA.id]);
    expect(environment.forms.pageInfo.hasNextPage).toBe(true);
    const next = await run(EnvironmentGraphDocument, { id: a.environmentId, first: 10, after: environment.forms.pageInfo.endCursor }, asKey(a));
    expect(next.data!.environment.forms.edges.map((e) => e.node.id)).toEqual([a.templateId]);
    expect(next.data!.environment.forms.pageInfo.hasNextPage).toBe(false);

    const byName = await run(EnvironmentGraphDocument, { id: a.environmentId, formFilter: { nameContains: 'surVEY' } }, asKey(a));
    expect(byName.data!.environment.forms.edges.map((e) => e.node.id)).toEqual([formA.id]);
    const drafts = await run(EnvironmentGraphDocument, { id: a.environmentId, formFilter: { status: 'DRAFT' } }, asKey(a));
    expect(drafts.data!.environment.forms.edges).toEqual([]);

    expect(environment.apiKeys.map((k) => k.id)).toEqual([a.apiKeyId]);
    expect(environment.apiKeys[0]).not.toHaveProperty('secretHash');
    expect(environment.leads.edges.map((e) => e.node.email)).toContain('ada@example.com');
    expect(environment.leads.edges.map((e) => e.node.email)).not.toContain('bob@example.com');
    const ada = environment.leads.edges.find((e) => e.node.id === leadA.id)!.node;
    expect(ada.responses.edges).toHaveLength(2);
    expect(environment.responses.edges.map((e) => e.node.formId).every((id) => id === formA.id)).toBe(true);
    expect(environment.responses.edges).toHaveLength(3);

    const byEmail = await run(EnvironmentGraphDocument, { id: a.environmentId, email: 'ADA@example.com' }, asKey(a));
    expect(byEmail.data!.environment.leads.edges.map((e) => e.node.id)).toEqual([leadA.id]);
  });

  it('lists revoked keys with revokedAt', async () => {
    const key = await createApiKey(ctx.db, { environmentId: a.environmentId, name: 'old' });
    await revokeApiKey(ctx.db, key.id);
    const { data } = await run(EnvironmentGraphDocument, { id: a.environmentId }, asKey(a));
    const old = data!.environment.apiKeys.find((k) => k.id === key.id)!;
    expect(old.revokedAt).not.toBeNull();
    expect(old.prefix).toBe(`fl_${key.id}_`);
  });

  it("refuses another environment's keys (FORBIDDEN), as environment(id:) always did", async () => {
    const { errors } = await run(EnvironmentGraphDocument, { id: a.environmentId }, asKey(b));
    expect(errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});

describe('Form edges', () => {
  it('leads to its responses, their lead and form, its template and the forms generated from it', async () => {
    const { data, errors } = await run(FormGraphDocument, { id: formA.id }, asKey(a));
    expect(errors).toBeUndefined();
    const form = data!.form!;
    expect(form.sourceForm).toEqual({ id: a.templateId, name: a.template.name });
    expect(form.responses.edges).toHaveLength(3);
    expect(form.responses.edges[0]!.node.form).toEqual({ id: formA.id });
    const finished = form.responses.edges.find((e) => e.node.id === responseA)!.node;
    expect(finished.lead).toMatchObject({ id: leadA.id, email: 'ada@example.com' });

    const template = await run(FormGraphDocument, { id: a.templateId }, asKey(a));
    expect(template.data!.form!.sourceForm).toBeNull();
    expect(template.data!.form!.generatedForms.edges.map((e) => e.node.id)).toEqual([formA.id]);
  });
});

describe('tenancy on every edge', () => {
  it("a key of B never reaches A's rows: forms, responses, leads, keys and environments are null or absent", async () => {
    // B's own form: nothing of A appears anywhere below it.
    const own = await run(FormGraphDocument, { id: formB.id }, asKey(b));
    expect(own.errors).toBeUndefined();
    const text = JSON.stringify(own.data);
    for (const id of [a.environmentId, formA.id, a.templateId, leadA.id, responseA]) expect(text).not.toContain(id);
    expect(own.data!.form!.responses.edges.map((e) => e.node.id)).toEqual([responseB]);

    // A's form by id: null, as for an unknown one.
    const foreign = await run(FormGraphDocument, { id: formA.id }, asKey(b));
    expect(foreign.data!.form).toBeNull();

    // Every A object by global id: null, exactly like unknown ids.
    const ids = [
      encodeGlobalID('Environment', a.environmentId),
      encodeGlobalID('ApiKey', a.apiKeyId),
      encodeGlobalID('Form', formA.id),
      encodeGlobalID('FormResponse', responseA),
      encodeGlobalID('Lead', leadA.id),
    ];
    const nodes = await run(NodesLookupDocument, { ids }, asKey(b));
    expect(nodes.errors).toBeUndefined();
    expect(nodes.data!.nodes).toEqual([null, null, null, null, null]);
    const unknown = await run(NodesLookupDocument, { ids: ids.map((id) => encodeGlobalID('Form', `nope-${id.length}`)) }, asKey(b));
    expect(unknown.data!.nodes).toEqual([null, null, null, null, null]);
  });

  it('a form generated from a template of another environment cannot exist, and a deleted template is null', async () => {
    const template = await importForm(ctx.db, { environmentId: b.environmentId, name: 'T', theme: b.template.theme!, steps: b.template.steps });
    const child = await makeForm(ctx.db, { ...b, templateId: template.id }, twoSteps, 'Child');
    await run(FormGraphDocument, { id: child.id }, asKey(b)).then(({ data }) => expect(data!.form!.sourceForm).toEqual({ id: template.id, name: 'T' }));
    const deleted = await ctx.app.request('/graphql', jsonRequest('POST', { query: `mutation { deleteForm(id: "${template.id}") { deleted } }` }, asKey(b)));
    expect(deleted.status).toBe(200);
    const after = await run(FormGraphDocument, { id: child.id }, asKey(b));
    expect(after.data!.form!.sourceForm).toBeNull();
  });
});

describe('node and nodes', () => {
  /** Every type implementing Node, an object of tenant A of that type (by its `id`, as REST names it), and fields to check. */
  const nodesOfA = (): [string, string, Record<string, unknown>][] => [
    ['Environment', a.environmentId, { name: expect.any(String) }],
    ['ApiKey', a.apiKeyId, { prefix: `fl_${a.apiKeyId}_` }],
    ['Form', formA.id, { name: 'Survey A' }],
    ['FormResponse', responseA, { formId: formA.id }],
    ['Lead', leadA.id, { email: 'ada@example.com' }],
  ];
  const nodesOfB = (): [string, string][] => [
    ['Environment', b.environmentId],
    ['ApiKey', b.apiKeyId],
    ['Form', formB.id],
    ['FormResponse', responseB],
    ['Lead', leadB.id],
  ];

  it('covers every type that implements Node', () => {
    const implementing = Object.values(schema.getTypeMap())
      .filter((type): type is GraphQLObjectType => isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node'))
      .map((type) => type.name);
    expect(
      nodesOfA()
        .map(([type]) => type)
        .sort(),
    ).toEqual(implementing.sort());
  });

  it('node(id: x.id) refetches every type by the value of its `id` field, the id REST uses', async () => {
    for (const [type, id, fields] of nodesOfA()) {
      const { data, errors } = await run(NodeLookupDocument, { id }, asKey(a));
      expect(errors, type).toBeUndefined();
      expect(data!.node, type).toEqual({ __typename: type, id, nodeId: encodeGlobalID(type, id), ...fields });
    }
    // The id a listing returns (the database's, which REST returns too) is the one node(id:) and nodes(ids:) take.
    const form = await run(FormGraphDocument, { id: formA.id }, asKey(a));
    const listed = form.data!.form!.responses.edges.map((edge) => edge.node.id);
    expect(listed).toContain(responseA);
    const viaNodes = await run(NodesLookupDocument, { ids: listed }, asKey(a));
    expect(viaNodes.data!.nodes).toEqual(listed.map((id) => ({ __typename: 'FormResponse', id })));
    // The admin token reaches every environment's objects.
    for (const [type, id] of nodesOfB()) {
      const admin = await run(NodeLookupDocument, { id }, asAdmin);
      expect(admin.data!.node, type).toMatchObject({ __typename: type, id });
    }
  });

  it("answers null for another environment's object of every type, as for an unknown id", async () => {
    for (const [type, id] of nodesOfB()) {
      const { data, errors } = await run(NodeLookupDocument, { id }, asKey(a));
      expect(errors, type).toBeUndefined();
      expect(data!.node, type).toBeNull();
      // Nor under its former global id.
      expect((await run(NodeLookupDocument, { id: encodeGlobalID(type, id) }, asKey(a))).data!.node, type).toBeNull();
    }
    const ids = [formA.id, formB.id, 'no-such-id', responseB, leadA.id, b.environmentId, a.apiKeyId];
    const { data, errors } = await run(NodesLookupDocument, { ids }, asKey(a));
    expect(errors).toBeUndefined();
    expect(data!.nodes).toEqual([{ __typename: 'Form', id: formA.id }, null, null, null, { __typename: 'Lead', id: leadA.id }, null, { __typename: 'ApiKey', id: a.apiKeyId }]);
  });

  it('still resolves the former global ids (`nodeId`, base64 of Type:id), as that type only', async () => {
    for (const [type, id, fields] of nodesOfA()) {
      const { data } = await run(NodeLookupDocument, { id: encodeGlobalID(type, id) }, asKey(a));
      expect(data!.node, type).toEqual({ __typename: type, id, nodeId: encodeGlobalID(type, id), ...fields });
    }
    expect((await run(NodeLookupDocument, { id: encodeGlobalID('Lead', formA.id) }, asKey(a))).data!.node).toBeNull();
  });

  it('answers null for malformed ids and unknown types, and refuses more than 100 ids', async () => {
    for (const id of ['not base64 at all', Buffer.from('Nope:1').toString('base64'), '', 'x'.repeat(10_000)]) {
      const { data, errors } = await run(NodeLookupDocument, { id }, asKey(a));
      expect(errors).toBeUndefined();
      expect(data!.node).toBeNull();
    }
    const many = await run(NodesLookupDocument, { ids: Array.from({ length: 101 }, (_, i) => `f${i}`) }, asKey(a));
    expect(many.errors![0]!.extensions!.code).toMatch(/BAD_USER_INPUT|GRAPHQL_COST_LIMIT/);
    const anonymous = await run(NodeLookupDocument, { id: formA.id }, {});
    expect(anonymous.data?.node ?? null).toBeNull();
    expect(anonymous.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});

/**
 * Relay's requirements of a schema (the GraphQL Global Object Identification spec, and the checks of
 * relay-compiler: its node query generator for @refetchable fragments, and its `nonNodeIdFields` rule).
 */
describe('the Node interface, as Relay requires it', () => {
  const typeString = (type: { toString(): string }) => type.toString();

  it('Node has exactly one field, `id: ID!`, and every type implementing it has `id: ID!`', () => {
    const node = schema.getType('Node');
    expect(isInterfaceType(node)).toBe(true);
    const fields = (node as GraphQLInterfaceType).getFields();
    expect(Object.keys(fields)).toEqual(['id']);
    expect(typeString(fields.id!.type)).toBe('ID!');
    for (const type of schema.getImplementations(node as GraphQLInterfaceType).objects) {
      expect(typeString(type.getFields().id!.type), type.name).toBe('ID!');
    }
  });

  it('Query.node takes exactly one argument, `id: ID!`, and returns Node; Query.nodes is a plural identifying root field', () => {
    const query = schema.getQueryType()!.getFields();
    expect(typeString(query.node!.type)).toBe('Node');
    expect(query.node!.args.map((arg) => [arg.name, typeString(arg.type)])).toEqual([['id', 'ID!']]);
    expect(typeString(query.nodes!.type)).toBe('[Node]!');
    expect(query.nodes!.args.map((arg) => [arg.name, typeString(arg.type)])).toEqual([['ids', '[ID!]!']]);
  });

  it('every field named `id`, on any object or interface, is an ID (never a list or another scalar)', () => {
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      const id = type.getFields().id;
      if (id) expect(typeString(id.type), type.name).toMatch(/^ID!?$/);
    }
  });
});

describe('closing and reopening a form', () => {
  it('published → closed → published, with the page and the public API refusing submissions while closed', async () => {
    const form = await makeForm(ctx.db, a, twoSteps, 'Closable');
    const closed = await run(CloseFormDocument, { id: form.id }, asKey(a));
    expect(closed.data!.closeForm).toEqual({ id: form.id, status: 'CLOSED' });
    // Idempotent.
    expect((await run(CloseFormDocument, { id: form.id }, asKey(a))).data!.closeForm.status).toBe('CLOSED');

    const page = await ctx.app.request(`/s/${form.id}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('no longer accepting responses');
    expect(html).toContain('Closable');
    const post = await ctx.app.request(`/s/${form.id}?step=0`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(post.status).toBe(410);
    const api = await ctx.app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {} }));
    expect(api.status).toBe(410);
    expect(await api.json()).toEqual({ message: 'This form is closed and no longer accepts responses' });

    // Still listed, readable, and usable as a template.
    const listed = await run(EnvironmentGraphDocument, { id: a.environmentId, formFilter: { status: 'CLOSED' } }, asKey(a));
    expect(listed.data!.environment.forms.edges.map((e) => e.node.id)).toEqual([form.id]);
    const generated = await ctx.app.request(
      `/api/v1/environments/${a.environmentId}/forms/generate`,
      jsonRequest('POST', { sourceFormId: form.id, name: 'From closed', steps: twoSteps }, asKey(a)),
    );
    expect(generated.status).toBe(200);

    const reopened = await run(ReopenFormDocument, { id: form.id }, asKey(a));
    expect(reopened.data!.reopenForm.status).toBe('PUBLISHED');
    expect((await ctx.app.request(`/s/${form.id}`)).status).toBe(200);
    expect((await ctx.app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: {} }))).status).toBe(201);
  });

  it("refuses drafts (CONFLICT), another environment's forms (NOT_FOUND) and anonymous callers", async () => {
    const draft = await importForm(ctx.db, { environmentId: a.environmentId, name: 'Draft', theme: a.template.theme!, steps: a.template.steps, status: 'draft' });
    expect((await run(CloseFormDocument, { id: draft.id }, asKey(a))).errors![0]!.extensions!.code).toBe('CONFLICT');
    expect((await run(CloseFormDocument, { id: formA.id }, asKey(b))).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await run(ReopenFormDocument, { id: formA.id }, {})).errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });

  it('REST: POST /api/v1/environments/{id}/forms/{formId}/close and /reopen', async () => {
    const form = await makeForm(ctx.db, a, twoSteps, 'REST closable');
    const close = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/${form.id}/close`, { method: 'POST', headers: asKey(a) });
    expect(close.status).toBe(200);
    expect(await close.json()).toEqual({ id: form.id, status: 'closed' });
    const reopen = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/${form.id}/reopen`, { method: 'POST', headers: asKey(a) });
    expect(await reopen.json()).toEqual({ id: form.id, status: 'published' });
    const foreign = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/${form.id}/close`, { method: 'POST', headers: asKey(b) });
    expect(foreign.status).toBe(403);
    const unknown = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/nope/close`, { method: 'POST', headers: asKey(a) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Form not found' });
    const get = await ctx.app.request(`/api/v1/environments/${a.environmentId}/forms/${form.id}/close`, { headers: asKey(a) });
    expect(get.status).toBe(405);
  });
});

describe('Form.summary', () => {
  it('counts statuses, step reach and answers per question and option, in SQL', async () => {
    const { data, errors } = await run(FormSummaryDocument, { id: formA.id }, asKey(a));
    expect(errors).toBeUndefined();
    const summary = data!.form!.summary;
    expect(summary).toMatchObject({ total: 3, finished: 1, partial: 2, inProgress: 1, droppedOff: 1 });
    expect(summary.completionRate).toBeCloseTo(1 / 3);
    expect(summary.steps.map((s) => [s.name, s.reached])).toEqual([
      ['First', 3],
      ['Second', 1],
    ]);
    const [dropdown, disclaimer, options, short] = summary.questions;
    expect(dropdown).toMatchObject({ type: 'Dropdown', headline: 'Size?', answers: 3 });
    expect(dropdown!.options).toEqual([
      { option: 'S', count: 1 },
      { option: 'M', count: 2 },
      { option: 'L', count: 0 },
    ]);
    expect(disclaimer!.options).toEqual([
      { option: 'checked', count: 1 },
      { option: 'unchecked', count: 1 },
    ]);
    expect(options!.options).toEqual([
      { option: 'a', count: 1 },
      { option: 'b', count: 1 },
    ]);
    expect(short).toMatchObject({ type: 'ShortInput', answers: 1, options: null });
  });

  it('takes a date filter, and summarises nothing of another environment', async () => {
    const { data } = await run(FormSummaryDocument, { id: formA.id, filter: { since: '2026-01-01T09:30:00Z', until: '2026-01-02T00:00:00Z' } }, asKey(a));
    expect(data!.form!.summary).toMatchObject({ total: 1, finished: 1, partial: 0 });
    const foreign = await run(FormSummaryDocument, { id: formA.id }, asKey(b));
    expect(foreign.data!.form).toBeNull();
    const bad = await run(FormSummaryDocument, { id: formA.id, filter: { since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' } }, asKey(a));
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });
});
