/**
 * The MCP server through the SDK's own client over real HTTP (Streamable HTTP): the handshake, the tools
 * a key's scopes allow, generating a form from a template and reading its responses, errors with REST's
 * messages and paths, tenancy, and the API's edge (credentials, rate limit).
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { desc, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { formVersions, forms } from '../../src/db/schema.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { insertResponse } from '../support/factories.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let other: TestTenant;
let server: ServerType;
let base: string;
const clients: Client[] = [];
/** Servers of other configurations a test started. */
const servers: ServerType[] = [];

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const running of [server, ...servers]) await new Promise((resolve) => running.close(resolve));
});

async function connect(key: string, url = `${base}/mcp`) {
  const client = new Client({ name: 'formloom-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': key } } }));
  clients.push(client);
  return client;
}

/** A client of a server of its own, with `overrides` in its configuration. */
async function connectConfigured(overrides: Parameters<typeof testConfig>[0]) {
  const app = createApp({ config: testConfig(overrides), db: ctx.db, logger: pino({ level: 'silent' }), adminToken: ADMIN_TOKEN });
  const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => running.once('listening', resolve));
  servers.push(running);
  return connect(tenant.apiKey, `http://127.0.0.1:${(running.address() as AddressInfo).port}/mcp`);
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((result.content as { text: string }[])[0]!.text) as unknown;

describe('MCP over Streamable HTTP', () => {
  it('initialises and lists every tool for a full key, only the read tools for a responses:read key', async () => {
    const full = await connect(tenant.apiKey);
    expect(full.getServerVersion()?.name).toBe('formloom');
    const tools = (await full.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      'close_form',
      'export_responses',
      'form_summary',
      'generate_form',
      'get_form',
      'get_response',
      'list_forms',
      'list_responses',
      'list_webhooks',
      'update_form',
    ]);
    const generate = tools.find((t) => t.name === 'generate_form')!;
    expect(generate.inputSchema.properties).toHaveProperty('steps');
    expect(generate.outputSchema?.properties).toHaveProperty('url');
    expect(generate.description).toContain('forms:write');

    const reader = await connect((await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['responses:read'] })).key);
    expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(['list_responses', 'get_response', 'form_summary', 'export_responses']);
    expect((await reader.listResources()).resources).toEqual([]);
    expect((await reader.listPrompts()).prompts.map((p) => p.name)).toEqual(['summarise_form_responses']);
    const refused = await reader.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toEqual({ message: 'API key lacks the scope forms:write' });
  });

  it('generates a form from a template, and reads its responses and definition', async () => {
    const client = await connect(tenant.apiKey);
    const generated = await client.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) });
    expect(generated.isError).toBeFalsy();
    const form = generated.structuredContent as { id: string; url: string };
    expect(form.url).toBe(`/s/${form.id}`);
    expect(text(generated)).toEqual(form);

    const submitted = await ctx.app.request(`/s/${form.id}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: {}, finished: false }),
    });
    expect(submitted.status).toBe(201);
    const listed = await client.callTool({
      name: 'list_responses',
      arguments: { formId: form.id, includePartials: true },
    });
    const { responses, nextCursor } = listed.structuredContent as {
      responses: { formId: string }[];
      nextCursor: string | null;
    };
    expect(responses.map((r) => r.formId)).toEqual([form.id]);
    expect(nextCursor).toBeNull();

    const read = await client.callTool({ name: 'get_form', arguments: { formId: form.id } });
    expect(read.structuredContent).toMatchObject({
      id: form.id,
      status: 'published',
      definition: { name: 'Generated form' },
    });
    const forms = await client.callTool({ name: 'list_forms', arguments: { limit: 100 } });
    expect((forms.structuredContent as { forms: { id: string }[] }).forms.map((f) => f.id)).toContain(form.id);
  });

  it('updates a form, reads a response, a summary, an export, the form as a resource and the summary prompt', async () => {
    const client = await connect(tenant.apiKey);
    const generated = await client.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) });
    const form = generated.structuredContent as { id: string };
    const updated = await client.callTool({
      name: 'update_form',
      arguments: { formId: form.id, expectedVersion: 1, changes: { name: 'Renamed by an agent' } },
    });
    expect(updated.structuredContent).toEqual({ id: form.id, url: `/s/${form.id}`, version: 2 });
    const stale = await client.callTool({ name: 'update_form', arguments: { formId: form.id, expectedVersion: 1, changes: { name: 'Again' } } });
    expect(stale.isError).toBe(true);
    const badSteps = await client.callTool({ name: 'update_form', arguments: { formId: form.id, changes: { steps: [] } } });
    const restPatch = await ctx.app.request(`/api/v1/forms/${form.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({ steps: [] }),
    });
    expect(text(badSteps)).toEqual(await restPatch.json());

    for (let i = 0; i < 3; i++) {
      const submitted = await ctx.app.request(`/s/${form.id}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: JSON.stringify({ answers: {}, finished: false }),
      });
      expect(submitted.status).toBe(201);
    }
    const exported = await client.callTool({ name: 'export_responses', arguments: { formId: form.id, includePartials: true, limit: 2 } });
    const { responses, truncated } = exported.structuredContent as { responses: { id: string; formId: string }[]; truncated: boolean };
    expect({ count: responses.length, truncated }).toEqual({ count: 2, truncated: true });
    const all = await client.callTool({ name: 'export_responses', arguments: { formId: form.id, includePartials: true } });
    expect(all.structuredContent).toMatchObject({ truncated: false, responses: expect.arrayContaining([expect.objectContaining({ formId: form.id })]) });
    expect((all.structuredContent as { responses: unknown[] }).responses).toHaveLength(3);

    const one = await client.callTool({ name: 'get_response', arguments: { responseId: responses[0]!.id } });
    expect(one.structuredContent).toMatchObject({ response: { id: responses[0]!.id, formId: form.id } });
    const missing = await client.callTool({ name: 'get_response', arguments: { responseId: 'k4n2iogu5ks9ut7lahuxkl27' } });
    expect(text(missing)).toEqual({ message: 'Response not found' });

    const summary = await client.callTool({ name: 'form_summary', arguments: { formId: form.id } });
    expect(summary.structuredContent).toMatchObject({ formId: form.id, name: 'Renamed by an agent', summary: { total: 3, finished: 0 } });

    const resources = (await client.listResources()).resources;
    expect(resources.map((r) => r.uri)).toContain(`formloom://forms/${form.id}`);
    const resource = await client.readResource({ uri: `formloom://forms/${form.id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({ id: form.id, version: 2, definition: { name: 'Renamed by an agent' } });
    await expect(client.readResource({ uri: `formloom://forms/${other.templateId}` })).rejects.toThrow('Form not found');

    const prompt = await client.getPrompt({ name: 'summarise_form_responses', arguments: { formId: form.id } });
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    expect(promptText).toContain('Renamed by an agent');
    expect(promptText).toContain('"total":3');
  });

  it('exports as CSV the REST export’s CSV (a form’s columns, the environment’s), with the same limit and refusals', async () => {
    const csvTenant = await createTenant(ctx.db);
    const form = await makeForm(
      ctx.db,
      csvTenant,
      [
        {
          name: 'One',
          components: [
            { type: 'ShortInput', content: { question: 'Name, "nick"' } },
            { type: 'LongInput', content: { question: '=HYPERLINK("x")' } },
          ],
        },
        { name: 'Two', components: [{ type: 'NextButton', content: { label: 'Send' } }] },
      ],
      'CSV form',
      { hiddenFields: ['utm'] },
    );
    const base = { componentShapeVersion: '2.0' };
    for (let i = 0; i < 3; i++) {
      await insertResponse(ctx.db, {
        environmentId: csvTenant.environmentId,
        formId: form.id,
        createdAt: `2026-01-0${i + 1}T10:00:00.000Z`,
        meta: { hiddenFields: { utm: `-campaign ${i}` } },
        data: [
          { questionId: componentAt(form, 0, 0).id, response: { ...base, type: 'ShortInput', headline: 'Name, "nick"', input: `a "quoted", multi\r\nline answer ${i}` } },
          { questionId: componentAt(form, 0, 1).id, response: { ...base, type: 'LongInput', headline: '=HYPERLINK("x")', input: '=1+1' } },
        ],
      });
    }
    const restCsv = async (query: string) =>
      (await ctx.app.request(`/api/v1/responses/export?format=csv&returnPartials=true${query}`, { headers: { 'x-api-key': csvTenant.apiKey } })).text();
    const reader = await connect((await createApiKey(ctx.db, { environmentId: csvTenant.environmentId, scopes: ['responses:read'] })).key);
    const exported = async (args: Record<string, unknown>) => {
      const result = await reader.callTool({ name: 'export_responses', arguments: { format: 'csv', includePartials: true, ...args } });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as { csv: string; truncated: boolean; responses?: unknown };
    };

    const ofForm = await exported({ formId: form.id });
    expect(ofForm).toEqual({ csv: await restCsv(`&formId=${form.id}`), truncated: false });
    expect(ofForm.csv.split('\r\n')[0]).toContain(`"Name, ""nick"" [${componentAt(form, 0, 0).id}]"`);
    expect(ofForm.csv).toContain(`'-campaign 2`);
    expect(await exported({})).toEqual({ csv: await restCsv(''), truncated: false });

    const two = await exported({ formId: form.id, limit: 2 });
    expect(two.truncated).toBe(true);
    const restLines = (await restCsv(`&formId=${form.id}`)).split('\r\n');
    // The header row and the two newest responses (their answers span two lines each).
    expect(two.csv).toBe(`${restLines.slice(0, 5).join('\r\n')}\r\n`);
    const json = await reader.callTool({ name: 'export_responses', arguments: { formId: form.id, includePartials: true, format: 'json' } });
    expect((json.structuredContent as { responses: unknown[] }).responses).toHaveLength(3);
    expect(json.structuredContent).not.toHaveProperty('csv');

    const foreign = await reader.callTool({ name: 'export_responses', arguments: { formId: other.templateId, format: 'csv' } });
    expect(text(foreign)).toEqual({ message: 'Form not found' });
    const limited = await connect((await createApiKey(ctx.db, { environmentId: csvTenant.environmentId, formIds: [csvTenant.templateId] })).key);
    const walled = await limited.callTool({ name: 'export_responses', arguments: { formId: form.id, format: 'csv' } });
    expect(text(walled)).toEqual({ message: 'Form not found' });
    const tooMany = await reader.callTool({ name: 'export_responses', arguments: { format: 'csv', limit: 1001 } });
    expect(text(tooMany)).toMatchObject({ message: 'Invalid request body', errors: [{ path: ['limit'] }] });
    const badFormat = await reader.callTool({ name: 'export_responses', arguments: { format: 'xlsx' } });
    expect(text(badFormat)).toMatchObject({ message: 'Invalid request body', errors: [{ path: ['format'] }] });
  });

  it('keeps a key limited to forms to its forms: others are not found, listings hold only its own', async () => {
    const limited = await createApiKey(ctx.db, { environmentId: tenant.environmentId, formIds: [tenant.templateId] });
    const client = await connect(limited.key);
    const generated = await connect(tenant.apiKey).then((full) => full.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) }));
    const outside = (generated.structuredContent as { id: string }).id;
    for (const [name, args] of [
      ['get_form', { formId: outside }],
      ['close_form', { formId: outside }],
      ['form_summary', { formId: outside }],
      ['list_responses', { formId: outside }],
      ['update_form', { formId: outside, changes: { name: 'x' } }],
    ] as const) {
      const walled = await client.callTool({ name, arguments: args });
      const foreign = await client.callTool({ name, arguments: { ...args, formId: other.templateId } });
      expect(text(walled), name).toEqual(text(foreign));
      expect(text(walled), name).toEqual({ message: 'Form not found' });
    }
    const forms = await client.callTool({ name: 'list_forms', arguments: {} });
    expect((forms.structuredContent as { forms: { id: string }[] }).forms.map((f) => f.id)).toEqual([tenant.templateId]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([`formloom://forms/${tenant.templateId}`]);
    const generate = await client.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) });
    expect(text(generate)).toEqual({ message: 'A key limited to forms cannot create forms' });
  });

  it('reports errors with the messages and paths REST gives', async () => {
    const client = await connect(tenant.apiKey);
    const body = validBody(tenant.templateId, [
      { name: 'One', components: [{ type: 'NextButton', content: { label: 'Next' } }] },
      { name: 'Two', components: [{ type: 'CalendlyScreen', content: {} }] },
    ]);
    const result = await client.callTool({ name: 'generate_form', arguments: body });
    const rest = await ctx.app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify(body),
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toEqual(await rest.json());
    expect((text(result) as { errors: { path: unknown[] }[] }).errors.map((e) => e.path)).toContainEqual(['steps', 1, 'components', 0, 'content']);
    const limit = await client.callTool({ name: 'list_responses', arguments: { limit: 1000 } });
    expect(text(limit)).toMatchObject({ message: 'Invalid request body', errors: [{ path: ['limit'] }] });
  });

  it('keeps tenants apart: another environment’s form is not found', async () => {
    const client = await connect(tenant.apiKey);
    const read = await client.callTool({ name: 'get_form', arguments: { formId: other.templateId } });
    expect(text(read)).toEqual({ message: 'Form not found' });
    const closed = await client.callTool({ name: 'close_form', arguments: { formId: other.templateId } });
    expect(text(closed)).toEqual({ message: 'Form not found' });
  });

  it('carries at most GRAPHQL_MAX_DEFINITION_BYTES of definitions in one result: past it get_form and the resource are refused', async () => {
    const [stored] = await ctx.db.select({ steps: forms.steps }).from(forms).where(eq(forms.id, tenant.templateId));
    const size = Buffer.byteLength(JSON.stringify(stored!.steps));
    const served = (maxDefinitionBytes: number) => connectConfigured({ graphql: { ...testConfig().graphql, maxDefinitionBytes } });
    const exact = await served(size);
    // Each call has a budget of its own: the second read fits as the first did.
    for (let i = 0; i < 2; i++) expect((await exact.callTool({ name: 'get_form', arguments: { formId: tenant.templateId } })).isError).toBeFalsy();

    const short = await served(size - 1);
    const refused = await short.callTool({ name: 'get_form', arguments: { formId: tenant.templateId } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toEqual({
      message: expect.stringMatching(new RegExp(`^The steps of form ${tenant.templateId} would pass the 0\\.0 MB of definitions one request may read`)),
    });
    await expect(short.readResource({ uri: `formloom://forms/${tenant.templateId}` })).rejects.toThrow('would pass the 0.0 MB of definitions');
    // What carries no definition is answered as before.
    expect((await short.callTool({ name: 'list_forms', arguments: {} })).isError).toBeFalsy();
  });

  it("reads a form's versions for the CSV export's columns a page at a time, each page with a budget of its own, as REST does", async () => {
    const client = await connect(tenant.apiKey);
    const { id } = (await client.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) })).structuredContent as { id: string };
    for (let i = 2; i <= 11; i++) await client.callTool({ name: 'update_form', arguments: { formId: id, changes: { name: `Version ${i}` } } });
    const sizes = (await ctx.db.select({ bytes: formVersions.definitionBytes }).from(formVersions).where(eq(formVersions.formId, id)).orderBy(desc(formVersions.version))).map(
      (row) => row.bytes,
    );
    expect(sizes).toHaveLength(11);
    // Room for the first page of 10 versions (the newest), not for all 11.
    const page = sizes.slice(0, 10).reduce((sum, bytes) => sum + bytes, 0);
    expect(sizes[10]).toBeLessThanOrEqual(page);
    const limited = await connectConfigured({ graphql: { ...testConfig().graphql, maxDefinitionBytes: page } });
    const exported = await limited.callTool({ name: 'export_responses', arguments: { formId: id, format: 'csv' } });
    expect(exported.isError, JSON.stringify(exported.structuredContent)).toBeFalsy();
    expect((exported.structuredContent as { csv: string }).csv).toMatch(/^id,createdAt/);
  });

  it('update_form keeps to FORM_MAX_VERSIONS, as REST and GraphQL do', async () => {
    const capped = await connectConfigured({ formMaxVersions: 1 });
    const generated = await capped.callTool({ name: 'generate_form', arguments: validBody(tenant.templateId) });
    const { id } = generated.structuredContent as { id: string };
    const refused = await capped.callTool({ name: 'update_form', arguments: { formId: id, changes: { name: 'Two' } } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toEqual({ message: expect.stringContaining('Form has 1 versions, the most a form may have') });
  });

  it('sits behind the API edge: credentials, the admin token refused, the per-key rate limit', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>, target = base) =>
      fetch(`${target}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const missing = await post({});
    expect({ status: missing.status, body: await missing.json() }).toEqual({
      status: 401,
      body: { message: 'Missing API key' },
    });
    const admin = await post({ authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(admin.status).toBe(403);
    const bearer = await post({ authorization: `Bearer ${tenant.apiKey}` });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get('x-content-type-options')).toBe('nosniff');
    const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'x-api-key': tenant.apiKey } });
    expect({ status: stream.status, allow: stream.headers.get('allow') }).toEqual({ status: 405, allow: 'POST' });

    const limited = createApp({
      config: testConfig({ apiRateLimitPerMinute: 2 }),
      db: ctx.db,
      logger: pino({ level: 'silent' }),
      adminToken: ADMIN_TOKEN,
    });
    const limitedServer = serve({ fetch: limited.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => limitedServer.once('listening', resolve));
    try {
      const target = `http://127.0.0.1:${(limitedServer.address() as AddressInfo).port}`;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post({ 'x-api-key': tenant.apiKey }, target)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await new Promise((resolve) => limitedServer.close(resolve));
    }
  });
});
