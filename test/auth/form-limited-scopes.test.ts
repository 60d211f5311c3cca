/**
 * A key limited to forms holds no environment-wide scope (settings:manage, audit:read; docs/keys.md):
 * asking for one is a 400 at the scope's place in REST, GraphQL and the CLI; a key made without scopes
 * gets every other scope; and a key that holds one anyway (made before the rule) is refused its use as a
 * key lacking it, in REST and GraphQL (MCP has no environment-wide tool; its tools check hasScope too).
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { ENVIRONMENT_SCOPES, SCOPES } from '../../src/auth/scopes.ts';
import { runCli } from '../../src/cli.ts';
import { apiKeys } from '../../src/db/schema.ts';
import { createForm } from '../support/factories.ts';
import { ADMIN_TOKEN, createTenant, graphql, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let formId: string;
let server: ServerType;
let base: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  formId = (await createForm(ctx.db, tenant.environmentId, 'Limited')).id;
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const OTHER_SCOPES = SCOPES.filter((scope) => !ENVIRONMENT_SCOPES.includes(scope));
const refusal = (scope: string, index: number) => ({ message: `A key limited to forms cannot hold ${scope}, which acts on the whole environment`, path: ['scopes', index] });
const keysPath = () => `/api/v1/environments/${tenant.environmentId}/keys`;

/** A key limited to the form that holds every scope, the environment-wide ones included (as a key made before the rule could). */
async function keyHoldingEveryScope(): Promise<string> {
  const made = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['forms:read'], formIds: [formId] });
  await ctx.db
    .update(apiKeys)
    .set({ scopes: [...SCOPES] })
    .where(eq(apiKeys.id, made.id));
  return made.key;
}

describe('keys limited to forms and environment-wide scopes', () => {
  it('refuses to make one holding settings:manage or audit:read: REST and GraphQL name each at its place', async () => {
    const rest = await ctx.app.request(
      keysPath(),
      jsonRequest('POST', { scopes: ['forms:read', 'settings:manage', 'keys:manage', 'audit:read'], formIds: [formId] }, { 'x-api-key': tenant.apiKey }),
    );
    expect({ status: rest.status, body: await rest.json() }).toEqual({
      status: 400,
      body: { message: 'Invalid arguments', errors: [refusal('settings:manage', 1), refusal('audit:read', 3)] },
    });
    const gql = await graphql(
      ctx.app,
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id } } }',
      { input: { environmentId: tenant.environmentId, scopes: ['FORMS_READ', 'SETTINGS_MANAGE'], formIds: [formId] } },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(gql.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', errors: [refusal('settings:manage', 1)] } });
    // A key of forms:read and keys:manage limited to the form: it cannot grant them either, with the same message.
    const manager = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['forms:read', 'keys:manage'], formIds: [formId] });
    const byManager = await ctx.app.request(keysPath(), jsonRequest('POST', { scopes: ['audit:read'] }, { 'x-api-key': manager.key }));
    expect(await byManager.json()).toEqual({ message: 'Invalid arguments', errors: [refusal('audit:read', 0)] });
    // Not limited to forms: both are granted.
    const wide = await ctx.app.request(keysPath(), jsonRequest('POST', { scopes: ['settings:manage', 'audit:read'] }, { 'x-api-key': tenant.apiKey }));
    expect(((await wide.json()) as { scopes: string[] }).scopes).toEqual(['settings:manage', 'audit:read']);
  });

  it('refuses it on the command line, and gives a key made without scopes every other scope', async () => {
    const cli = (...args: string[]) => runCli([...args, '--url', base, '--admin-token', ADMIN_TOKEN, '--json']);
    await expect(cli('key', 'create', '--env', tenant.environmentId, '--scopes', 'forms:read,settings:manage', '--form', formId)).rejects.toMatchObject({
      message: 'Invalid arguments',
      details: { errors: [refusal('settings:manage', 1)] },
    });
    const { output } = await cli('key', 'create', '--env', tenant.environmentId, '--form', formId);
    expect(output).toMatchObject({ scopes: OTHER_SCOPES, formIds: [formId] });
    const viewer = await graphql(ctx.app, '{ viewer { scopes apiKey { scopes fullAccess } } }', {}, { 'x-api-key': String(output.key) });
    const enumOf = (scope: string) => scope.replace(':', '_').toUpperCase();
    expect(viewer.body.data.viewer).toEqual({ scopes: OTHER_SCOPES.map(enumOf), apiKey: { scopes: OTHER_SCOPES.map(enumOf), fullAccess: false } });
  });

  it('refuses a key holding one anyway its use, as a key lacking the scope: REST and GraphQL', async () => {
    const key = await keyHoldingEveryScope();
    const headers = { 'x-api-key': key };
    for (const [path, scope] of [
      [`/api/v1/environments/${tenant.environmentId}/settings`, 'settings:manage'],
      ['/api/v1/audit-log', 'audit:read'],
    ] as const) {
      const response = await ctx.app.request(path, { headers });
      expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 403, body: { message: `API key lacks the scope ${scope}` } });
    }
    const patch = await ctx.app.request(`/api/v1/environments/${tenant.environmentId}/settings`, jsonRequest('PATCH', { ipStorage: 'none' }, headers));
    expect(patch.status).toBe(403);
    for (const [operation, scope] of [
      ['{ viewer { environment { ipStorage } } }', 'settings:manage'],
      ['mutation { updateEnvironmentSettings(input: { ipStorage: NONE }) { id } }', 'settings:manage'],
      ['{ auditLog { edges { cursor } } }', 'audit:read'],
    ] as const) {
      const { body } = await graphql(ctx.app, operation, {}, headers);
      expect(
        body.errors?.map((e) => ({ message: e.message, ...e.extensions })),
        operation,
      ).toEqual([expect.objectContaining({ message: `API key lacks the scope ${scope}`, code: 'FORBIDDEN', requiredScope: scope })]);
    }
    const viewer = await graphql(ctx.app, '{ viewer { scopes } }', {}, headers);
    expect(viewer.body.data.viewer.scopes).not.toContain('SETTINGS_MANAGE');
    // What it holds within its forms still works.
    const forms = await ctx.app.request('/api/v1/forms', { headers });
    expect(forms.status).toBe(200);
  });
});
