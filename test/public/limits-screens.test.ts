/**
 * The screens of a form's limits (docs/logic.md, Limits): before `opensAt` the page and the JSON API say the
 * form is not open yet and when it opens, distinct from the closed screen; `closedMessage` and
 * `notYetOpenMessage` are texts like the others of a multilingual form (a string or one per language,
 * checked against the form's languages, in the translation API's stable paths, shown in the page's language).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { generateThroughApi, Visitor } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  app = appWith(ctx.db, { publicRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});
afterEach(() => {
  vi.useRealTimers();
});

const STEPS = [
  { name: 'Name', key: 'name', components: [{ type: 'ShortInput', key: 'first', content: { question: 'Your name?' } }] },
  { name: 'More', key: 'more', components: [{ type: 'ShortInput', key: 'role', content: { question: 'Your role?' } }] },
];
const OPENS = '2031-03-07T09:00:00+01:00';
const OPENS_UTC = '2031-03-07T08:00:00.000Z';
const CLOSES = '2031-03-07T17:00:00+01:00';
const byKey = (form: Form, key: string) => form.steps.flatMap((s) => s.components).find((c) => c.key === key)!;
const key = (): Record<string, string> => ({ 'x-api-key': tenant.apiKey });
const start = async (form: Form) => {
  const response = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [byKey(form, 'first').id]: 'Ada' } }));
  return { status: response.status, body: await response.json() };
};
const page = async (form: Form, query = '') => {
  const response = await new Visitor(app).get(`/s/${form.id}${query}`);
  return { status: response.status, html: await response.text() };
};

describe('before opensAt', () => {
  it('says the form is not open yet and when it opens, on the page and in the JSON API; the closed screen after closesAt', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Friday', STEPS, {
      limits: { opensAt: OPENS, closesAt: CLOSES, closedMessage: 'Registration is over', notYetOpenMessage: 'Registration opens soon' },
    });
    expect(status, JSON.stringify(body)).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-07T07:59:59Z'));
    expect(await start(form)).toEqual({ status: 409, body: { message: 'This form is not open yet', opensAt: OPENS_UTC } });
    const early = await page(form);
    expect(early.status).toBe(410);
    expect(early.html).toContain('<p>Registration opens soon</p>');
    expect(early.html).toContain(`It opens on <time datetime="${OPENS_UTC}">March 7, 2031 at 8:00 AM UTC</time>.`);
    expect(early.html).not.toContain('Registration is over');

    vi.setSystemTime(new Date('2031-03-07T16:00:00Z'));
    expect(await start(form)).toEqual({ status: 409, body: { message: 'This form is no longer accepting responses' } });
    const late = await page(form);
    expect(late.status).toBe(410);
    expect(late.html).toContain('<p>Registration is over</p>');
    expect(late.html).not.toContain('opens');
  });

  it("shows the page's own words without a message, in the form's language", async () => {
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Früh', STEPS, { locale: 'de', limits: { opensAt: '2099-01-01T10:00:00Z' } });
    const early = await page(form);
    expect(early.html).toContain('<p>Dieses Formular ist noch nicht geöffnet.</p>');
    expect(early.html).toContain('Es öffnet am <time datetime="2099-01-01T10:00:00.000Z">1. Januar 2099 um 10:00 UTC</time>.');
  });
});

describe('the messages in several languages', () => {
  const LANGUAGES = { default: 'en', others: ['de', 'fr'] };
  const MESSAGES = {
    opensAt: '2099-01-01T10:00:00Z',
    notYetOpenMessage: { en: 'Not yet', de: 'Noch nicht' },
    closedMessage: 'Over',
  };

  it('takes a text object, shows it in the page language, and gives it back as GET showed it', async () => {
    const { form, status, body } = await generateThroughApi(app, ctx.db, tenant, 'Multi', STEPS, { languages: LANGUAGES, limits: MESSAGES });
    expect(status, JSON.stringify(body)).toBe(200);
    expect((await page(form, '?lang=de')).html).toContain('<p>Noch nicht</p>');
    expect((await page(form, '?lang=fr')).html).toContain('<p>Not yet</p>');
    expect((await page(form)).html).toContain('<p>Not yet</p>');
    const read: any = await (await app.request(`/api/v1/forms/${form.id}`, { headers: key() })).json();
    expect(read.data.limits).toEqual({
      maxResponses: null,
      opensAt: '2099-01-01T10:00:00.000Z',
      closesAt: null,
      closedMessage: 'Over',
      notYetOpenMessage: { en: 'Not yet', de: 'Noch nicht' },
    });
    // Given back as read, nothing is lost; a changed message loses its translations.
    const kept = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: read.data.limits }, key()));
    expect(kept.status).toBe(200);
    expect((await page(form, '?lang=de')).html).toContain('<p>Noch nicht</p>');
    const same = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: { ...read.data.limits, notYetOpenMessage: 'Not yet' } }, key()));
    expect(same.status).toBe(200);
    expect((await page(form, '?lang=de')).html).toContain('<p>Noch nicht</p>');
    await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: { ...read.data.limits, notYetOpenMessage: 'Later' } }, key()));
    expect((await page(form, '?lang=de')).html).toContain('<p>Later</p>');
  });

  it('has stable paths in the translation API', async () => {
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Paths', STEPS, { languages: LANGUAGES, limits: MESSAGES });
    const german: any = await (await app.request(`/api/v1/forms/${form.id}/translations/de`, { headers: key() })).json();
    expect(german['limits.notYetOpenMessage']).toBe('Noch nicht');
    const english: any = await (await app.request(`/api/v1/forms/${form.id}/translations/en`, { headers: key() })).json();
    expect(english).toMatchObject({ 'limits.closedMessage': 'Over', 'limits.notYetOpenMessage': 'Not yet' });
    const statuses: any = await (await app.request(`/api/v1/forms/${form.id}/translations`, { headers: key() })).json();
    expect(statuses.data[2].missing).toEqual(expect.arrayContaining(['limits.closedMessage', 'limits.notYetOpenMessage']));
    const put = await app.request(`/api/v1/forms/${form.id}/translations/fr`, jsonRequest('PUT', { 'limits.notYetOpenMessage': 'Pas encore' }, key()));
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await page(form, '?lang=fr')).html).toContain('<p>Pas encore</p>');
    // The German translation stays.
    expect((await page(form, '?lang=de')).html).toContain('<p>Noch nicht</p>');
  });

  it("refuses a language that is not the form's, a text object without the default language and an empty text, with their paths", async () => {
    const refused = await generateThroughApi(app, ctx.db, tenant, 'Bad', STEPS, {
      languages: LANGUAGES,
      limits: { closedMessage: { en: 'Over', it: 'Finito' }, notYetOpenMessage: { de: 'Noch nicht', fr: '' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.path)).toEqual(
      expect.arrayContaining([
        ['limits', 'closedMessage', 'it'],
        ['limits', 'notYetOpenMessage', 'fr'],
      ]),
    );
    const { form } = await generateThroughApi(app, ctx.db, tenant, 'Kept', STEPS, { languages: LANGUAGES, limits: MESSAGES });
    const bad = await app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { limits: { notYetOpenMessage: { de: 'Noch nicht' } } }, key()));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toContainEqual(expect.objectContaining({ path: ['limits', 'notYetOpenMessage'] }));
  });
});
