/**
 * `formloom mcp` as a desktop MCP client runs it: a real child process (bin/formloom.mjs) speaking MCP on
 * stdio, relaying to a running server's /mcp with FORMLOOM_API_KEY, driven by the SDK's own client over
 * its stdio transport: the handshake, the key's tools, a tool call, a resource, and the server's refusals.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../src/app.ts';
import { createApiKey } from '../../src/auth/auth.service.ts';
import { ADMIN_TOKEN, createTenant, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let ctx: TestContext;
let tenant: TestTenant;
let server: ServerType;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await new Promise((resolve) => server.close(resolve));
});

/** A client of a `formloom mcp` child process acting with `key`. */
async function stdioClient(key: string | undefined, url = base) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    FORMLOOM_URL: url,
  };
  if (key) env.FORMLOOM_API_KEY = key;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin/formloom.mjs'), 'mcp'],
    env,
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'desktop-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

describe('formloom mcp (stdio)', () => {
  it('serves the server’s tools for the key, calls them and reads resources', async () => {
    const reader = await createApiKey(ctx.db, { environmentId: tenant.environmentId, scopes: ['forms:read'] });
    const { client } = await stdioClient(reader.key);
    expect(client.getServerVersion()?.name).toBe('formloom');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_forms', 'get_form']);
    const forms = await client.callTool({ name: 'list_forms', arguments: {} });
    expect((forms.structuredContent as { forms: { id: string }[] }).forms.map((f) => f.id)).toEqual([tenant.templateId]);
    const resource = await client.readResource({ uri: `formloom://forms/${tenant.templateId}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toMatchObject({ id: tenant.templateId });
    const refused = await client.callTool({ name: 'close_form', arguments: { formId: tenant.templateId } });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { message: 'API key lacks the scope forms:write' },
    });
  });

  it('keeps tenants apart and passes on the server’s rate limit as a JSON-RPC error', async () => {
    const other = await createTenant(ctx.db);
    const { client } = await stdioClient(tenant.apiKey);
    const foreign = await client.callTool({ name: 'get_form', arguments: { formId: other.templateId } });
    expect(foreign).toMatchObject({ isError: true, structuredContent: { message: 'Form not found' } });

    const config = testConfig({ apiRateLimitPerMinute: 3 });
    const limited = createApp({ config, db: ctx.db, logger: pino({ level: 'silent' }), adminToken: ADMIN_TOKEN });
    const limitedServer = serve({ fetch: limited.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => limitedServer.once('listening', resolve));
    try {
      const limitedUrl = `http://127.0.0.1:${(limitedServer.address() as AddressInfo).port}`;
      const { client: slowed } = await stdioClient(other.apiKey, limitedUrl);
      let refusal: unknown;
      for (let i = 0; i < 5 && refusal === undefined; i++) {
        await slowed.listTools().catch((error: unknown) => (refusal = error));
      }
      expect(refusal).toMatchObject({
        code: -32000,
        message: 'MCP error -32000: Too many requests',
        data: { status: 429 },
      });
    } finally {
      await new Promise((resolve) => limitedServer.close(resolve));
    }
  });

  it('answers with the server’s refusal when the key is wrong, and refuses to start without one', async () => {
    const wrong = `fl_${'a'.repeat(12)}_${'b'.repeat(43)}`;
    await expect(stdioClient(wrong)).rejects.toMatchObject({
      message: 'MCP error -32000: Invalid API key',
      data: { status: 401 },
    });
    const { transport } = await stdioClient(undefined).catch(() => ({ transport: undefined }));
    expect(transport).toBeUndefined();
  });
});
