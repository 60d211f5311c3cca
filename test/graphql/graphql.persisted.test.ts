/**
 * Persisted documents at /graphql, over yoga.fetch (and the app, whose direct POST path must answer the
 * same): the built-in operations by hash, automatic persisted queries, documents trusted with
 * trustGraphQLDocument and seen by another node, GRAPHQL_PERSISTED_ONLY with GraphiQL's exception, and
 * the limits applied to a document found by hash.
 */
import { createHash, randomUUID } from 'node:crypto';
import { print } from 'graphql';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/auth.service.ts';
import type { Config } from '../../src/config.ts';
import { FormResponsesPageDocument } from '../../src/graphql/generated/graphql.ts';
import { createGraphQLServer } from '../../src/graphql/yoga.ts';
import { createForm, insertTimeline } from '../support/factories.ts';
import { appWith, createTenant, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let formId: string;
let keyHolder: Principal;
const admin: Principal = { kind: 'admin' };
const anonymous: Principal = { kind: 'anonymous', offered: false };

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  keyHolder = { kind: 'apiKey', keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null };
  formId = (await createForm(ctx.db, tenant.environmentId)).id;
  await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId, count: 3 });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
/** A document no other test (or earlier run on the shared database) has sent: its alias is new. */
const freshDocument = () => `query Fresh { a${randomUUID().replaceAll('-', '')}: viewer { kind } }`;

type Graphql = Partial<Config['graphql']>;
/** A /graphql server (one node's) with these settings. */
const server = (graphql: Graphql = {}) => createGraphQLServer(pino({ level: 'silent' }), testConfig({ graphql: { ...testConfig().graphql, ...graphql } }));

/** POSTs `body` to `yoga` as `principal`; the status and the JSON body. */
async function post(yoga: ReturnType<typeof server>, body: unknown, principal: Principal, headers: Record<string, string> = {}) {
  const request = new Request('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const response = await yoga.fetch(request, { db: ctx.db, principal });
  return {
    status: response.status,
    body: (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] },
  };
}
const codes = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.map((error) => error.extensions?.code);

const listing = print(FormResponsesPageDocument);

describe('the operations of schema/operations/', () => {
  it('run by their hash alone, with the answer of their text', async () => {
    const yoga = server();
    const byText = await post(yoga, { query: listing, variables: { formId } }, keyHolder);
    const byHash = await post(yoga, { variables: { formId }, extensions: persisted(sha256(listing)) }, keyHolder);
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(byText.body);
    expect(byHash.body.data.formResponses.edges).toHaveLength(3);
  });

  it('are answered the same through the app (its direct POST path) and with GRAPHQL_PERSISTED_ONLY', async () => {
    const body = { variables: { formId }, extensions: persisted(sha256(listing)) };
    const direct = await ctx.app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify(body),
    });
    expect(direct.status).toBe(200);
    expect((await post(server(), body, keyHolder)).body).toEqual(await direct.json());
    const strict = appWith(ctx.db, { graphql: { ...testConfig().graphql, persistedOnly: true } });
    const strictAnswer = await strict.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify(body),
    });
    expect(strictAnswer.status).toBe(200);
    expect((await strictAnswer.json()).data.formResponses.edges).toHaveLength(3);
  });
});

describe('automatic persisted queries', () => {
  it('answer an unknown hash with PERSISTED_QUERY_NOT_FOUND (200), keep a document sent with its hash, then run it by hash', async () => {
    const yoga = server();
    const document = freshDocument();
    const hash = sha256(document);
    const unknown = await post(yoga, { extensions: persisted(hash) }, keyHolder);
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);

    const registered = await post(yoga, { query: document, extensions: persisted(hash) }, keyHolder);
    expect(registered.body).toEqual({ data: { [document.split(' ')[3]!.slice(0, -1)]: { kind: 'API_KEY' } } });
    const again = await post(yoga, { extensions: persisted(hash) }, keyHolder);
    expect(again.body).toEqual(registered.body);

    // Another node has not seen it: the client sends the text again there.
    expect(codes((await post(server(), { extensions: persisted(hash) }, keyHolder)).body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('refuse a document whose hash is not its own, and a hash that is not 64 hex digits, with 400', async () => {
    const yoga = server();
    const document = freshDocument();
    const mismatch = await post(yoga, { query: document, extensions: persisted(sha256(`${document} `)) }, keyHolder);
    expect(mismatch.status).toBe(400);
    expect(codes(mismatch.body)).toEqual(['PERSISTED_QUERY_HASH_MISMATCH']);
    // Nothing was kept under the wrong hash.
    expect(codes((await post(yoga, { extensions: persisted(sha256(`${document} `)) }, keyHolder)).body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);

    const malformed = await post(yoga, { extensions: persisted('ABC') }, keyHolder);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([
      {
        message: 'persistedQuery.sha256Hash must be 64 lowercase hexadecimal digits',
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ]);
  });

  it('leave a body with neither a document nor a hash to the usual 400', async () => {
    const answer = await post(server(), { variables: {} }, keyHolder);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ message: 'Must provide query string.', extensions: { code: 'BAD_REQUEST' } }]);
  });
});

describe('trusted documents', () => {
  const trust = (yoga: ReturnType<typeof server>, document: string, principal: Principal = admin) =>
    post(
      yoga,
      {
        query: 'mutation($d: String!) { trustGraphQLDocument(document: $d) { hash operationNames builtIn } }',
        variables: { d: document },
      },
      principal,
    );

  it('are trusted by the admin on every node: another server on the database runs one by hash', async () => {
    const document = freshDocument();
    const trusted = await trust(server(), document);
    expect(trusted.body).toEqual({
      data: { trustGraphQLDocument: { hash: sha256(document), operationNames: ['Fresh'], builtIn: false } },
    });
    expect((await trust(server(), document)).body).toEqual(trusted.body);

    const otherNode = server({ persistedOnly: true });
    const answer = await post(otherNode, { extensions: persisted(sha256(document)) }, keyHolder);
    expect(answer.status).toBe(200);
    expect(Object.values(answer.body.data)).toEqual([{ kind: 'API_KEY' }]);

    const listed = await post(server(), { query: '{ trustedGraphQLDocuments { hash builtIn operationNames } }' }, admin);
    const entries = listed.body.data.trustedGraphQLDocuments as {
      hash: string;
      builtIn: boolean;
      operationNames: string[];
    }[];
    expect(entries).toContainEqual({ hash: sha256(document), builtIn: false, operationNames: ['Fresh'] });
    expect(entries).toContainEqual({ hash: sha256(listing), builtIn: true, operationNames: ['FormResponsesPage'] });
  });

  it('must be valid against the schema, every problem named; only the admin token trusts', async () => {
    const invalid = await trust(server(), '{ nope viewer { nothing } }');
    expect(codes(invalid.body)).toEqual(['BAD_USER_INPUT']);
    expect(invalid.body.errors![0]).toMatchObject({
      message: 'Invalid GraphQL document',
      extensions: {
        errors: [
          { message: expect.stringMatching(/^Cannot query field "nope" on type "Query"\./), path: ['document'] },
          { message: 'Cannot query field "nothing" on type "Viewer".', path: ['document'] },
        ],
      },
    });
    expect(codes((await trust(server(), '{ viewer ')).body)).toEqual(['BAD_USER_INPUT']);
    expect(codes((await trust(server(), 'fragment F on Viewer { kind }')).body)).toEqual(['BAD_USER_INPUT']);
    expect(codes((await trust(server(), freshDocument(), keyHolder)).body)).toEqual(['FORBIDDEN']);
  });

  it('still meet every limit when run by hash', async () => {
    const deep = `query Deep${randomUUID().slice(0, 8)}($formId: ID!) { form(id: $formId) { steps { components { __typename } } } }`;
    await trust(server(), deep);
    const shallow = server({ maxDepth: 3 });
    const refused = await post(shallow, { variables: { formId }, extensions: persisted(sha256(deep)) }, keyHolder);
    expect(codes(refused.body)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
    const costly = await post(server({ maxCost: 10 }), { variables: { formId, first: 50 }, extensions: persisted(sha256(listing)) }, keyHolder);
    expect(codes(costly.body)).toEqual(['GRAPHQL_COST_LIMIT']);
  });
});

describe('GRAPHQL_PERSISTED_ONLY', () => {
  const strict = (graphiqlAdHoc = true) => server({ persistedOnly: true, graphiqlAdHoc });
  const graphiql = { 'sec-fetch-site': 'same-origin' };

  it('refuses a document sent as text with 400, also with its hash (nothing registers itself)', async () => {
    const yoga = strict();
    const document = freshDocument();
    for (const body of [{ query: document }, { query: document, extensions: persisted(sha256(document)) }]) {
      const refused = await post(yoga, body, keyHolder);
      expect(refused.status).toBe(400);
      expect(codes(refused.body)).toEqual(['PERSISTED_QUERY_ONLY']);
    }
    const unknown = await post(yoga, { extensions: persisted(sha256(document)) }, keyHolder);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ message: 'No trusted document has this sha256Hash', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }]);
  });

  it("lets GraphiQL's page run documents with a key or the admin token, and introspect without one", async () => {
    const yoga = strict();
    expect((await post(yoga, { query: '{ viewer { kind } }' }, keyHolder, graphiql)).body).toEqual({
      data: { viewer: { kind: 'API_KEY' } },
    });
    expect((await post(yoga, { query: '{ viewer { kind } }' }, admin, graphiql)).body).toEqual({
      data: { viewer: { kind: 'ADMIN' } },
    });
    const schema = await post(yoga, { query: '{ __schema { queryType { name } } }' }, anonymous, graphiql);
    expect(schema.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    const mixed = await post(yoga, { query: '{ __typename viewer { kind } }' }, anonymous, graphiql);
    expect(mixed.body.data).toBeUndefined();
    expect(codes(mixed.body)).toEqual(['PERSISTED_QUERY_ONLY']);
    // Not from the page (another site's request, or a client without the header): refused.
    expect(codes((await post(yoga, { query: '{ viewer { kind } }' }, keyHolder, { 'sec-fetch-site': 'cross-site' })).body)).toEqual(['PERSISTED_QUERY_ONLY']);
  });

  it('with GRAPHQL_PERSISTED_ONLY_GRAPHIQL=0 refuses GraphiQL too', async () => {
    const refused = await post(strict(false), { query: '{ viewer { kind } }' }, admin, graphiql);
    expect(refused.status).toBe(400);
    expect(codes(refused.body)).toEqual(['PERSISTED_QUERY_ONLY']);
  });
});

describe('documents sent as text', () => {
  it('are judged afresh per request where the request matters: the cost with its variables, errors each time', async () => {
    const yoga = server({ maxCost: 100 });
    const within = await post(yoga, { query: listing, variables: { formId, first: 2 } }, keyHolder);
    expect(within.body.errors).toBeUndefined();
    const over = await post(yoga, { query: listing, variables: { formId, first: 100 } }, keyHolder);
    expect(codes(over.body)).toEqual(['GRAPHQL_COST_LIMIT']);
    const invalid = '{ viewer { nothing } }';
    const first = await post(yoga, { query: invalid }, keyHolder);
    expect(codes(first.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect((await post(yoga, { query: invalid }, keyHolder)).body).toEqual(first.body);
    const deep = `{ viewer ${'{ kind '.repeat(300)}${'}'.repeat(300)} }`;
    for (let i = 0; i < 2; i++) expect(codes((await post(yoga, { query: deep }, keyHolder)).body)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
  });
});
