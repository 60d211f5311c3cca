/**
 * src/graphql/http.ts answers a POST of JSON parameters itself and hands the rest to yoga.fetch: every
 * request here is answered by the app exactly as yoga.fetch answers it (status, media type, body),
 * whichever path it takes.
 */
import { createHash } from 'node:crypto';
import { print } from 'graphql';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';
import { FormResponsesPageDocument } from '../../src/graphql/generated/graphql.ts';
import { createGraphQLServer } from '../../src/graphql/yoga.ts';
import type { Principal } from '../../src/auth/auth.service.ts';

let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
});

const listing = 'query Page($formId: ID!, $first: Int) { formResponses(formId: $formId, first: $first) { edges { node { id } } pageInfo { hasNextPage } } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const json = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

/** Requests by what they exercise; each is a POST to /graphql unless it says otherwise. */
function cases(formId: string): Record<string, { method?: string; path?: string; headers?: Record<string, string>; body?: unknown }> {
  const page = { query: listing, variables: { formId } };
  return {
    'a listing': { body: page },
    'an operation name': { body: { ...page, operationName: 'Page', variables: { formId, first: 2 } } },
    'an unknown operation name': { body: { ...page, operationName: 'Nope' } },
    'a numeric operation name': { body: { ...page, operationName: 5 } },
    'a null parameter': { body: { ...page, extensions: null, other: null } },
    'a syntax error': { body: { query: '{ formResponses(' } },
    'an unknown field': { body: { query: '{ nope }' } },
    'a variable of the wrong type': { body: { ...page, variables: { formId, first: 'x' } } },
    'a missing variable': { body: { query: listing } },
    'over the cost limit': { body: { query: `{ ${Array.from({ length: 12 }, (_, i) => `l${i}: environmentResponses(first: 100) { edges { node { id } } }`).join(' ')} }` } },
    'a NUL in a variable': { body: { ...page, variables: { formId: 'a\u0000' } } },
    'a form of another environment': { body: { ...page, variables: { formId: 'nope' } } },
    'a mutation that fails': { body: { query: 'mutation { deleteWebhookEndpoint(id: "nope") { id } }' } },
    'invalid JSON': { body: '{"query": ' },
    'a byte order mark': { body: `\ufeff${json({ query: '{ __typename }' })}` },
    'an empty body': { body: '' },
    null: { body: 'null' },
    'a batch': { body: [{ query: '{ __typename }' }] },
    'no query': { body: { variables: {} } },
    'a built-in document by hash': { body: { variables: { formId }, extensions: persisted(sha256(print(FormResponsesPageDocument))) } },
    'an unknown hash': { body: { extensions: persisted(sha256('{ nope }')) } },
    'a hash that is not hex': { body: { extensions: persisted('nope') } },
    'a document with the wrong hash': { body: { query: '{ __typename }', extensions: persisted(sha256('{ other }')) } },
    'a null query and a hash': { body: { query: null, extensions: persisted(sha256(print(FormResponsesPageDocument))), variables: { formId } } },
    'a numeric query': { body: { query: 5 } },
    'an unexpected parameter': { body: { query: '{ __typename }', foo: 1 } },
    'variables as a list': { body: { query: '{ __typename }', variables: [] } },
    'extensions as a string': { body: { query: '{ __typename }', extensions: 'x' } },
    'Accept: application/graphql-response+json': { headers: { accept: 'application/graphql-response+json' }, body: { query: '{ nope }' } },
    'Accept: both JSON types': { headers: { accept: 'application/graphql-response+json, application/json;q=0.9' }, body: { query: '{ nope }' } },
    'Accept: another charset': { headers: { accept: 'application/json; charset=latin1' }, body: { query: '{ __typename }' } },
    'Accept: text/html': { headers: { accept: 'text/html' }, body: { query: '{ __typename }' } },
    'Accept: multipart/mixed': { headers: { accept: 'multipart/mixed' }, body: { query: '{ __typename }' } },
    'Content-Type with a charset': { headers: { 'content-type': 'application/json; charset=utf-8' }, body: { query: '{ __typename }' } },
    'Content-Type application/graphql+json': { headers: { 'content-type': 'application/graphql+json' }, body: { query: '{ __typename }' } },
    'Content-Type application/graphql': { headers: { 'content-type': 'application/graphql' }, body: '{ __typename }' },
    'a URL ending in /health': { path: '/graphql?x=/health', body: { query: '{ __typename }' } },
    GET: { method: 'GET', path: '/graphql?query=%7B__typename%7D' },
    'a mutation by GET': { method: 'GET', path: '/graphql?query=mutation%7B__typename%7D' },
  };
}

describe('POST /graphql answered directly', () => {
  it('answers every request as yoga.fetch does', async () => {
    const yoga = createGraphQLServer(pino({ level: 'silent' }), testConfig());
    const principals: [Record<string, string>, Principal][] = [
      [{}, { kind: 'anonymous', offered: false }],
      [{ 'x-api-key': tenant.apiKey }, { kind: 'apiKey', keyId: tenant.apiKeyId, environmentId: tenant.environmentId, scopes: null, expiresAt: null, formIds: null }],
      [{ authorization: `Bearer ${ADMIN_TOKEN}` }, { kind: 'admin' }],
    ];
    for (const [credentials, principal] of principals) {
      for (const [name, { method = 'POST', path = '/graphql', headers = {}, body }] of Object.entries(cases(tenant.templateId))) {
        const init = () => ({ method, headers: { 'content-type': 'application/json', ...credentials, ...headers }, body: body === undefined ? undefined : json(body) });
        const answer = async (response: Response) => [response.status, response.headers.get('content-type'), await response.text()];
        const viaApp = await answer(await ctx.app.request(path, init()));
        const viaYoga = await answer(await yoga.fetch(new Request(`http://localhost${path}`, init()), { db: ctx.db, principal }));
        expect(viaApp, `${principal.kind}: ${name}`).toEqual(viaYoga);
      }
    }
  });
});
