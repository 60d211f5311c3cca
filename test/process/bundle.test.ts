/**
 * The bundle `npm start` runs (dist/main.js, built by scripts/build.ts) serves what the sources do:
 * every other process test runs src/main.ts through tsx, so a file the bundle can't find at run time
 * (read relative to a module that moved into dist/) would otherwise only show in production.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { validBody } from '../support/helpers.ts';
import { killLeftovers, startServer, type ServerProcess } from '../support/server-process.ts';
import { onFileEnd } from '../support/cleanup.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: ServerProcess;

beforeAll(async () => {
  // What `npm start`'s prestart does: build when dist/ is missing or older than the sources.
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const dataDir = await mkdtemp(join(tmpdir(), 'formloom-bundle-'));
  onFileEnd(() => rm(dataDir, { recursive: true, force: true }));
  server = await startServer({ DATA_DIR: dataDir }, 'bundle');
  onFileEnd(async () => {
    await server.stop();
    killLeftovers();
  });
}, 180_000);

describe('the built bundle (npm start)', () => {
  it('serves readiness, the API reference, OpenAPI, GraphiQL, a generated form and its page', async () => {
    const demo = server.demo!;
    expect(demo).toBeDefined();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('formloom');
    const openapi = await fetch(`${server.url}/api/v1/openapi.json`, { headers: { 'x-api-key': demo.apiKey } });
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    const graphiql = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);

    const generated = await fetch(`${server.url}/api/v1/environments/${demo.environmentId}/forms/generate`, {
      method: 'POST',
      headers: { 'x-api-key': demo.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(validBody(demo.templateId)),
    });
    expect(generated.status).toBe(200);
    const { result } = (await generated.json()) as { result: { form: { url: string } } };
    const page = await fetch(`${server.url}${result.form.url}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('E-mail');
  });
});
