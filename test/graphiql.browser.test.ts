/**
 * GraphiQL works offline under its Content-Security-Policy: Debian's chromium (playwright-core) opens
 * /graphql, and with an API key typed into the Headers tab the schema loads and a query runs, with no
 * CSP violation and no request leaving the server's origin.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, setupTestApp, type TestTenant } from './helpers.ts';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

let server: ServerType;
let browser: Browser;
let base: string;
let tenant: TestTenant;

beforeAll(async () => {
  const { db, app } = await setupTestApp();
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  tenant = await createTenant(db);
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

it('renders GraphiQL, loads the schema with a key from the Headers tab and runs a query, with no CSP violation', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) foreign.push(url);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`Refused to load: CSP ${event.violatedDirective} ${event.blockedURI}`));
  });

  const response = await page.goto(`${base}/graphql`);
  expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });

  // The Headers tab is open with {"x-api-key": ""}: put the key in.
  const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
  await headersEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`{"x-api-key": "${tenant.apiKey}"}`);

  // Anonymous callers may not introspect: with the key in place, re-fetch the schema and read the docs.
  await page.getByLabel('Re-fetch GraphQL schema').click();
  await page.getByLabel('Show Documentation Explorer').click();
  await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('Query');
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().click();
  await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('environmentResponses');
  const queryEditor = page.locator('.graphiql-query-editor .graphiql-editor').first();
  await queryEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`query { form(id: "${tenant.templateId}") { name status } }`);
  await page.keyboard.press('ControlOrMeta+Enter');

  const result = page.locator('.graphiql-response');
  await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain('PUBLISHED');
  await page.screenshot({ path: new URL('../.scratch/graphiql.png', import.meta.url).pathname });
  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});
