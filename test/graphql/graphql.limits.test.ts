/**
 * The /graphql limits and exposure policy: each operation limit refuses with its own code and says its
 * maximum, the cost counts list sizes (literal, variable or default `first`), the REST adapters are not
 * subject to them, suggestions only for authenticated callers, introspection for everyone (the schema is
 * public), and GraphiQL's CSP.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createForm, insertTimeline } from '../support/factories.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let key: Record<string, string>;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  key = { 'x-api-key': tenant.apiKey };
  const form = await createForm(ctx.db, tenant.environmentId);
  await insertTimeline(ctx.db, { environmentId: tenant.environmentId, formId: form.id, count: 12 });
});

/** An app whose GraphQL limits differ from the defaults. */
const withLimits = (graphqlLimits: Partial<Config['graphql']>) => appWith(ctx.db, { graphql: { ...testConfig().graphql, ...graphqlLimits } });

const codes = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.map((error) => error.extensions?.code);

describe('operation limits', () => {
  it('refuses a query deeper than GRAPHQL_MAX_DEPTH with GRAPHQL_DEPTH_LIMIT', async () => {
    const app = withLimits({ maxDepth: 3 });
    const ok = await graphql(app, `query($id: ID!) { form(id: $id) { steps { name } } }`, { id: tenant.templateId }, key);
    expect(ok.body.errors).toBeUndefined();
    const deep = await graphql(app, `query($id: ID!) { form(id: $id) { steps { components { __typename } } } }`, { id: tenant.templateId }, key);
    expect(deep.body.data).toBeUndefined();
    expect(codes(deep.body)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
    expect(deep.body.errors![0].message).toBe('Query depth limit of 3 exceeded, found 4.');
  });

  it('refuses introspection deeper than the standard introspection query (15), which tools and GraphiQL send unrefused', async () => {
    // An `ofType` chain, each level a single object: cheap to answer, but without a limit as deep as the parser allows.
    const ofTypes = (n: number) => `{ __schema { types { ${'ofType { '.repeat(n)}name${' }'.repeat(n)} } } }`;
    for (const [query, found] of [
      [ofTypes(60), 63],
      [ofTypes(13), 16],
      [`{ __type(name: "Form") { ${'ofType { '.repeat(60)}name${' }'.repeat(60)} } }`, 62],
    ] as const) {
      const deep = await graphql(ctx.app, query, {}, key);
      expect(deep.body.data, query.slice(0, 60)).toBeUndefined();
      expect(codes(deep.body)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
      expect(deep.body.errors![0].message).toMatch(new RegExp(`depth limit of (15|12) exceeded, found ${found}\\.$`));
    }
    expect((await graphql(ctx.app, ofTypes(12), {}, key)).body.errors).toBeUndefined();
    // graphql-js's introspection query with every option (GraphiQL's, codegen's): 15 deep, its `ofType` chain 9.
    const full = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    const introspection = await graphql(ctx.app, full, {}, key);
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    // GRAPHQL_MAX_DEPTH above 15 raises introspection's limit with it; an operation over the limit gets one error, not two.
    expect((await graphql(withLimits({ maxDepth: 20 }), ofTypes(17), {}, key)).body.errors).toBeUndefined();
    const both = await graphql(ctx.app, `{ __schema { types { name } } form(id: "x") { ${'sourceForm { '.repeat(16)}id${' }'.repeat(16)} } }`, {}, key);
    expect(codes(both.body)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
    expect(both.body.errors![0].message).toBe('Query depth limit of 12 exceeded, found 18.');
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES with GRAPHQL_ALIAS_LIMIT', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `f${i}: form(id: "none") { id }`).join(' ')} }`;
    const ok = await graphql(ctx.app, aliases(15), {}, key);
    expect(ok.body.errors).toBeUndefined();
    const many = await graphql(ctx.app, aliases(16), {}, key);
    expect(many.body.data).toBeUndefined();
    expect(codes(many.body)).toEqual(['GRAPHQL_ALIAS_LIMIT']);
    expect(many.body.errors![0].message).toBe('Aliases limit of 15 exceeded, found 16.');
  });

  it('refuses a document of more than GRAPHQL_MAX_TOKENS tokens with GRAPHQL_TOKEN_LIMIT', async () => {
    // `{ t0: __typename t1: __typename … }`: 2 braces and 3 tokens a field (aliases of __typename are free).
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const ok = await graphql(ctx.app, typenames(666), {}, key);
    expect(ok.body.errors).toBeUndefined();
    const long = await graphql(ctx.app, typenames(667), {}, key);
    expect(long.body.data).toBeUndefined();
    expect(codes(long.body)).toEqual(['GRAPHQL_TOKEN_LIMIT']);
    expect(long.body.errors![0].message).toBe('Token limit of 2000 exceeded.');
  });

  it('refuses more directives than GRAPHQL_MAX_DIRECTIVES with GRAPHQL_DIRECTIVE_LIMIT', async () => {
    const directives = (n: number) => `{ __typename ${'@include(if: true) '.repeat(n)}}`;
    const ok = await graphql(ctx.app, directives(10), {}, key);
    expect(ok.body.errors?.map((e) => e.extensions.code) ?? []).not.toContain('GRAPHQL_DIRECTIVE_LIMIT');
    const many = await graphql(ctx.app, directives(11), {}, key);
    expect(many.body.data).toBeUndefined();
    expect(codes(many.body)).toContain('GRAPHQL_DIRECTIVE_LIMIT');
    expect(many.body.errors!.find((e) => e.extensions.code === 'GRAPHQL_DIRECTIVE_LIMIT').message).toBe('Directives limit of 10 exceeded, found 11.');
  });
});

describe('cost limit', () => {
  const listings = (n: number, first: string) =>
    `query${first.startsWith('$') ? '($first: Int)' : ''} { ${Array.from({ length: n }, (_, i) => `l${i}: environmentResponses(first: ${first}) { edges { node { id } } }`).join(' ')} }`;

  it('refuses 1,000 aliased 100-response listings before anything runs, even with the other limits lifted', async () => {
    const app = withLimits({ maxAliases: 10_000, maxTokens: 100_000, maxDepth: 100 });
    const { body } = await graphql(app, listings(1000, '100'), {}, key);
    expect(body.data).toBeUndefined(); // refused at validation: no resolver ran
    expect(codes(body)).toEqual(['GRAPHQL_COST_LIMIT']);
    expect(body.errors![0].message).toMatch(/^Query cost limit of 5000 exceeded, found \d+\.$/);
  });

  it('counts `first` whether written, passed as a variable or left to its default', async () => {
    // A 100-response listing costs 5 per response read plus its selection (801 here): 6 fit in 5,000, 7 don't.
    expect((await graphql(ctx.app, listings(6, '100'), {}, key)).body.errors).toBeUndefined();
    const literal = await graphql(ctx.app, listings(7, '100'), {}, key);
    expect(codes(literal.body)).toEqual(['GRAPHQL_COST_LIMIT']);
    const variable = await graphql(ctx.app, listings(7, '$first'), { first: 100 }, key);
    expect(codes(variable.body)).toEqual(['GRAPHQL_COST_LIMIT']);
    const small = await graphql(ctx.app, listings(7, '$first'), { first: 10 }, key);
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.l6.edges).toHaveLength(10);
    // The default page size (10) is counted too: 15 listings of 10 fit; with GRAPHQL_MAX_COST 1,000 they don't.
    const defaults = `{ ${Array.from({ length: 15 }, (_, i) => `l${i}: environmentResponses { edges { node { id } } }`).join(' ')} }`;
    expect((await graphql(ctx.app, defaults, {}, key)).body.errors).toBeUndefined();
    expect(codes((await graphql(withLimits({ maxCost: 1_000 }), defaults, {}, key)).body)).toEqual(['GRAPHQL_COST_LIMIT']);
  });

  it('measures the cost of every request, also for a document that passed before (the validation cache keeps only what depends on the document)', async () => {
    const document = listings(8, '$first');
    for (let i = 0; i < 2; i++) {
      const small = await graphql(ctx.app, document, { first: 5 }, key);
      expect(small.body.errors).toBeUndefined();
      const large = await graphql(ctx.app, document, { first: 100 }, key);
      expect(codes(large.body)).toEqual(['GRAPHQL_COST_LIMIT']);
      // A bad variable is still refused at coercion, also for the remembered document.
      const wrong = await graphql(ctx.app, document, { first: 'many' }, key);
      expect(codes(wrong.body)).toEqual(['BAD_USER_INPUT']);
    }
  });

  it('measures the operation a remembered document names', async () => {
    const two = `${listings(8, '$first').replace('query(', 'query Heavy(')} query Light { environmentResponses(first: 1) { edges { node { id } } } }`;
    const ask = async (operationName: string | undefined, first: number) => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify({ query: two, operationName, variables: { first } }) };
      return codes((await (await ctx.app.request('/graphql', init)).json()) as { errors?: { extensions?: { code?: string } }[] }) ?? [];
    };
    for (let i = 0; i < 2; i++) {
      expect(await ask('Light', 100)).toEqual([]);
      expect(await ask('Heavy', 100)).toEqual(['GRAPHQL_COST_LIMIT']);
      expect(await ask('Heavy', 5)).toEqual([]);
      // No operation named in a document of two: yoga refuses it before it is measured.
      expect(await ask(undefined, 100)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
    }
  });

  it('lets the REST adapters run their own operations whatever the GraphQL limits say', async () => {
    const app = withLimits({ maxCost: 1, maxDepth: 1, maxAliases: 0, maxTokens: 100, maxDirectives: 0 });
    const rest = await app.request(`/api/v1/responses?limit=100`, { headers: key });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { data: unknown[] }).data).toHaveLength(12);
    const same = await graphql(app, `{ environmentResponses(first: 100) { edges { node { id } } } }`, {}, key);
    expect(codes(same.body)).toEqual(expect.arrayContaining(['GRAPHQL_COST_LIMIT', 'GRAPHQL_DEPTH_LIMIT']));
  });
});

describe('what anonymous callers learn about the schema', () => {
  const typo = '{ envronment(id: "x") { id } }';

  it('suggests field names ("Did you mean") only to authenticated callers', async () => {
    const anonymous = await graphql(ctx.app, typo);
    expect(anonymous.body.errors![0].message).toBe('Cannot query field "envronment" on type "Query".');
    expect(anonymous.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const wrongKey = await graphql(ctx.app, typo, {}, { 'x-api-key': 'fl_aaaaaaaaaaaa_' + 'x'.repeat(43) });
    expect(JSON.stringify(wrongKey.body)).not.toContain('Did you mean');
    const withKey = await graphql(ctx.app, typo, {}, key);
    expect(withKey.body.errors![0].message).toBe('Cannot query field "envronment" on type "Query". Did you mean "environment"?');
    // Enum values too, in variables: graphql-js words those suggestions differently.
    const enumTypo = 'mutation($s: FormStatus) { importForm(input: {environmentId: "x", name: "n", steps: [], status: $s}) { id } }';
    const anonymousEnum = await graphql(ctx.app, enumTypo, { s: 'PUBLISHD' });
    expect(anonymousEnum.body.errors![0].message).not.toContain('Did you mean');
    expect(anonymousEnum.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await graphql(ctx.app, enumTypo, { s: 'PUBLISHD' }, key)).body.errors![0].message).toContain('Did you mean');
  });

  it('answers introspection to anonymous callers too, with exactly the published schema', async () => {
    const query = '{ __schema { queryType { name } mutationType { name } } }';
    const anonymous = await graphql(ctx.app, query);
    expect(anonymous.body.errors).toBeUndefined();
    expect(anonymous.body.data.__schema).toEqual({ queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } });
    expect((await graphql(ctx.app, '{ __type(name: "Form") { name } }')).body.data.__type).toEqual({ name: 'Form' });
    expect((await graphql(ctx.app, query, {}, key)).body.data.__schema.queryType.name).toBe('Query');
    expect((await graphql(ctx.app, query, {}, admin)).body.data.__schema.queryType.name).toBe('Query');

    // GraphiQL's full introspection query, without credentials, rebuilds the committed schema file:
    // nothing more is exposed than what the repository publishes.
    const full = await graphql(ctx.app, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }));
    expect(full.body.errors).toBeUndefined();
    const published = lexicographicSortSchema(buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8')));
    expect(printSchema(lexicographicSortSchema(buildClientSchema(full.body.data)))).toBe(printSchema(published));

    // Still anonymous: the resolvers refuse what needs a key.
    const refused = await graphql(ctx.app, '{ viewer { kind } }');
    expect(codes(refused.body)).toEqual(['UNAUTHENTICATED']);
  });
});

describe("GraphiQL's page", () => {
  it('is served with a CSP that allows exactly its inline script and style, and no framing', async () => {
    const response = await ctx.app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const csp = response.headers.get('content-security-policy')!;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const sources = Object.fromEntries(
      csp.split(/;\s*/).map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values];
      }),
    );
    expect(sources['default-src']).toEqual(["'none'"]);
    expect(sources['script-src']).toEqual(scripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`));
    expect(sources['frame-ancestors']).toEqual(["'none'"]);
    expect(sources['connect-src']).toEqual(["'self'"]);
    // The headers editor starts with an empty x-api-key, for the key that running operations needs.
    expect(html).toContain('x-api-key');
  });
});

describe('compiled execution (graphql-jit, from the second run of a document)', () => {
  it('answers a repeated document exactly as graphql-js answered it the first time: data, resolver errors, bad variables', async () => {
    const listing = `query Listing($first: Int) { environmentResponses(first: $first) { edges { node { id createdAt finished } } pageInfo { hasNextPage } } }`;
    const cases: [string, string, Record<string, unknown>, Record<string, string>][] = [
      ['data', listing, { first: 5 }, key],
      ['an error from a resolver (no key)', listing, { first: 5 }, {}],
      ['a variable of the wrong type', listing, { first: 'five' }, key],
      ['a missing non-null variable', 'query($id: ID!) { form(id: $id) { id name } }', {}, key],
      ['null for an unknown id', 'query($id: ID!) { form(id: $id) { id name } }', { id: 'no-such-form' }, key],
    ];
    for (const [what, query, variables, headers] of cases) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await graphql(ctx.app, query, variables, headers));
      expect(runs[1], what).toEqual(runs[0]);
      expect(runs[2], what).toEqual(runs[0]);
    }
    const [data, unauthenticated, wrongType] = await Promise.all(cases.slice(0, 3).map(([, query, variables, headers]) => graphql(ctx.app, query, variables, headers)));
    expect(data!.body.data.environmentResponses.edges).toHaveLength(5);
    expect(codes(unauthenticated!.body)).toEqual(['UNAUTHENTICATED']);
    expect(codes(wrongType!.body)).toEqual(['BAD_USER_INPUT']);
  });
});
