/** Failures on the public side: malformed bodies and unexpected errors answer in the route's own language. */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { generateForm } from '../../src/forms/forms.service.ts';
import { pino } from 'pino';
import { createApp } from '../../src/app.ts';
import { ADMIN_TOKEN, createTenant, openTestDatabase, setupTestApp, testConfig, validBody, type TestContext } from '../support/helpers.ts';

let ctx: TestContext;
let formId: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  const tenant = await createTenant(ctx.db);
  formId = (await generateForm(ctx.db, tenant.environmentId, generateFormInputSchema.parse(validBody(tenant.templateId)))).id;
});

describe('public page errors', () => {
  it('answers an unreadable form body with a 400 page, not a 500', async () => {
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=xyz']) {
      const response = await ctx.app.request(`/s/${formId}?step=0`, { method: 'POST', headers: { 'content-type': contentType }, body: 'garbage' });
      expect(response.status, contentType).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('The form data could not be read');
    }
  });

  it('answers an unexpected failure with an HTML 500 page on pages and the JSON body on the API', async () => {
    const handle = await openTestDatabase();
    const logs: string[] = [];
    const app = createApp({
      config: testConfig(),
      db: handle.db,
      logger: pino({ level: 'error' }, { write: (line: string) => logs.push(line) }),
      adminToken: ADMIN_TOKEN,
    });
    await handle.close();

    const page = await app.request(`/s/${formId}`);
    expect(page.status).toBe(500);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain('Something went wrong');
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);

    const api = await app.request(`/s/${formId}/definition`);
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ message: 'Internal server error' });
    expect(logs.some((line) => line.includes('"level":50') && line.includes('unexpected error'))).toBe(true);
  });
});
