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
import { uploads, webhookEndpoints } from '../../src/db/schema.ts';
import { createFileStorage } from '../../src/uploads/storage.ts';
import { testEndpoint } from '../../src/events/webhooks.service.ts';
import { createForm, createLead, insertResponse } from '../support/factories.ts';
import { ENVIRONMENT_SCOPES, SCOPES, type Scope } from '../../src/auth/scopes.ts';
import { fieldAuthScopes, schema } from '../../src/graphql/schema.ts';
import { routeAccessOf, type RouteAccess } from '../../src/rest/access.ts';
import { OPERATION_ACCESS } from '../../src/rest/openapi.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
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
    lacking.set(scope, (await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: SCOPES.filter((s) => s !== scope) })).key);
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

const concretePath = (path: string) => path.replace(':environmentId', tenant.environmentId).replace(/:[a-z]+/gi, 'k4n2iogu5ks9');

async function rest(method: string, path: string, key: string) {
  const init = method === 'GET' || method === 'DELETE' ? { method, headers: { 'x-api-key': key } } : jsonRequest(method, {}, { 'x-api-key': key });
  const response = await ctx.app.request(concretePath(path), init);
  const text = await response.text();
  return {
    status: response.status,
    body: (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as { message?: string }) : {},
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
      expect(route.access, `${route.method} ${route.path} declares no access (needs(…) in src/rest/access.ts)`).toBeDefined();
      const operation = document.paths[route.path.replace(/:([a-z]+)/gi, '{$1}')]![route.method.toLowerCase()]!;
      expect(OPERATION_ACCESS[operation.operationId], operation.operationId).toBe(route.access);
      if (route.access !== 'public' && route.access !== 'admin') expect(operation.security).toContainEqual({ apiKey: [route.access] });
    }
  });

  it('refuses a key lacking the scope with 403 naming it, and lets a key holding only that scope past', async () => {
    const scoped = restRoutes().filter((route): route is typeof route & { access: Scope } => SCOPES.includes(route.access as Scope));
    expect(new Set(scoped.map((route) => route.access))).toEqual(new Set(SCOPES));
    for (const route of scoped) {
      const refused = await rest(route.method, route.path, lacking.get(route.access)!);
      expect({ route: `${route.method} ${route.path}`, ...refused }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        body: { message: `API key lacks the scope ${route.access}` },
      });
      const allowed = await rest(route.method, route.path, only.get(route.access)!);
      expect(allowed.body.message ?? '', `${route.method} ${route.path}`).not.toMatch(/lacks the scope|Invalid API key|Missing API key/);
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
  if (isEnumType(nullable)) return nullable.getValues()[0]!.value === undefined ? nullable.getValues()[0]!.name : nullable.getValues()[0]!.name;
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
  const variables = Object.fromEntries(required.map((arg) => [arg.name, valid?.[arg.name] ?? (arg.name === 'environmentId' ? tenant.environmentId : inputValue(arg.type))]));
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
const rootFields = ROOTS.flatMap(([kind, type]) => Object.values(type.getFields()).map((field) => ({ kind, field, scopes: fieldAuthScopes(field.extensions) })));

/** The errors of an operation, over HTTP (a subscription over server-sent events, until it ends). */
async function errorsOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, headers: Record<string, string>) {
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
      if (scopes?.scope) expect(field.description, field.name).toContain(`Needs the API key scope \`${scopes.scope}\`.`);
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
      const { body } = await graphql(ctx.app, `query($id: ID!) { environment(id: $id) { name ${selection} } }`, { id: tenant.environmentId }, reader);
      expect(body.errors?.map((e) => e.extensions.requiredScope) ?? [], selection).toEqual([scope]);
    }
    const { body } = await graphql(ctx.app, 'query($id: ID!) { environment(id: $id) { name responses { edges { node { id } } } } }', { id: tenant.environmentId }, reader);
    expect(body.data.environment.name).toEqual(expect.any(String));
    const node = await graphql(ctx.app, 'query($id: ID!) { node(id: $id) { id } }', { id: tenant.templateId }, { 'x-api-key': only.get('responses:read')! });
    expect(node.body).toEqual({ data: { node: null } });
    const seen = await graphql(ctx.app, 'query($id: ID!) { node(id: $id) { id } }', { id: tenant.templateId }, { 'x-api-key': only.get('forms:read')! });
    expect(seen.body).toEqual({ data: { node: { id: tenant.templateId } } });
  });
});

// ---------------------------------------------------------------- creating keys, expiry, keys made before scopes

describe('creating keys', () => {
  const keysPath = () => `/api/v1/environments/${tenant.environmentId}/keys`;

  it('creates a narrower key over REST that reads its own scopes, and lists it', async () => {
    const response = await ctx.app.request(
      keysPath(),
      jsonRequest('POST', { name: 'BI', scopes: ['responses:read', 'forms:read'], expires: '30d' }, { 'x-api-key': tenant.apiKey }),
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
    const viewer = await graphql(ctx.app, '{ viewer { scopes expiresAt apiKey { id scopes } } }', {}, { 'x-api-key': created.key });
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
    const wider = await ctx.app.request(keysPath(), jsonRequest('POST', { scopes: ['forms:read', 'responses:delete'], expires: '2d' }, headers));
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
    const bad = await ctx.app.request(keysPath(), jsonRequest('POST', { scopes: ['responses:raed'], expires: 'soon' }, headers));
    expect(((await bad.json()) as { errors: { path: unknown[] }[] }).errors.map((e) => e.path)).toEqual([['scopes', 0], ['expires']]);
  });

  it('lets the admin token create keys with and without scopes over GraphQL, and audits the grant', async () => {
    const mutation = 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id scopes fullAccess expiresAt } } }';
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const full = await graphql(ctx.app, mutation, { input: { environmentId: tenant.environmentId } }, admin);
    expect(full.body.data.createApiKey.apiKey).toMatchObject({
      scopes: SCOPES.map((s) => s.replace(':', '_').toUpperCase()),
      fullAccess: true,
      expiresAt: null,
    });
    const narrow = await graphql(ctx.app, mutation, { input: { environmentId: tenant.environmentId, scopes: ['AUDIT_READ'] } }, admin);
    const { id } = narrow.body.data.createApiKey.apiKey;
    const audit = await graphql(ctx.app, '{ auditLog(first: 20) { edges { node { action targetIds details } } } }', {}, { 'x-api-key': only.get('audit:read')! });
    expect(audit.body.data.auditLog.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
      action: 'api_key.create',
      targetIds: [id],
      details: { scopes: 'audit:read', expiresAt: null, formIds: 'all' },
    });
  });

  it('refuses another environment’s key management as FORBIDDEN and its keys as not found', async () => {
    const other = await createTenant(ctx.db);
    const response = await ctx.app.request(`/api/v1/environments/${other.environmentId}/keys`, jsonRequest('POST', {}, { 'x-api-key': tenant.apiKey }));
    expect(response.status).toBe(403);
    const revoke = await graphql(ctx.app, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: other.apiKeyId }, { 'x-api-key': tenant.apiKey });
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

// ---------------------------------------------------------------- keys limited to forms

/**
 * The objects of one form (a response with its lead, a webhook endpoint of the form and a delivery of it,
 * a key limited to it), for the walk: each route and field is called by a key limited to another form on
 * the objects of a form of its own environment outside its set, and by a full key of that environment on
 * another environment's objects; both answers must be the same (ids aside).
 */
interface FormObjects {
  form: string;
  response: string;
  lead: string;
  endpoint: string;
  delivery: string;
  key: string;
  /** An uploaded file of a response to the form. */
  file: string;
}

async function formObjects(environmentId: string, formId: string): Promise<FormObjects> {
  const lead = (await createLead(ctx.db, environmentId, `p-${formId}@example.com`)).id;
  const response = await insertResponse(ctx.db, { environmentId, formId, leadId: lead });
  const endpoint = `ep${formId.slice(0, 20)}`;
  await ctx.db.insert(webhookEndpoints).values({
    id: endpoint,
    environmentId,
    url: 'https://hooks.example.com/in',
    eventTypes: ['response.created'],
    formIds: [formId],
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  });
  const delivery = (await testEndpoint(ctx.db, environmentId, endpoint)).id;
  const key = (await createApiKey(ctx.db, { environmentId, formIds: [formId] })).id;
  const file = `upl_${formId.slice(0, 20)}`;
  // In the app's own file storage (the test config's data folder), so a missed check would serve the bytes.
  await createFileStorage(testConfig()).put(`walk/${file}`, Buffer.from('walk'), 'text/plain');
  await ctx.db
    .insert(uploads)
    .values({ id: file, environmentId, formId, componentId: 'c', responseId: response, storageKey: `walk/${file}`, name: 'a.txt', contentType: 'text/plain', size: 4 });
  return { form: formId, response, lead, endpoint, delivery, key, file };
}

describe('keys limited to forms', () => {
  let outside: FormObjects; // a form of the tenant the limited key is not limited to
  let foreign: FormObjects; // another tenant's
  let ownForm: string;
  let limited: string; // every scope, limited to ownForm
  const full = () => ({ 'x-api-key': tenant.apiKey });

  beforeAll(async () => {
    const other = await createTenant(ctx.db);
    ownForm = (await createForm(ctx.db, tenant.environmentId, 'Own')).id;
    outside = await formObjects(tenant.environmentId, (await createForm(ctx.db, tenant.environmentId, 'Outside')).id);
    foreign = await formObjects(other.environmentId, other.templateId);
    await insertResponse(ctx.db, { environmentId: tenant.environmentId, formId: ownForm });
    limited = (await createApiKey(ctx.db, { environmentId: tenant.environmentId, formIds: [ownForm] })).key;
  });

  /** The text of an answer with the objects' ids replaced by their kind, so two answers compare. */
  const normalised = (text: string, objects: FormObjects) => Object.entries(objects).reduce((out, [kind, id]) => out.replaceAll(id, `<${kind}>`), text);

  const PARAM_OBJECT: Record<string, (path: string) => keyof FormObjects | undefined> = {
    formId: () => 'form',
    keyId: () => 'key',
    fileId: () => 'file',
    id: (path) =>
      path.startsWith('/api/v1/responses/')
        ? 'response'
        : path.startsWith('/api/v1/leads/')
          ? 'lead'
          : path.startsWith('/api/v1/webhooks/')
            ? 'endpoint'
            : path.startsWith('/api/v1/webhook-deliveries/')
              ? 'delivery'
              : undefined,
  };
  /** Bodies that get past validation to the lookup. */
  const BODIES: Record<string, unknown> = {
    'PATCH /api/v1/forms/:formId': { name: 'Renamed' },
    'PATCH /api/v1/webhooks/:id': { description: 'changed' },
  };

  async function restAs(method: string, path: string, objects: FormObjects, key: string) {
    const concrete = path.replace(':environmentId', tenant.environmentId).replace(/:([a-z]+)/gi, (_, name: string) => {
      const kind = PARAM_OBJECT[name]?.(path);
      return kind ? objects[kind] : 'k4n2iogu5ks9'; // no fixture (e-mail deliveries): a missing id on both sides
    });
    const body = BODIES[`${method} ${path}`] ?? {};
    const init = method === 'GET' || method === 'DELETE' ? { method, headers: { 'x-api-key': key } } : jsonRequest(method, body, { 'x-api-key': key });
    const response = await ctx.app.request(concrete, init);
    return { status: response.status, body: normalised(await response.text(), objects) };
  }

  it('answers every REST route on a form outside the key’s set as on another environment’s form', async () => {
    const routes = restRoutes().filter((r) => /:(?:formId|id|keyId|fileId)\b/.test(r.path) && r.access !== 'admin' && r.access !== 'public');
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const walled = await restAs(route.method, route.path, outside, limited);
      if (ENVIRONMENT_SCOPES.includes(route.access as Scope)) {
        // A scope over the whole environment: the key lacks it (form-limited-scopes.test.ts), before any lookup.
        expect({ route: `${route.method} ${route.path}`, ...walled }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
          body: JSON.stringify({ message: `API key lacks the scope ${route.access}` }),
        });
        continue;
      }
      const foreignAnswer = await restAs(route.method, route.path, foreign, tenant.apiKey);
      expect({ route: `${route.method} ${route.path}`, ...walled }).toEqual({ route: `${route.method} ${route.path}`, ...foreignAnswer });
      expect(walled.status, `${route.method} ${route.path}`).toBeGreaterThanOrEqual(400);
    }
    // Query and body parameters naming a form.
    for (const [method, path, body] of [
      ['GET', '/api/v1/responses?formId=<form>&limit=5', undefined],
      ['GET', '/api/v1/responses/export?formId=<form>', undefined],
      ['POST', '/api/v1/responses/delete', { formId: '<form>' }],
    ] as const) {
      const call = async (objects: FormObjects, key: string) => {
        const url = path.replace('<form>', objects.form);
        const init = body ? jsonRequest(method, { formId: objects.form }, { 'x-api-key': key }) : { method, headers: { 'x-api-key': key } };
        const response = await ctx.app.request(url, init);
        return { status: response.status, body: normalised(await response.text(), objects) };
      };
      expect(await call(outside, limited), path).toEqual(await call(foreign, tenant.apiKey));
    }
  });

  it('shows environment-wide REST listings with only the key’s forms', async () => {
    const listings = restRoutes().filter((r) => r.method === 'GET' && !r.path.includes(':') && r.access !== 'admin' && r.access !== 'public');
    for (const path of [...listings.map((r) => r.path), `/api/v1/environments/${tenant.environmentId}/keys`, `/api/v1/responses/export?format=ndjson`]) {
      const response = await ctx.app.request(path, { headers: { 'x-api-key': limited } });
      const text = await response.text();
      for (const [kind, id] of Object.entries(outside)) expect(text, `${path} lists the outside ${kind}`).not.toContain(id);
    }
    for (const [path, id] of [
      ['/api/v1/forms', outside.form],
      ['/api/v1/responses', outside.response],
      ['/api/v1/webhooks', outside.endpoint],
    ]) {
      expect(await (await ctx.app.request(path!, { headers: full() })).text(), `${path} (full key)`).toContain(id);
    }
    const own = (await (await ctx.app.request('/api/v1/forms', { headers: { 'x-api-key': limited } })).json()) as { data: { id: string }[] };
    expect(own.data.map((f) => f.id)).toEqual([ownForm]);
  });

  /** Arguments naming an object, per root field; a field with an id argument missing here fails the walk. */
  const FIELD_OBJECTS: Record<string, Record<string, keyof FormObjects>> = {
    form: { id: 'form' },
    node: { id: 'form' },
    nodes: { ids: 'form' },
    closeForm: { id: 'form' },
    reopenForm: { id: 'form' },
    deleteForm: { id: 'form' },
    updateForm: { id: 'form' },
    putFormTranslation: { id: 'form' },
    formResponses: { formId: 'form' },
    formNotificationDeliveries: { formId: 'form' },
    setFormRetention: { formId: 'form' },
    retryNotificationDelivery: { formId: 'form' },
    deleteResponse: { id: 'response' },
    eraseLead: { id: 'lead' },
    webhookEndpoint: { id: 'endpoint' },
    updateWebhookEndpoint: { id: 'endpoint' },
    deleteWebhookEndpoint: { id: 'endpoint' },
    testWebhookEndpoint: { id: 'endpoint' },
    resendWebhookDelivery: { id: 'delivery' },
    revokeApiKey: { id: 'key' },
    shareLinks: { formId: 'form' },
    createShareLink: { formId: 'form' },
    revokeShareLink: { formId: 'form' },
    responseEvents: { formId: 'form' },
    environment: {},
  };
  /** Id arguments of objects with no fixture (an e-mail delivery, a share link): a missing id on both sides, next to a real form. */
  const NO_FIXTURE = ['retryNotificationDelivery.id', 'revokeShareLink.id'];
  const idArguments = (field: GraphQLField<unknown, unknown>) =>
    field.args.filter((arg) => getNamedType(arg.type).name === 'ID' && arg.name !== 'environmentId').map((arg) => arg.name);

  async function fieldAs(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, objects: FormObjects, key: string) {
    const named = FIELD_OBJECTS[field.name] ?? {};
    const args = field.args.filter((arg) => (isNonNullType(arg.type) && arg.defaultValue === undefined) || arg.name in named);
    const { variables } = operationOf(kind, field);
    for (const arg of args) {
      const object = named[arg.name];
      if (object) variables[arg.name] = arg.name === 'ids' ? [objects[object]] : objects[object];
      else if (!(arg.name in variables)) variables[arg.name] = inputValue(arg.type);
    }
    if (field.name === 'eraseLead') delete variables.email;
    const declarations = args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const passed = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const namedType = getNamedType(field.type);
    const selection = isObjectType(namedType) || isAbstractType(namedType) ? ' { __typename }' : '';
    const query = `${kind}${declarations ? `(${declarations})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
    const headers = { 'x-api-key': key };
    if (kind !== 'subscription') {
      const { body } = await graphql(ctx.app, query, variables, headers);
      return normalised(JSON.stringify({ data: body.data, errors: body.errors?.map((e) => ({ message: e.message, code: e.extensions.code })) }), objects);
    }
    const response = await ctx.app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const stream = new SseStream(response);
    expect(await stream.ended(10_000), `${field.name}: the refused stream ends`).toBe(true);
    return normalised(JSON.stringify({ status: response.status, errors: stream.errors.map((e) => e.message) }), objects);
  }

  it('answers every GraphQL root field naming an object of a form outside the key’s set as for another environment’s', async () => {
    const walked = rootFields.filter(({ field }) => idArguments(field).length > 0 && !['createApiKey', 'createEnvironment'].includes(field.name));
    for (const { kind, field } of walked) {
      if (field.name === 'environment') continue; // the environment, not a form's object
      for (const name of idArguments(field))
        expect(FIELD_OBJECTS[field.name]?.[name] ?? NO_FIXTURE.includes(`${field.name}.${name}`), `${field.name}(${name}:) names no object in FIELD_OBJECTS`).toBeTruthy();
      const walled = await fieldAs(kind, field, outside, limited);
      const scope = fieldAuthScopes(field.extensions)?.scope as Scope | undefined;
      if (scope && ENVIRONMENT_SCOPES.includes(scope)) {
        expect(walled, field.name).toContain(`"message":"API key lacks the scope ${scope}","code":"FORBIDDEN"`);
        continue;
      }
      expect(walled, field.name).toEqual(await fieldAs(kind, field, foreign, tenant.apiKey));
      expect(walled, field.name).not.toContain('"__typename"');
    }
    const deleted = await graphql(ctx.app, 'mutation($f: ID) { deleteResponses(filter: {formId: $f}) { deletedCount } }', { f: outside.form }, { 'x-api-key': limited });
    expect(deleted.body.errors!.map((e) => e.message)).toEqual(['Form not found']);
  });

  it('lists only the key’s forms, responses, leads and webhooks in GraphQL, and refuses environment-wide acts', async () => {
    const { body } = await graphql(
      ctx.app,
      `{ viewer { formIds environment {
          forms { edges { node { id } } }
          responses { edges { node { id formId } } }
          leads { edges { node { id } } }
          apiKeys { id }
        } }
        environmentResponses { edges { node { id } } }
        webhookEndpoints { id } }`,
      {},
      { 'x-api-key': limited },
    );
    expect(body.errors).toBeUndefined();
    const text = JSON.stringify(body.data);
    for (const [kind, id] of Object.entries(outside)) expect(text, kind).not.toContain(id);
    expect(body.data.viewer.formIds).toEqual([ownForm]);
    expect(body.data.viewer.environment.forms.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ownForm]);
    expect(body.data.viewer.environment.responses.edges.map((e: { node: { formId: string } }) => e.node.formId)).toEqual([ownForm]);
    for (const [operation, refusal] of [
      ['mutation($e: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $e, input: $input) { form { id } } }', 'create forms'],
      ['mutation($e: ID!) { eraseLead(email: "p@example.com", environmentId: $e) { erased } }', 'erase people'],
    ] as const) {
      const variables = { e: tenant.environmentId, ...(operation.includes('$input') ? { input: validBody(ownForm) } : {}) };
      const refused = await graphql(ctx.app, operation, variables, { 'x-api-key': limited });
      expect(
        refused.body.errors?.map((e) => e.message),
        operation,
      ).toEqual([`A key limited to forms cannot ${refusal}`]);
    }
    // The audit log names every form: a key limited to forms holds no audit:read (form-limited-scopes.test.ts).
    const audit = await graphql(ctx.app, 'query($e: ID!) { auditLog(environmentId: $e) { edges { cursor } } }', { e: tenant.environmentId }, { 'x-api-key': limited });
    expect(audit.body.errors?.map((e) => e.message)).toEqual(['API key lacks the scope audit:read']);
    // A lead of its own form's response: refused the same way; the outside form's: not found (above).
    const own = await graphql(ctx.app, 'mutation($id: ID!) { eraseLead(id: $id) { erased } }', { id: outside.lead }, { 'x-api-key': limited });
    expect(own.body.errors?.map((e) => e.message)).toEqual(['Lead not found']);
  });

  it('makes webhook endpoints of its own forms only', async () => {
    // A receiver on this machine: no name to resolve.
    const app = appWith(ctx.db, { webhooks: { ...testConfig().webhooks, allowPrivate: true } });
    const hook = { url: 'http://127.0.0.1:9/in', eventTypes: ['response.created'] };
    const post = (body: Record<string, unknown>) => app.request('/api/v1/webhooks', jsonRequest('POST', { ...hook, ...body }, { 'x-api-key': limited }));
    const mine = await post({});
    const created = (await mine.json()) as { id: string };
    expect({ status: mine.status, body: created }).toMatchObject({ status: 201, body: { formIds: [ownForm] } });
    const everyForm = await app.request(`/api/v1/webhooks/${created.id}`, jsonRequest('PATCH', { formIds: null }, { 'x-api-key': limited }));
    expect({ status: everyForm.status, body: await everyForm.json() }).toEqual({
      status: 400,
      body: { message: 'Invalid request body', errors: [{ message: 'A key limited to forms can make an endpoint of its own forms only', path: ['formIds'] }] },
    });
    const walled = await post({ formIds: [outside.form] });
    const foreignForm = await app.request('/api/v1/webhooks', jsonRequest('POST', { ...hook, formIds: [foreign.form] }, full()));
    expect({ status: walled.status, body: normalised(await walled.text(), outside) }).toEqual({
      status: foreignForm.status,
      body: normalised(await foreignForm.text(), foreign),
    });
  });

  it('creates keys limited to forms over REST, GraphQL and within the creator’s own forms', async () => {
    const keysPath = `/api/v1/environments/${tenant.environmentId}/keys`;
    const made = await ctx.app.request(keysPath, jsonRequest('POST', { scopes: ['forms:read', 'keys:manage'], formIds: [ownForm, outside.form] }, full()));
    expect(made.status).toBe(201);
    const manager = (await made.json()) as { key: string; formIds: string[] };
    expect(manager.formIds).toEqual([ownForm, outside.form]);
    const wider = await ctx.app.request(keysPath, jsonRequest('POST', { formIds: [ownForm, foreign.form] }, { 'x-api-key': manager.key }));
    expect(await wider.json()).toEqual({
      message: 'Invalid arguments',
      errors: [{ message: 'A key can grant only its own forms; it is not limited to this one', path: ['formIds', 1] }],
    });
    const inherited = (await (await ctx.app.request(keysPath, jsonRequest('POST', {}, { 'x-api-key': manager.key }))).json()) as { formIds: string[] };
    expect(inherited.formIds).toEqual([ownForm, outside.form]);
    const foreignForm = await ctx.app.request(keysPath, jsonRequest('POST', { formIds: [foreign.form] }, full()));
    expect(((await foreignForm.json()) as { errors: unknown[] }).errors).toEqual([{ message: 'No form with this id in the environment', path: ['formIds', 0] }]);
    const tooMany = await ctx.app.request(keysPath, jsonRequest('POST', { formIds: Array.from({ length: 101 }, (_, i) => `f${i}`) }, full()));
    expect(tooMany.status).toBe(400);
    const gql = await graphql(
      ctx.app,
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { formIds } } }',
      { input: { environmentId: tenant.environmentId, formIds: [ownForm] } },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(gql.body.data.createApiKey.apiKey.formIds).toEqual([ownForm]);
    // A manager of one form lists (and revokes) only keys of its own forms: not the key limited to the outside form.
    const narrow = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['keys:manage'], formIds: [ownForm] });
    const listed = (await (await ctx.app.request(keysPath, { headers: { 'x-api-key': narrow.key } })).json()) as { data: { id: string }[] };
    expect(listed.data.map((k) => k.id)).toContain(narrow.id);
    expect(listed.data.map((k) => k.id)).not.toContain(outside.key);
  });
});
