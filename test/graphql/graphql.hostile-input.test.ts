/**
 * Hostile input through /graphql: NUL characters, unpaired surrogates, deep nesting, out-of-range
 * numbers, wrong types, empty and huge strings, in variables and in literals, for every mutation and
 * the responses queries. Each is a BAD_USER_INPUT error naming the variable or argument (or, for a
 * document graphql-js cannot read, GRAPHQL_PARSE_FAILED), never an internal error, and nothing is stored.
 */
import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, environments, forms } from '../../src/db/schema.ts';
import { ADMIN_TOKEN, createTenant, graphql, setupIsolatedTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  ctx = await setupIsolatedTestApp(); // counts rows: no other file may write here
  tenant = await createTenant(ctx.db);
});

/** Every GraphQL entry point that takes a string, with `$v` where the hostile string goes. */
const operations = () => {
  const key = { 'x-api-key': tenant.apiKey };
  const steps = JSON.stringify(validBody(tenant.templateId).steps).replace(/"(\w+)":/g, '$1:');
  return [
    { name: 'createEnvironment', headers: admin, query: 'mutation($v: String!) { createEnvironment(input: {name: $v}) { id } }' },
    { name: 'createApiKey', headers: admin, query: `mutation($v: String!) { createApiKey(input: {environmentId: "${tenant.environmentId}", name: $v}) { key } }` },
    { name: 'revokeApiKey', headers: admin, query: 'mutation($v: ID!) { revokeApiKey(id: $v) { id } }' },
    { name: 'deleteForm', headers: key, query: 'mutation($v: ID!) { deleteForm(id: $v) { id } }' },
    { name: 'importForm', headers: key, query: `mutation($v: String!) { importForm(input: {environmentId: "${tenant.environmentId}", name: $v, steps: ${steps}}) { id } }` },
    {
      name: 'generateForm',
      headers: key,
      query: `mutation($v: String!) { generateForm(environmentId: "${tenant.environmentId}", input: {sourceFormId: "${tenant.templateId}", name: $v, steps: ${steps}}) { success } }`,
    },
    { name: 'form', headers: key, query: 'query($v: ID!) { form(id: $v) { id } }' },
    { name: 'formResponses', headers: key, query: 'query($v: ID!) { formResponses(formId: $v) { edges { cursor } } }' },
    { name: 'environmentResponses', headers: key, query: 'query($v: String) { environmentResponses(after: $v) { edges { cursor } } }' },
  ];
};

const HOSTILE_STRINGS = [
  { kind: 'a NUL character', value: 'a\u0000b', problem: 'must not contain NUL' },
  { kind: 'an unpaired surrogate', value: 'a\ud800b', problem: 'must be well-formed Unicode' },
];

async function stored() {
  const [[e], [f], [k]] = await Promise.all([
    ctx.db.select({ n: count() }).from(environments),
    ctx.db.select({ n: count() }).from(forms),
    ctx.db.select({ n: count() }).from(apiKeys),
  ]);
  return { environments: e!.n, forms: f!.n, apiKeys: k!.n };
}

/** Nothing in a body that comes from the engine: no stack, SQL, file path or masked internal error. */
function expectNoLeak(body: unknown) {
  const text = JSON.stringify(body);
  for (const leak of ['INTERNAL_SERVER_ERROR', 'Unexpected error', 'Maximum call stack', 'node_modules', '/src/', '    at ', 'select ', 'insert ', 'postgres', 'PGlite']) {
    expect(text).not.toContain(leak);
  }
}

async function expectRefused(query: string, variables: Record<string, unknown>, headers: Record<string, string>, code: string, naming: string) {
  const { body } = await graphql(ctx.app, query, variables, headers);
  expectNoLeak(body);
  expect(body.errors?.[0]?.extensions?.code, JSON.stringify(body)).toBe(code);
  expect(body.errors![0].message).toContain(naming);
  return body;
}

describe('hostile strings', () => {
  for (const { kind, value, problem } of HOSTILE_STRINGS) {
    it(`refuses ${kind} in a variable of every operation, naming the variable, storing nothing`, async () => {
      const before = await stored();
      for (const operation of operations()) {
        const body = await expectRefused(operation.query, { v: value }, operation.headers, 'BAD_USER_INPUT', 'Variable "$v"');
        expect(body.errors![0].message, operation.name).toContain(problem);
        expect(body.errors![0].extensions.errors).toEqual([{ message: body.errors![0].message, path: ['v'] }]);
      }
      expect(await stored()).toEqual(before);
    });
  }

  it('refuses a NUL character written into the document of every operation, naming the argument and where in it', async () => {
    const before = await stored();
    for (const operation of operations()) {
      const inline = operation.query.replace(/^(mutation|query)\(\$v: \w+!?\)/, '$1').replace('$v', '"a\\u0000b"');
      const body = await expectRefused(inline, {}, operation.headers, 'BAD_USER_INPUT', 'Argument "');
      expect(body.errors![0].message).toContain('must not contain NUL');
    }
    const nested = await expectRefused(
      'mutation { createEnvironment(input: {name: "a\\u0000b"}) { id } }',
      {},
      admin,
      'BAD_USER_INPUT',
      'Argument "input" of "createEnvironment" at ["name"]',
    );
    expect(nested.errors![0].extensions.errors[0].path).toEqual(['input', 'name']);
    expect(await stored()).toEqual(before);
  });

  it('refuses NUL in a JSON key, in a variable or a literal', async () => {
    const query = `mutation($c: JSON!) { importForm(input: {environmentId: "${tenant.environmentId}", name: "x", steps: [{name: "s", components: [{type: "Header", content: $c}]}]}) { id } }`;
    const viaVariable = await expectRefused(query, { c: { 'title\u0000': 'x' } }, admin, 'BAD_USER_INPUT', 'Variable "$c"');
    expect(viaVariable.errors![0].message).toContain('key must not contain NUL');
    await expectRefused(query.replace('($c: JSON!)', '').replace('$c', '{title: "\\u0000"}'), {}, admin, 'BAD_USER_INPUT', 'Argument "input" of "importForm"');
  });

  it('answers an unpaired surrogate written into the document as a parse failure (graphql-js refuses the escape)', async () => {
    const escaped = await graphql(ctx.app, 'mutation { createEnvironment(input: {name: "a\\ud800b"}) { id } }', {}, admin);
    expect(escaped.body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const raw = await graphql(ctx.app, 'mutation { createEnvironment(input: {name: "a\ud800b"}) { id } }', {}, admin);
    expect(raw.body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expectNoLeak([escaped.body, raw.body]);
  });
});

describe('deep nesting', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const literal = (depth: number) => `${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`;
  const importWith = (content: string) =>
    `mutation${content.startsWith('$') ? '($c: JSON!)' : ''} { importForm(input: {environmentId: "${tenant.environmentId}", name: "x", steps: [{name: "s", components: [{type: "Header", content: {deep: ${content}}}]}]}) { id } }`;

  it('refuses a variable nested deeper than MAX_JSON_DEPTH (32) at any depth, naming the variable and the path', async () => {
    const before = await stored();
    for (const depth of [33, 10_000]) {
      // Written as text: JSON.stringify itself overflows the stack on 10,000 levels.
      const text = `{"query": ${JSON.stringify(importWith('$c'))}, "variables": {"c": ${literal(depth)}}}`;
      const response = await ctx.app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: text });
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string; errors: { path: unknown[] }[] } }[] };
      expectNoLeak(body);
      expect(body.errors[0]!.extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0]!.message).toMatch(/^Variable "\$c" at \[0,0,.*\] nests arrays\/objects deeper than 32 levels$/);
      expect(body.errors[0]!.extensions.errors[0]!.path).toEqual(['c', ...Array(32).fill(0)]);
    }
    expect(await stored()).toEqual(before);
    // 32 levels are fine.
    const { body } = await graphql(ctx.app, importWith('$c'), { c: nested(32) }, admin);
    expect(body.errors).toBeUndefined();
  });

  it('refuses a literal nested deeper than MAX_JSON_DEPTH, and one deep enough to overflow the parser, naming the argument', async () => {
    const before = await stored();
    const shallow = await expectRefused(importWith(literal(30)), {}, admin, 'BAD_USER_INPUT', 'Argument "input" of "importForm" at ["steps",0,"components",0,"content","deep",0,');
    expect(shallow.errors![0].message).toContain('deeper than 32 levels');
    for (const depth of [2_000, 50_000]) await expectRefused(importWith(literal(depth)), {}, admin, 'BAD_USER_INPUT', 'Argument "input"');
    // A variable's default value too.
    await expectRefused(`query($c: JSON = ${literal(40)}) { __typename }`, {}, admin, 'BAD_USER_INPUT', 'Default value of variable "$c"');
    expect(await stored()).toEqual(before);
  });

  it('refuses a document nesting selections deeper than the parser can take as a depth-limit refusal', async () => {
    const { body } = await graphql(ctx.app, `${'{ a '.repeat(5_000)}${'}'.repeat(5_000)}`, {}, admin);
    expectNoLeak(body);
    expect(body.errors![0].extensions.code).toBe('GRAPHQL_DEPTH_LIMIT');
  });
});

describe('numbers, types, empty and huge strings', () => {
  const listing = (first: string) =>
    `query($f: Int) { environmentResponses(first: ${first}) { edges { cursor } } }`.replace('query($f: Int)', first === '$f' ? 'query($f: Int)' : 'query');
  const key = () => ({ 'x-api-key': tenant.apiKey });

  it('refuses out-of-range and wrongly typed numbers, in literals and variables, naming the argument or variable', async () => {
    await expectRefused(listing('2147483648'), {}, key(), 'BAD_USER_INPUT', 'Argument "first" of "environmentResponses"');
    await expectRefused(listing('"ten"'), {}, key(), 'BAD_USER_INPUT', 'Argument "first" of "environmentResponses"');
    await expectRefused(listing('$f'), { f: 2 ** 31 }, key(), 'BAD_USER_INPUT', 'Variable "$f"');
    await expectRefused(listing('$f'), { f: 1e300 }, key(), 'BAD_USER_INPUT', 'Variable "$f"');
    await expectRefused(listing('$f'), { f: 'ten' }, key(), 'BAD_USER_INPUT', 'Variable "$f"');
    await expectRefused(listing('$f'), { f: 1000 }, key(), 'BAD_USER_INPUT', 'Invalid arguments');
    await expectRefused(
      'query($s: DateTime) { environmentResponses(filter: {since: $s}) { edges { cursor } } }',
      { s: '99999-01-01T00:00:00Z' },
      key(),
      'BAD_USER_INPUT',
      'Variable "$s"',
    );
    await expectRefused('query { environmentResponses(filter: {since: "yesterday"}) { edges { cursor } } }', {}, key(), 'BAD_USER_INPUT', 'Argument "filter"');
  });

  it('refuses empty and huge strings with BAD_USER_INPUT, storing nothing', async () => {
    const before = await stored();
    const create = 'mutation($v: String!) { createEnvironment(input: {name: $v}) { id } }';
    await expectRefused(create, { v: '' }, admin, 'BAD_USER_INPUT', 'Invalid input');
    await expectRefused(create, { v: 'x'.repeat(500_000) }, admin, 'BAD_USER_INPUT', 'Invalid input');
    await expectRefused(create, { v: null }, admin, 'BAD_USER_INPUT', 'Variable "$v"');
    await expectRefused(create, {}, admin, 'BAD_USER_INPUT', 'Variable "$v"');
    expect(await stored()).toEqual(before);
  });
});

describe('request envelopes', () => {
  /** The answer to a raw request to /graphql, checked for leaks. */
  async function send(path: string, init: RequestInit = {}) {
    const response = await ctx.app.request(path, { ...init, headers: { 'x-api-key': tenant.apiKey, accept: 'application/json', ...init.headers } });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
    expectNoLeak(body);
    return { status: response.status, body };
  }
  const query = encodeURIComponent('query($n: Int) { environmentResponses(first: $n) { edges { cursor } } }');

  it('refuses variables or extensions that are not JSON, in a GET or a form-encoded POST, with a 400 naming the parameter', async () => {
    for (const name of ['variables', 'extensions']) {
      for (const text of ['not-json', '{', '{"n":', "{'n':1}", 'undefined', '[1,', '\u00a0']) {
        const search = `query=${query}&${name}=${encodeURIComponent(text)}`;
        for (const { status, body } of [
          await send(`/graphql?${search}`),
          await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: search }),
        ]) {
          expect(status, `${name}=${text}`).toBe(400);
          expect(body.errors, `${name}=${text}`).toEqual([
            { message: `The "${name}" parameter must be a JSON object; it is not valid JSON.`, extensions: { code: 'BAD_REQUEST' } },
          ]);
        }
      }
    }
  });

  it('refuses variables or extensions that are JSON but not an object, in a URL, a form or a JSON body, with a 400', async () => {
    for (const name of ['variables', 'extensions']) {
      for (const value of [5, 'x', [], [1], true]) {
        const search = `query=${query}&${name}=${encodeURIComponent(JSON.stringify(value))}`;
        for (const { status, body } of [
          await send(`/graphql?${search}`),
          await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: search }),
          await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: decodeURIComponent(query), [name]: value }) }),
        ]) {
          expect(status, `${name}=${JSON.stringify(value)}`).toBe(400);
          expect(body.errors![0]!.message).toMatch(new RegExp(`^Expected "${name}" param to be empty or an object, but given `));
          expect(body.errors![0]!.extensions?.code).toBe('BAD_REQUEST');
        }
      }
    }
  });

  it('runs GET and form-encoded operations whose variables are JSON objects, and checks their values like a body’s', async () => {
    const search = `query=${query}&variables=${encodeURIComponent('{"n":2}')}&extensions=${encodeURIComponent('{}')}`;
    for (const { status, body } of [
      await send(`/graphql?${search}`),
      await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: search }),
      // An empty parameter is an absent one (as yoga reads it).
      await send(`/graphql?query=${query}&variables=&extensions=`),
    ]) {
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ environmentResponses: { edges: [] } });
    }
    const wrongType = await send(`/graphql?query=${query}&variables=${encodeURIComponent('{"n":"two"}')}`);
    expect(wrongType.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
    const nul = await send(`/graphql?query=${query}&variables=${encodeURIComponent('{"n":"\\u0000"}')}`);
    expect(nul.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
    expect(nul.body.errors![0]!.message).toContain('must not contain NUL');
  });
});
