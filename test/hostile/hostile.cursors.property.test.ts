/**
 * Property-based, as test/hostile/hostile.property.test.ts: cursors, GraphQL request envelopes and node ids,
 * generated hostile. For each request the checks of test/support/hostile-checks.ts (never a 5xx, the documented
 * body, nothing leaked, nothing stored by a refusal), and:
 * - a cursor is refused only as itself: a listing answers 200, or 400 / BAD_USER_INPUT at `after`;
 * - `variables`, `extensions`, `query` and `operationName` in a GET's URL or a form-encoded POST are
 *   answered as in a JSON body: a GraphQL error with a code, never a masked internal one;
 * - `node(id:)`/`nodes(ids:)` answer null for ids that are no object's, or refuse them as BAD_USER_INPUT.
 * Runs per property: HOSTILE_RUNS (default 40).
 */
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect } from 'vitest';
import { createEndpoint } from '../../src/events/webhooks.service.ts';
import { HOSTILE_OPTIONS, cursorTimestamp, hostileString, hostileValue, sendHostile, type Answer } from '../support/hostile-checks.ts';
import { createLead, insertResponse } from '../support/factories.ts';
import { appWith, createTenant, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

const options = HOSTILE_OPTIONS;

let ctx: TestContext;
let target: { db: TestContext['db']; app: TestContext['app'] };
let tenant: TestTenant;
let formId: string;
let leadId: string;
let endpointId: string;
/** A cursor a listing wrote (the environment's newest response). */
let realCursor: string;

beforeAll(async () => {
  // Row counts must see this file's writes only.
  ctx = await setupIsolatedTestApp();
  // The handlers, not the rate limits, are under test here (the limits have tests of their own).
  const app = appWith(ctx.db, {
    apiRateLimitPerMinute: 0,
    authFailureLimitPerMinute: 0,
    anonymousRateLimitPerMinute: 0,
    webhooks: { ...testConfig().webhooks, allowPrivate: true },
  });
  target = { db: ctx.db, app };
  tenant = await createTenant(ctx.db);
  formId = (
    await makeForm(ctx.db, tenant, [
      { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
      { name: 'B', components: [{ type: 'Header', content: { title: 'T' } }] },
    ])
  ).id;
  leadId = (await createLead(ctx.db, tenant.environmentId, 'ada@example.com')).id;
  for (let i = 0; i < 3; i++)
    await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId, leadId, finished: true, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) });
  endpointId = (await createEndpoint(ctx.db, tenant.environmentId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['response.created'] }, { allowPrivate: true })).endpoint.id;
  const page = await app.request('/api/v1/responses?limit=1', { headers: key() });
  realCursor = ((await page.json()) as { nextCursor: string }).nextCursor;
});

const key = () => ({ 'x-api-key': tenant.apiKey });
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** A query parameter value as a client writes it: its UTF-8 bytes percent-encoded (an unpaired surrogate is U+FFFD). */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

// ---------------------------------------------------------------- generators

/**
 * Cursors: positions with hostile fields (dates that may not exist, ids of any text or type, keys
 * missing or added), any JSON, raw hostile text, and a real cursor with one character changed.
 */
const hostileCursor = fc.oneof(
  fc
    .record({ createdAt: fc.oneof(cursorTimestamp, hostileString, hostileValue), id: fc.oneof(hostileString, hostileValue), extra: hostileValue }, { requiredKeys: [] })
    .map((position) => base64url(JSON.stringify(position))),
  fc.record({ createdAt: cursorTimestamp, id: hostileString }).map((position) => base64url(JSON.stringify(position))),
  hostileValue.map((value) => base64url(JSON.stringify(value) ?? '')),
  hostileString,
  fc.tuple(fc.nat(), fc.constantFrom(...'AZaz09-_=+/.%')).map(([at, ch]) => {
    const i = at % realCursor.length;
    return realCursor.slice(0, i) + ch + realCursor.slice(i + 1);
  }),
);

/** Text for a JSON parameter of a URL: JSON of hostile values, text that is barely JSON, or anything. */
const jsonParameterText = fc.oneof(
  hostileValue.map((value) => JSON.stringify(value) ?? ''),
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '"str"', '{"n":1}', `${'['.repeat(5000)}`, `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`, "{'a':1}", 'NaN', '1e309'),
  hostileString,
);

// ---------------------------------------------------------------- properties

describe('cursors', () => {
  /** Listings with an `after` parameter, and the parameters besides it. */
  const listing = fc.constantFrom(
    '/api/v1/responses?',
    `/api/v1/responses?formId=FORM&`,
    '/api/v1/responses?limit=5&',
    '/api/v1/responses?returnPartials=true&limit=100&',
    '/api/v1/audit-log?',
  );
  /** 200, or the documented 400 for `after` alone (a NUL in any parameter is refused at the edge, the same way). */
  const expectAnsweredOrAfterRefused = ({ status, body, label }: Answer) => {
    expect([200, 400], label).toContain(status);
    if (status === 400) expect(body, label).toEqual({ message: 'Invalid query parameters', errors: [{ message: expect.any(String), path: ['after'] }] });
  };

  test.prop([listing, hostileCursor], options)('REST listings: 200, or 400 for `after` alone', async (path, cursor) => {
    expectAnsweredOrAfterRefused(await sendHostile(target, `${path.replace('FORM', formId)}after=${percentEncoded(cursor)}`, { headers: key() }, 'json'));
  });

  test.prop([fc.constantFrom('export', 'deliveries'), hostileCursor], options)(
    'the export and webhook deliveries take no cursor: `after` is answered like any unknown parameter',
    async (which, cursor) => {
      const path = which === 'export' ? `/api/v1/responses/export?formId=${formId}&after=` : `/api/v1/webhooks/${endpointId}/deliveries?after=`;
      expectAnsweredOrAfterRefused(await sendHostile(target, path + percentEncoded(cursor), { headers: key() }, which === 'export' ? 'text' : 'json'));
    },
  );

  const connections = () => [
    `query($a: String) { environment(id: "${tenant.environmentId}") { forms(after: $a) { edges { cursor } } leads(after: $a) { edges { cursor } } } }`,
    `query($a: String) { environment(id: "${tenant.environmentId}") { responses(after: $a) { edges { cursor } } } }`,
    `query($a: String) { form(id: "${formId}") { responses(after: $a) { edges { cursor } } generatedForms(after: $a) { edges { cursor } } } }`,
    `query($a: String) { node(id: "${leadId}") { ... on Lead { responses(after: $a) { edges { cursor } } } } }`,
    'query($a: String) { auditLog(after: $a) { edges { cursor } } }',
    'query($a: String) { environmentResponses(after: $a) { edges { cursor } } }',
    `query($a: String) { formResponses(formId: "${formId}", after: $a) { edges { cursor } } }`,
  ];
  test.prop([fc.nat(), hostileCursor], options)('GraphQL connections: data, or BAD_USER_INPUT for the cursor alone', async (pick, cursor) => {
    const all = connections();
    const query = all[pick % all.length]!;
    const init = { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { a: cursor } }) };
    const { body, label } = await sendHostile(target, '/graphql', init, 'graphql');
    for (const error of (body as { errors?: { extensions: { code: string; errors?: { path: unknown[] }[] } }[] }).errors ?? []) {
      expect(error.extensions.code, label).toBe('BAD_USER_INPUT');
      // The cursor is `after`, or the variable `$a` that carries it (NUL and unpaired surrogates are refused in any variable).
      for (const problem of error.extensions.errors ?? []) expect([['after'], ['a']], label).toContainEqual(problem.path);
    }
  });
});

describe('GraphQL request envelopes', () => {
  const QUERIES = [
    'query($n: Int) { environmentResponses(first: $n) { edges { cursor } } }',
    'query Named($id: ID!) { form(id: $id) { id } }',
    'mutation { deleteForm(id: "x") { id } }',
    '{ __schema { queryType { name } } }',
    '{ __typename }',
  ];
  const envelope = fc.record(
    {
      query: fc.oneof(fc.constantFrom(...QUERIES), hostileString),
      variables: jsonParameterText,
      extensions: jsonParameterText,
      operationName: fc.oneof(fc.constantFrom('Named', 'Nope'), hostileString),
    },
    { requiredKeys: [] },
  );
  test.prop([envelope, fc.constantFrom('GET', 'form POST'), fc.boolean()], options)(
    'GET and form-encoded parameters: a coded GraphQL error, never a masked one',
    async (params, how, withKey) => {
      const search = new URLSearchParams(params).toString();
      const headers: Record<string, string> = { accept: 'application/json', ...(withKey ? key() : {}) };
      if (how === 'GET') await sendHostile(target, `/graphql?${search}`, { headers }, 'graphql');
      else await sendHostile(target, '/graphql', { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: search }, 'graphql');
    },
  );

  test.prop([fc.constantFrom(...QUERIES), hostileValue, hostileValue], options)('JSON bodies: variables and extensions of any type', async (query, variables, extensions) => {
    const init = { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: JSON.stringify({ query, variables, extensions }) };
    await sendHostile(target, '/graphql', init, 'graphql');
  });
});

describe('node ids', () => {
  test.prop([hostileString, fc.array(hostileString, { maxLength: 5 })], options)('node(id:) and nodes(ids:): null for what is no object, or BAD_USER_INPUT', async (id, ids) => {
    const query = 'query($id: ID!, $ids: [ID!]!) { node(id: $id) { __typename id } nodes(ids: $ids) { id } }';
    const init = { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { id, ids } }) };
    const { body, label } = await sendHostile(target, '/graphql', init, 'graphql');
    const { data, errors } = body as { data?: { node: unknown; nodes: unknown[] }; errors?: { extensions: { code: string } }[] };
    if (errors) for (const error of errors) expect(error.extensions.code, label).toBe('BAD_USER_INPUT');
    else expect(data, label).toEqual({ node: null, nodes: ids.map(() => null) });
  });
});
