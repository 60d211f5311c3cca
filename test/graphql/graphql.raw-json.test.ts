/**
 * /graphql writes answers and metadata as the database's JSON text (graphql/raw-json.ts): the same
 * JSON as parsing them and writing them again, whatever the text holds, and in-process operations
 * still read objects.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RawJson, stringifyResult } from '../../src/graphql/raw-json.ts';
import { runOperation } from '../../src/graphql/execute.ts';
import { FormResponsesPageDocument } from '../../src/graphql/generated/graphql.ts';
import { createTenant, graphql, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { createForm, insertResponse, sampleAnswers } from '../support/factories.ts';

afterEach(() => vi.restoreAllMocks());

describe('stringifyResult', () => {
  it('writes each RawJson text in its place, as JSON.stringify writes the parsed value', () => {
    const texts = ['[1,{"b":"c\\"d"}]', '{}', '"x"', 'null', '{"nested":{"deep":[true,false]}}'];
    const value = { a: new RawJson(texts[0]!), list: [new RawJson(texts[1]!), new RawJson(texts[2]!)], n: new RawJson(texts[3]!), o: { p: new RawJson(texts[4]!) }, s: 'plain' };
    const parsed = { a: JSON.parse(texts[0]!), list: [{}, 'x'], n: null, o: { p: JSON.parse(texts[4]!) }, s: 'plain' };
    expect(stringifyResult(value)).toBe(JSON.stringify(parsed));
  });

  it('leaves strings that look like placeholders alone', () => {
    const lookalikes = ['\u0000raw-json:guess:0', '\\u0000raw-json:guess:0', '"\u0000raw-json:', 'raw-json:0'];
    const value = { lookalikes, raw: new RawJson('[0]') };
    expect(stringifyResult(value)).toBe(JSON.stringify({ lookalikes, raw: [0] }));
  });

  it('is the parsed value for any other writer', () => {
    expect(JSON.stringify({ a: new RawJson('{"b":[1,2]}') })).toBe('{"a":{"b":[1,2]}}');
  });
});

describe('/graphql listings', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let formId: string;
  const tricky = [
    ...sampleAnswers(),
    { questionId: 'q-tricky', response: { type: 'ShortInput', headline: 'Quotes " \\ and \u2028', input: '"\u0000raw-json:x:0" \\u0000 {"a": 1} \u00e9\u{1f600}' } },
  ];

  beforeAll(async () => {
    ctx = await setupTestApp();
    tenant = await createTenant(ctx.db);
    formId = (await createForm(ctx.db, tenant.environmentId)).id;
    // U+0000 itself cannot be stored; its escaped text and everything else can.
    tricky[tricky.length - 1]!.response.input = String(tricky.at(-1)!.response.input).replace('\u0000', '');
    await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId, data: tricky, meta: { source: 'api', userAgent: 'ua "q" \\', leadId: 'stored' } });
    await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId, data: [], meta: {} });
  });

  const query = /* GraphQL */ `
    query ($formId: ID!) {
      formResponses(formId: $formId, first: 10) { edges { node { id leadId createdAt rawData meta data { questionId response } } } }
    }
  `;

  it('splices the answers and metadata as text, and the answer equals the parsed objects', async () => {
    const toJSON = vi.spyOn(RawJson.prototype, 'toJSON');
    const response = await ctx.app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({ query, variables: { formId } }),
    });
    const body = await response.text();
    expect(response.status).toBe(200);
    // Written as JSON.stringify writes it: compact, the same bytes as parsing and writing it again.
    expect(body).toBe(JSON.stringify(JSON.parse(body)));
    // Every RawJson went through the splice (a placeholder), none through the parsing fallback.
    expect(toJSON.mock.results.length).toBe(4);
    for (const result of toJSON.mock.results) expect(String(result.value)).toMatch(/^\0raw-json:/);

    const nodes = (JSON.parse(body) as { data: { formResponses: { edges: { node: Record<string, unknown> }[] } } }).data.formResponses.edges.map((e) => e.node);
    const [first, second] = nodes;
    expect(second!.rawData).toEqual(tricky);
    expect(second!.data).toEqual(tricky.map(({ questionId, response }) => ({ questionId, response })));
    // `leadId` is the column's, in the place the stored metadata had it (jsonb orders keys by length, then bytes).
    expect(second!.meta).toEqual({ source: 'api', userAgent: 'ua "q" \\', leadId: second!.leadId });
    expect(Object.keys(second!.meta as object)).toEqual(['leadId', 'source', 'userAgent']);
    expect(first!.rawData).toEqual([]);
    expect(first!.meta).toEqual({ leadId: first!.leadId });

    // The same page as an in-process operation: objects, not RawJson, and the same JSON.
    const operation = await runOperation(
      FormResponsesPageDocument,
      { formId, first: 10 },
      {
        db: ctx.db,
        principal: { kind: 'apiKey', keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null },
        dropOffMs: 86_400_000,
        webhookRules: { allowPrivate: false },
      },
    );
    const inProcess = operation.data!.formResponses.edges.map((e) => e.node);
    expect(inProcess[1]!.data).toEqual(tricky);
    expect(inProcess.every((node) => !(node.data instanceof RawJson) && !(node.meta instanceof RawJson))).toBe(true);
    expect(inProcess.map((node) => JSON.stringify([node.data, node.meta]))).toEqual(nodes.map((node) => JSON.stringify([node.rawData, node.meta])));
  });

  it('answers the same through graphql-js (first run) and graphql-jit (later runs)', async () => {
    const first = await graphql(ctx.app, query, { formId }, { 'x-api-key': tenant.apiKey });
    const again = await graphql(ctx.app, query, { formId }, { 'x-api-key': tenant.apiKey });
    expect(again).toEqual(first);
  });
});
