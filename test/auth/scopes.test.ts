/**
 * Scoped API keys, walked over every surface: each REST route and each GraphQL root field declares what
 * it needs (a route or field that declares nothing fails here), a key lacking the scope is refused with
 * the documented body, and a key holding only that scope gets past the check. Then key creation (REST,
 * GraphQL), its limits (at most the creator's scopes and expiry), expiry, and the keys made before scopes.
 */
import { sql } from 'drizzle-orm';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isAbstractType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { SCOPES, type Scope } from '../../src/auth/scopes.ts';
import { fieldAuthScopes, schema } from '../../src/graphql/schema.ts';
import { routeAccessOf, type RouteAccess } from '../../src/rest/access.ts';
import { OPERATION_ACCESS } from '../../src/rest/openapi.ts';
import {
  ADMIN_TOKEN,
  createTenant,
  graphql,
  jsonRequest,
  setupTestApp,
  validBody,
  type TestContext,
  type TestTenant,
} from '../support/helpers.ts';
import { SseStream } from '../support/sse.ts';

let ctx: TestContext;
let tenant: TestTenant;
/** Per scope: a key holding every other scope, and a key holding only it. */
const lacking = new Map<Scope, string>();
const only = new Map<Scope, string>();

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  for (const scope of SCOPES) {
    lacking.set(
      scope,
      (await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: SCOPES.filter((s) => s !== scope) }))
        .key,
    );
    only.set(scope, (await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: [scope] })).key);
  }
});

// ---------------------------------------------------------------- REST

/** Every /api/v1 route of the app (405 fallbacks aside) with what it declares. */
function restRoutes(): { method: string; path: string; access: RouteAccess | undefined }[] {
  const byRoute = new Map<string, { method: string; path: string; access: RouteAccess | undefined }>();
  for (const route of ctx.app.routes) {
    if (!route.path.startsWith('/api/v1/') || route.method === 'ALL') continue;
    const id = `${route.method} ${route.path}`;
    const entry = byRoute.get(id) ?? { method: route.method, path: route.path, access: undefined };
    entry.access ??= routeAccessOf(route.handler);
    byRoute.set(id, entry);
  }
  return [...byRoute.values()];
}

const concretePath = (path: string) =>
  path.replace(':environmentId', tenant.environmentId).replace(/:[a-z]+/gi, 'k4n2iogu5ks9');

async function rest(method: string, path: string, key: string) {
  const init =
    method === 'GET' || method === 'DELETE'
      ? { method, headers: { 'x-api-key': key } }
      : jsonRequest(method, {}, { 'x-api-key': key });
  const response = await ctx.app.request(concretePath(path), init);
  const text = await response.text();
  return {
    status: response.status,
    body: (response.headers.get('content-type') ?? '').includes('json')
      ? (JSON.parse(text) as { message?: string })
      : {},
  };
}

describe('REST routes', () => {
  it('every route declares what it needs, as its OpenAPI operation does', async () => {
    const routes = restRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const document = (await (await ctx.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string; security: Record<string, string[]>[] }>>;
    };
    for (const route of routes) {
      expect(
        route.access,
        `${route.method} ${route.path} declares no access (needs(…) in src/rest/access.ts)`,
      ).toBeDefined();
      const operation = document.paths[route.path.replace(/:([a-z]+)/gi, '{$1}')]![route.method.toLowerCase()]!;
      expect(OPERATION_ACCESS[operation.operationId], operation.operationId).toBe(route.access);
      if (route.access !== 'public' && route.access !== 'admin')
        expect(operation.security).toContainEqual({ apiKey: [route.access] });
    }
  });

  it('refuses a key lacking the scope with 403 naming it, and lets a key holding only that scope past', async () => {
    const scoped = restRoutes().filter((route): route is typeof route & { access: Scope } =>
      SCOPES.includes(route.access as Scope),
    );
    expect(new Set(scoped.map((route) => route.access))).toEqual(new Set(SCOPES));
    for (const route of scoped) {
      const refused = await rest(route.method, route.path, lacking.get(route.access)!);
      expect({ route: `${route.method} ${route.path}`, ...refused }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        body: { message: `API key lacks the scope ${route.access}` },
      });
      const allowed = await rest(route.method, route.path, only.get(route.access)!);
      expect(allowed.body.message ?? '', `${route.method} ${route.path}`).not.toMatch(
        /lacks the scope|Invalid API key|Missing API key/,
      );
      expect(allowed.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
  });

  it('keeps admin-only routes from every key, and public ones open', async () => {
    for (const route of restRoutes().filter((r) => r.access === 'admin')) {
      expect(await rest(route.method, route.path, tenant.apiKey)).toEqual({
        status: 403,
        body: { message: 'This operation needs the admin token' },
      });
    }
    const open = await ctx.app.request('/api/v1/openapi.json');
    expect(open.status).toBe(200);
  });
});

// ---------------------------------------------------------------- GraphQL

/** A value of an input type that passes coercion (required fields filled, recursively). */
function inputValue(type: GraphQLInputType): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [];
  if (isEnumType(nullable))
    return nullable.getValues()[0]!.value === undefined ? nullable.getValues()[0]!.name : nullable.getValues()[0]!.name;
  if (isInputObjectType(nullable)) {
    return Object.fromEntries(
      Object.values(nullable.getFields())
        .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
        .map((f) => [f.name, inputValue(f.type)]),
    );
  }
  if (isScalarType(nullable)) {
    if (nullable.name === 'Int' || nullable.name === 'Float') return 1;
    if (nullable.name === 'Boolean') return true;
    if (nullable.name === 'DateTime') return '2030-01-01T00:00:00.000Z';
    if (nullable.name === 'JSON') return {};
    if (nullable.name === 'ID' && type.toString().includes('nvironment')) return tenant.environmentId;
    return 'k4n2iogu5ks9ut7lahuxkl27';
  }
  throw new Error(`no value for ${String(type)}`);
}

/**
 * Arguments the generated ones would not pass: these fields validate their input (zod, through
 * @pothos/plugin-validation) before their scope is checked, so they get input that validates.
 */
const VALID_ARGS: Record<string, () => Record<string, unknown>> = {
  generateForm: () => ({ environmentId: tenant.environmentId, input: validBody(tenant.templateId) }),
  importForm: () => ({
    input: { environmentId: tenant.environmentId, name: 'Imported', steps: validBody(tenant.templateId).steps },
  }),
  updateForm: () => ({ id: 'k4n2iogu5ks9ut7lahuxkl27', input: { name: 'Renamed' } }),
};

/** The operation that calls root field `field` with its required arguments, as variables. */
function operationOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>) {
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const valid = VALID_ARGS[field.name]?.();
  const variables = Object.fromEntries(
    required.map((arg) => [
      arg.name,
      valid?.[arg.name] ?? (arg.name === 'environmentId' ? tenant.environmentId : inputValue(arg.type)),
    ]),
  );
  const declarations = required.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const named = getNamedType(field.type);
  const selection = isObjectType(named) || isAbstractType(named) ? ' { __typename }' : '';
  const query = `${kind}${declarations ? `(${declarations})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
  return { query, variables };
}

const ROOTS = [
  ['query', schema.getQueryType()!],
  ['mutation', schema.getMutationType()!],
  ['subscription', schema.getSubscriptionType()!],
] as const;
const rootFields = ROOTS.flatMap(([kind, type]) =>
  Object.values(type.getFields()).map((field) => ({ kind, field, scopes: fieldAuthScopes(field.extensions) })),
);

/** The errors of an operation, over HTTP (a subscription over server-sent events, until it ends). */
async function errorsOf(
  kind: 'query' | 'mutation' | 'subscription',
  field: GraphQLField<unknown, unknown>,
  headers: Record<string, string>,
) {
  const { query, variables } = operationOf(kind, field);
  if (kind !== 'subscription') {
    const { body } = await graphql(ctx.app, query, variables, headers);
    return (body.errors ?? []) as {
      message: string;
      path?: string[];
      extensions?: { code?: string; requiredScope?: string };
    }[];
  }
  const response = await ctx.app.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const stream = new SseStream(response);
  expect(await stream.ended(10_000), `${field.name}: the refused stream ends`).toBe(true);
  return stream.errors as { message: string; extensions?: { code?: string; requiredScope?: string } }[];
}

describe('GraphQL root fields', () => {
  it('every query, mutation and subscription field declares what it needs, and its description says it', () => {
    expect(rootFields.length).toBeGreaterThan(30);
    for (const { kind, field, scopes } of rootFields) {
      expect(scopes, `${kind} field ${field.name} declares no authScopes`).toBeDefined();
      if (scopes?.scope)
        expect(field.description, field.name).toContain(`Needs the API key scope \`${scopes.scope}\`.`);
    }
  });

  it('refuses a key lacking the scope with FORBIDDEN and requiredScope, and lets a key holding only it past', async () => {
    const scoped = rootFields.filter((f) => f.scopes?.scope);
    expect(new Set(scoped.map((f) => f.scopes!.scope))).toEqual(new Set(SCOPES));
    for (const { kind, field, scopes } of scoped) {
      const scope = scopes!.scope as Scope;
      const refused = await errorsOf(kind, field, { 'x-api-key': lacking.get(scope)! });
      expect(
        refused.map((e) => ({
          message: e.message,
          code: e.extensions?.code,
          requiredScope: e.extensions?.requiredScope,
        })),
        field.name,
      ).toEqual([{ message: `API key lacks the scope ${scope}`, code: 'FORBIDDEN', requiredScope: scope }]);
      const allowed = await errorsOf(kind, field, { 'x-api-key': only.get(scope)! });
      expect(
        allowed.filter((e) => e.extensions?.requiredScope !== undefined || e.extensions?.code === 'UNAUTHENTICATED'),
        field.name,
      ).toEqual([]);
    }
  });

  it('keeps admin fields from keys and asks every field for credentials', async () => {
    for (const { kind, field, scopes } of rootFields) {
      if (scopes?.admin) {
        const errors = await errorsOf(kind, field, { 'x-api-key': tenant.apiKey });
        expect(
          errors.map((e) => e.message),
          field.name,
        ).toEqual(['This operation needs the admin token']);
      }
      const anonymous = await errorsOf(kind, field, {});
      expect(
        anonymous.map((e) => e.extensions?.code),
        field.name,
      ).toEqual(['UNAUTHENTICATED']);
    }
  });

  it('hides nested fields and nodes behind their scopes', async () => {
    const reader = { 'x-api-key': only.get('responses:read')! };
    const nested = {
      ipStorage: 'settings:manage',
      'forms { edges { node { id } } }': 'forms:read',
      'apiKeys { id }': 'keys:manage',
    };
    for (const [selection, scope] of Object.entries(nested)) {
      const { body } = await graphql(
        ctx.app,
        `query($id: ID!) { environment(id: $id) { name ${selection} } }`,
        { id: tenant.environmentId },
        reader,
      );
      expect(body.errors?.map((e) => e.extensions.requiredScope) ?? [], selection).toEqual([scope]);
    }
    const { body } = await graphql(
      ctx.app,
      'query($id: ID!) { environment(id: $id) { name responses { edges { node { id } } } } }',
      { id: tenant.environmentId },
      reader,
    );
    expect(body.data.environment.name).toEqual(expect.any(String));
    const node = await graphql(
      ctx.app,
      'query($id: ID!) { node(id: $id) { id } }',
      { id: tenant.templateId },
      { 'x-api-key': only.get('responses:read')! },
    );
    expect(node.body).toEqual({ data: { node: null } });
    const seen = await graphql(
      ctx.app,
      'query($id: ID!) { node(id: $id) { id } }',
      { id: tenant.templateId },
      { 'x-api-key': only.get('forms:read')! },
    );
    expect(seen.body).toEqual({ data: { node: { id: tenant.templateId } } });
  });
});

// ---------------------------------------------------------------- creating keys, expiry, keys made before scopes

describe('creating keys', () => {
  const keysPath = () => `/api/v1/environments/${tenant.environmentId}/keys`;

  it('creates a narrower key over REST that reads its own scopes, and lists it', async () => {
    const response = await ctx.app.request(
      keysPath(),
      jsonRequest(
        'POST',
        { name: 'BI', scopes: ['responses:read', 'forms:read'], expires: '30d' },
        { 'x-api-key': tenant.apiKey },
      ),
    );
    expect(response.status).toBe(201);
    const created = (await response.json()) as {
      id: string;
      key: string;
      scopes: string[];
      expiresAt: string;
      fullAccess: boolean;
    };
    expect(created.scopes).toEqual(['forms:read', 'responses:read']);
    expect(created.fullAccess).toBe(false);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const viewer = await graphql(
      ctx.app,
      '{ viewer { scopes expiresAt apiKey { id scopes } } }',
      {},
      { 'x-api-key': created.key },
    );
    expect(viewer.body.data.viewer).toEqual({
      scopes: ['FORMS_READ', 'RESPONSES_READ'],
      expiresAt: created.expiresAt,
      apiKey: { id: created.id, scopes: ['FORMS_READ', 'RESPONSES_READ'] },
    });
    const listed = (await (await ctx.app.request(keysPath(), { headers: { 'x-api-key': tenant.apiKey } })).json()) as {
      data: { id: string; scopes: string[] }[];
    };
    expect(listed.data.find((k) => k.id === created.id)?.scopes).toEqual(['forms:read', 'responses:read']);
  });

  it('grants at most the creator’s scopes and expiry; a key created without scopes gets exactly its creator’s', async () => {
    const manager = await createApiKey(ctx.db, {
      environmentId: tenant.environmentId,
      scopes: ['keys:manage', 'forms:read'],
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const headers = { 'x-api-key': manager.key };
    const wider = await ctx.app.request(
      keysPath(),
      jsonRequest('POST', { scopes: ['forms:read', 'responses:delete'], expires: '2d' }, headers),
    );
    expect(wider.status).toBe(400);
    expect(await wider.json()).toEqual({
      message: 'Invalid arguments',
      errors: [
        { message: 'A key can grant only its own scopes; it lacks responses:delete', path: ['scopes', 1] },
        {
          message: `A key can grant no later expiry than its own, ${manager.expiresAt!.toISOString()}`,
          path: ['expiresAt'],
        },
      ],
    });
    const same = (await (await ctx.app.request(keysPath(), jsonRequest('POST', {}, headers))).json()) as {
      scopes: string[];
      expiresAt: string;
    };
    expect(same).toMatchObject({ scopes: ['forms:read', 'keys:manage'], expiresAt: manager.expiresAt!.toISOString() });
    const bad = await ctx.app.request(
      keysPath(),
      jsonRequest('POST', { scopes: ['responses:raed'], expires: 'soon' }, headers),
    );
    expect(((await bad.json()) as { errors: { path: unknown[] }[] }).errors.map((e) => e.path)).toEqual([
      ['scopes', 0],
      ['expires'],
    ]);
  });

  it('lets the admin token create keys with and without scopes over GraphQL, and audits the grant', async () => {
    const mutation =
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id scopes fullAccess expiresAt } } }';
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const full = await graphql(ctx.app, mutation, { input: { environmentId: tenant.environmentId } }, admin);
    expect(full.body.data.createApiKey.apiKey).toMatchObject({
      scopes: SCOPES.map((s) => s.replace(':', '_').toUpperCase()),
      fullAccess: true,
      expiresAt: null,
    });
    const narrow = await graphql(
      ctx.app,
      mutation,
      { input: { environmentId: tenant.environmentId, scopes: ['AUDIT_READ'] } },
      admin,
    );
    const { id } = narrow.body.data.createApiKey.apiKey;
    const audit = await graphql(
      ctx.app,
      '{ auditLog(first: 20) { edges { node { action targetIds details } } } }',
      {},
      { 'x-api-key': only.get('audit:read')! },
    );
    expect(audit.body.data.auditLog.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
      action: 'api_key.create',
      targetIds: [id],
      details: { scopes: 'audit:read', expiresAt: null },
    });
  });

  it('refuses another environment’s key management as FORBIDDEN and its keys as not found', async () => {
    const other = await createTenant(ctx.db);
    const response = await ctx.app.request(
      `/api/v1/environments/${other.environmentId}/keys`,
      jsonRequest('POST', {}, { 'x-api-key': tenant.apiKey }),
    );
    expect(response.status).toBe(403);
    const revoke = await graphql(
      ctx.app,
      'mutation($id: ID!) { revokeApiKey(id: $id) { id } }',
      { id: other.apiKeyId },
      { 'x-api-key': tenant.apiKey },
    );
    expect(revoke.body.errors!.map((e) => e.message)).toEqual(['API key not found']);
  });
});

describe('expiry and keys made before scopes', () => {
  it('refuses an expired key as invalid at once, even while its verification is cached', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const key = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['forms:read'], expiresAt });
    const headers = { 'x-api-key': key.key };
    expect((await ctx.app.request('/api/v1/forms', { headers })).status).toBe(200); // verified, and cached for VERIFIED_KEY_TTL_MS
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt.getTime() - 1);
      expect((await ctx.app.request('/api/v1/forms', { headers })).status).toBe(200);
      vi.setSystemTime(expiresAt);
      const refused = await ctx.app.request('/api/v1/forms', { headers });
      expect({ status: refused.status, body: await refused.json() }).toEqual({
        status: 401,
        body: { message: 'Invalid API key' },
      });
      const viewer = await graphql(ctx.app, '{ viewer { kind } }', {}, headers);
      expect(viewer.body.errors!.map((e) => e.message)).toEqual(['Invalid API key']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives keys without scopes (made before scopes existed) full access', async () => {
    await ctx.db.execute(sql`update api_keys set scopes = null where id = ${tenant.apiKeyId}`);
    for (const path of [
      '/api/v1/forms',
      '/api/v1/responses',
      '/api/v1/webhooks',
      '/api/v1/audit-log',
      `/api/v1/environments/${tenant.environmentId}/settings`,
      `/api/v1/environments/${tenant.environmentId}/keys`,
    ]) {
      expect((await ctx.app.request(path, { headers: { 'x-api-key': tenant.apiKey } })).status, path).toBe(200);
    }
  });
});
