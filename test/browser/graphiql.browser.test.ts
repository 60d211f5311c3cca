/**
 * GraphiQL works offline under its Content-Security-Policy: Debian's chromium (playwright-core) opens
 * /graphql and, before any key is typed in, the schema loads (the Docs panel fills) with no error in the
 * result pane; with an API key typed into the Headers tab a query runs; no CSP violation and no request
 * leaving the server's origin. And the `responseEvents` subscription runs in it and shows an event when
 * someone submits the form.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { type Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.ts';
import { pino } from 'pino';
import { beforeAll, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { openEventFeed } from '../../src/events/notifications.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { ADMIN_TOKEN, checkedApp, createTenant, jsonRequest, setupTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';
import { onFileEnd } from '../support/cleanup.ts';

let server: ServerType;
let browser: Browser;
let base: string;
let tenant: TestTenant;
let form: Form;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const { db, handle } = await setupTestApp();
  // With the node's event feed, as src/main.ts builds it: subscriptions need it.
  const logger = pino({ level: 'silent' });
  const events = await openEventFeed(handle, { databaseUrl: inject('testDatabaseUrl'), logger });
  app = checkedApp(createApp({ config: testConfig(), db, logger, adminToken: ADMIN_TOKEN, events }));
  onFileEnd(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await events.close();
  });
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, [
    { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
    { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Else?' } }] },
  ]);
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

it('opens without an error, shows the documentation without a key, and runs a query with a key, with no CSP violation', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  /** Bodies of GraphiQL's own /graphql requests (its schema introspection first). */
  const answers: Promise<string>[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) foreign.push(url);
  });
  page.on('response', (response) => {
    if (response.url().startsWith(`${base}/graphql`) && response.request().method() === 'POST') answers.push(response.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`Refused to load: CSP ${event.violatedDirective} ${event.blockedURI}`));
  });

  const response = await page.goto(`${base}/graphql`);
  expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });

  // No key yet: the schema loads by itself, so the Docs panel lists the root types and their fields.
  await page.getByLabel('Show Documentation Explorer').click();
  await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('Query');
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().click();
  await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toContain('environmentResponses');
  // ...and nothing went wrong on the way: the introspection was answered with data, and the result pane is empty.
  expect(answers.length).toBeGreaterThan(0);
  for (const body of await Promise.all(answers)) {
    expect(JSON.parse(body)).not.toHaveProperty('errors');
    expect(JSON.parse(body).data.__schema.queryType.name).toBe('Query');
  }
  expect((await page.locator('.graphiql-response').innerText()).trim()).toBe('');

  // The Headers tab is open with {"x-api-key": ""}: put the key in and run a query.
  const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
  await headersEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`{"x-api-key": "${tenant.apiKey}"}`);
  const queryEditor = page.locator('.graphiql-query-editor .graphiql-editor').first();
  await queryEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`query { form(id: "${tenant.templateId}") { name status } }`);
  await page.keyboard.press('ControlOrMeta+Enter');

  const result = page.locator('.graphiql-response');
  await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain('PUBLISHED');
  await page.screenshot({ path: new URL('../../.scratch/graphiql.png', import.meta.url).pathname });
  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});

it('runs the responseEvents subscription and shows an event when someone submits', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${base}/graphql`);
  await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
  const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
  await headersEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`{"x-api-key": "${tenant.apiKey}"}`);
  const queryEditor = page.locator('.graphiql-query-editor .graphiql-editor').first();
  await queryEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(`subscription { responseEvents(formId: "${form.id}") { type formId data } }`);

  // Run it, and wait until the server holds the subscription open (GraphiQL streams it over SSE).
  const subscribed = page.waitForResponse(
    (response) => response.url().startsWith(`${base}/graphql`) && response.status() === 200 && (response.headers()['content-type'] ?? '').includes('text/event-stream'),
    { timeout: 20_000 },
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await subscribed;

  // Someone answers the form: the event appears in GraphiQL's result pane.
  const answer = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [form.steps[0]!.components[0]!.id]: 'Ada Lovelace' }, finished: true }));
  expect(answer.status).toBe(201);
  const result = page.locator('.graphiql-response');
  await expect.poll(() => result.innerText(), { timeout: 20_000 }).toContain('response.finished');
  const text = await result.innerText(); // the editor renders the lines in view: type and formId come first
  expect(text).toContain(form.id);
  await page.screenshot({ path: new URL('../../.scratch/graphiql-subscription.png', import.meta.url).pathname });
  expect(problems).toEqual([]);
});
