/** POST /api/v1/environments/{environmentId}/forms/generate, exactly as the v1 contract (docs/rest.md) documents it. */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/auth/auth.service.ts';
import { forms } from '../../src/db/schema.ts';
import { deleteForm } from '../../src/forms/forms.service.ts';
import { defaultComponentStyle } from '../../src/forms/theme.ts';
import { createTenant, jsonRequest, setupTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
});

const generatePath = (environmentId: string) => `/api/v1/environments/${environmentId}/forms/generate`;

async function generate(body: unknown, { environmentId = tenant.environmentId, apiKey = tenant.apiKey }: { environmentId?: string; apiKey?: string | null } = {}) {
  const headers: Record<string, string> = apiKey === null ? {} : { 'x-api-key': apiKey };
  const response = await ctx.app.request(generatePath(environmentId), jsonRequest('POST', body, headers));
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

const storedForm = async (id: string) => (await ctx.db.select().from(forms).where(eq(forms.id, id)))[0]!;

describe('success', () => {
  it('returns 200 {success, result: {form: {id, url}}} and stores the form as published', async () => {
    const { status, body } = await generate(validBody(tenant.templateId));
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, result: { form: { id: expect.any(String), url: `/s/${body.result.form.id}` } } });
    const form = await storedForm(body.result.form.id);
    expect(form).toMatchObject({ environmentId: tenant.environmentId, name: 'Generated form', status: 'published', sourceFormId: tenant.templateId });
  });

  it('stores every component with a stable unique id and its aliases normalised', async () => {
    const { body } = await generate(
      validBody(tenant.templateId, [
        {
          name: 'One',
          components: [
            { type: 'Dropdown', content: { question: 'Size?', choices: ['S', 'M'] } },
            { type: 'MultipleOptionsQuestion', content: { options: ['a', 'b'], isMulti: true } },
            { type: 'NextButton', content: { buttonText: 'Go' } },
          ],
        },
        {
          name: 'Two',
          components: [
            { type: 'Scheduler', content: { calendarUrl: 'https://savvycal.com/a', calendarType: 'SavvyCal' } },
            { type: 'IdentityInfo', content: { fields: [{ type: 'text', name: 'phone', label: 'Phone', required: true }] } },
          ],
        },
      ]),
    );
    const form = await storedForm(body.result.form.id);
    const components = form.steps.flatMap((step) => step.components);
    expect(components.map((c) => c.content)).toEqual([
      { question: 'Size?', options: ['S', 'M'] },
      { choices: ['a', 'b'], isMulti: true },
      { label: 'Go' },
      { dataUrl: 'https://savvycal.com/a', calendarType: 'SavvyCal' },
      { fields: [{ key: 'phoneNumber', label: 'Phone', required: true }] },
    ]);
    const ids = [...form.steps.map((s) => s.id), ...components.map((c) => c.id)];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[a-z0-9]{20,}$/.test(id))).toBe(true);
    expect((await storedForm(form.id)).steps).toEqual(form.steps); // stable across reads
  });
});

describe('validation', () => {
  it('reports every problem at once with paths from the body root', async () => {
    const { status, body } = await generate({
      sourceFormId: tenant.templateId,
      steps: [
        {
          name: 'Bad',
          components: [
            { type: 'Nope', content: {} },
            { type: 'CalendlyScreen', content: { message: 'Pick a time' } },
            { type: 'IdentityInfo', content: { fields: [{ key: 'nickname', label: 'Nick' }], extra: true } },
            { type: 'Dropdown', content: { options: [] } },
            { type: 'ShortInput', content: 'question?' },
            { type: 'Scheduler', content: { dataUrl: 'javascript:alert(1)', calendarType: 'Outlook' } },
          ],
        },
        { name: 'Empty', components: [] },
      ],
    });
    expect(status).toBe(400);
    expect(body.message).toBe('Invalid request body');
    const byPath = Object.fromEntries(body.errors.map((e: { path: unknown[]; message: string }) => [JSON.stringify(e.path), e.message]));
    expect(byPath).toEqual({
      '["name"]': 'Required',
      '["steps",0,"components",0,"type"]': 'Unknown component type "Nope"',
      '["steps",0,"components",1,"content"]': "CalendlyScreen requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')",
      '["steps",0,"components",2,"content","fields",0,"key"]': expect.stringContaining('Unknown IdentityInfo field key "nickname"'),
      '["steps",0,"components",2,"content"]': 'Unrecognized key: "extra"',
      '["steps",0,"components",3,"content"]': "Dropdown requires at least 1 option (via 'options' or 'choices')",
      '["steps",0,"components",4,"content"]': 'Component content must be an object',
      '["steps",0,"components",5,"content","dataUrl"]': 'must be an http(s) URL',
      '["steps",0,"components",5,"content","calendarType"]': expect.stringContaining('Calendly'),
      '["steps",1,"components"]': 'A step needs at least 1 component',
    });
  });

  it('matches the documented example for a scheduler without a URL', async () => {
    const { status, body } = await generate(
      validBody(tenant.templateId, [
        {
          name: 'A',
          components: [
            { type: 'Header', content: { title: 'Hi' } },
            { type: 'CalendlyScreen', content: {} },
          ],
        },
        { name: 'B', components: [{ type: 'NextButton', content: {} }] },
      ]),
    );
    expect(status).toBe(400);
    expect(body).toEqual({
      message: 'Invalid request body',
      errors: [{ message: "CalendlyScreen requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')", path: ['steps', 0, 'components', 1, 'content'] }],
    });
  });

  it('rejects fewer than 2 steps and a non-string name', async () => {
    const { status, body } = await generate({ sourceFormId: tenant.templateId, name: 42, steps: [validBody('x').steps[0]] });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      { path: ['name'], message: expect.any(String) },
      { path: ['steps'], message: 'A form needs at least 2 steps' },
    ]);
  });

  it.each([
    ['not JSON', '{"sourceFormId": ', 'Body must be valid JSON'],
    ['an array', '[1,2]', 'Body must be a JSON object'],
    ['a string', '"hello"', 'Body must be a JSON object'],
    ['null', 'null', 'Body must be a JSON object'],
    ['empty', '', 'Body must be valid JSON'],
  ])('answers a body that is %s with the same 400', async (_, raw, message) => {
    const { status, body } = await generate(raw);
    expect(status).toBe(400);
    expect(body).toEqual({ message: 'Invalid request body', errors: [{ message, path: [] }] });
  });

  it('answers an oversized body with 413', async () => {
    const { status, body } = await generate({ ...validBody(tenant.templateId), name: 'x'.repeat(1_100_000) });
    expect(status).toBe(413);
    expect(body.message).toMatch(/too large/);
  });
});

describe('source form', () => {
  it('is 404 when missing, deleted, or in another environment', async () => {
    const deleted = (await generate(validBody(tenant.templateId))).body.result.form.id;
    await deleteForm(ctx.db, tenant.environmentId, deleted);
    for (const sourceFormId of ['does-not-exist', deleted, other.templateId]) {
      const { status, body } = await generate(validBody(sourceFormId));
      expect(status, sourceFormId).toBe(404);
      expect(body).toEqual({ message: 'Source form not found' });
    }
  });

  it('may be a generated form itself', async () => {
    const first = (await generate(validBody(tenant.templateId))).body.result.form.id;
    expect((await generate(validBody(first))).status).toBe(200);
  });
});

describe('authentication', () => {
  it('is 401 without a key and with an unknown or malformed key', async () => {
    expect(await generate(validBody(tenant.templateId), { apiKey: null })).toMatchObject({ status: 401, body: { message: 'Missing API key' } });
    const unknown = tenant.apiKey.replace(/_[^_]+$/, `_${'A'.repeat(43)}`);
    for (const apiKey of [unknown, 'garbage', `${tenant.apiKey}x`]) {
      expect(await generate(validBody(tenant.templateId), { apiKey })).toMatchObject({ status: 401, body: { message: 'Invalid API key' } });
    }
  });

  it('is 401 with a revoked key', async () => {
    const revoked = await createTenant(ctx.db);
    expect((await generate(validBody(revoked.templateId), { environmentId: revoked.environmentId, apiKey: revoked.apiKey })).status).toBe(200);
    await revokeApiKey(ctx.db, revoked.apiKeyId);
    expect(await generate(validBody(revoked.templateId), { environmentId: revoked.environmentId, apiKey: revoked.apiKey })).toMatchObject({
      status: 401,
      body: { message: 'Invalid API key' },
    });
  });

  it("is 403 with another environment's key, before the body is looked at", async () => {
    for (const body of [validBody(other.templateId), 'not json']) {
      expect(await generate(body, { environmentId: other.environmentId })).toMatchObject({
        status: 403,
        body: { message: 'API key does not grant access to this environment' },
      });
    }
  });

  it('never sends a stack trace in a 4xx body', async () => {
    for (const result of [await generate('{'), await generate(validBody('nope')), await generate({}, { apiKey: null })]) {
      expect(result.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
      expect(Object.keys(result.body).sort()).toEqual(result.status === 400 ? ['errors', 'message'] : ['message']);
    }
  });
});

describe('style inheritance', () => {
  it('copies the template theme and gives uncovered component types default styles', async () => {
    const template = tenant.template.theme!;
    expect(Object.keys(template.componentStyles).sort()).toEqual(['Dropdown', 'Header', 'IdentityInfo', 'NextButton']);
    const { body } = await generate(
      validBody(tenant.templateId, [
        {
          name: 'A',
          components: [
            { type: 'Dropdown', content: { options: ['x'] } },
            { type: 'ShortInput', content: {} },
          ],
        },
        { name: 'B', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/a' } }] },
      ]),
    );
    const { theme } = await storedForm(body.result.form.id);
    expect(theme.fonts).toEqual(template.fonts);
    expect(theme.colors).toEqual(template.colors);
    expect(theme.background).toEqual(template.background);
    expect(theme.layout).toEqual(template.layout);
    // Covered by the template: inherited as is (including types the new form doesn't use).
    expect(theme.componentStyles.Dropdown).toEqual(template.componentStyles.Dropdown);
    expect(theme.componentStyles.Header).toEqual(template.componentStyles.Header);
    // Not covered: defaults.
    expect(theme.componentStyles.ShortInput).toEqual(defaultComponentStyle('ShortInput', template.colors));
    expect(theme.componentStyles.CalendlyScreen).toEqual(defaultComponentStyle('CalendlyScreen', template.colors));
  });
});

describe('routing', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.app.request('/api/v1/nothing', { method: 'GET' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'No such endpoint: GET /api/v1/nothing' });
  });
});
