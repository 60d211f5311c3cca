/**
 * A form in en/de/ar answered in each language through the page and the JSON API: the language a
 * respondent sees (`?lang=`, Accept-Language, the default), the switcher, `<html lang dir>`, texts that
 * fall back to the default language, choices stored in the default language, `meta.language`, and the
 * responses listed, exported and summarised as one set.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../src/db/schema.ts';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { answerIn, componentAt, field, generateThroughApi, responsesOf, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

const STEPS = [
  {
    name: { en: 'Contact', de: 'Kontakt', ar: 'اتصال' },
    key: 'contact',
    components: [
      { type: 'ShortInput', key: 'name', content: { question: { en: 'Your name?', de: 'Ihr Name?', ar: 'ما اسمك؟' } } },
      {
        type: 'Dropdown',
        key: 'size',
        content: {
          question: { en: 'Team size?', de: 'Teamgröße?', ar: 'حجم الفريق؟' },
          options: [
            { en: 'Small', de: 'Klein', ar: 'صغير' },
            { en: 'Large', de: 'Groß', ar: 'كبير' },
          ],
          required: true,
        },
      },
    ],
  },
  {
    name: { en: 'More', de: 'Mehr', ar: 'المزيد' },
    key: 'more',
    components: [{ type: 'LongInput', key: 'note', content: { question: { en: 'Anything else?', de: 'Sonst noch etwas?' } } }],
  },
];
/** Every English text of the form: none may show on the German page (all are translated there). */
const ENGLISH = ['Sign-up', 'Contact', 'Your name?', 'Team size?', 'Small', 'Large', 'More', 'Anything else?'];

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ publicRateLimitPerMinute: 0, apiRateLimitPerMinute: 0 }));
  tenant = await createTenant(db);
  const generated = await generateThroughApi(app, db, tenant, 'unused', STEPS, {
    name: { en: 'Sign-up', de: 'Anmeldung', ar: 'التسجيل' },
    languages: { default: 'en', others: ['de', 'ar'] },
  });
  expect(generated.status).toBe(200);
  form = generated.form;
});

const page = async (query: string, headers: Record<string, string> = {}) => {
  const response = await app.request(`/s/${form.id}${query}`, { headers });
  return { status: response.status, html: await response.text() };
};
/** The page's text a respondent reads (the switcher's language names and the scripts left out). */
const visibleText = (html: string) =>
  html
    .replace(/<nav class="fl-languages"[\s\S]*?<\/nav>/, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')
    // eslint-disable-next-line regexp/no-super-linear-move -- runs on the app's own pages in a test, never on client text
    .replace(/<[^>]*>/g, ' ');

describe('the page', () => {
  it("shows ?lang=de in German: the form's texts and the page's own words, none of the English texts", async () => {
    const { status, html } = await page('?lang=de');
    expect(status).toBe(200);
    expect(html).toMatch(/<html lang="de" dir="ltr"/);
    for (const text of ['Anmeldung', 'Kontakt', 'Ihr Name?', 'Teamgröße?', 'Klein', 'Groß', 'Weiter']) expect(html).toContain(text);
    const text = visibleText(html);
    for (const english of ENGLISH) expect(text).not.toContain(english);
    expect(text).not.toContain('Next');
  });

  it('lays Arabic out right to left, and shows an untranslated text in the default language', async () => {
    const first = await page('?lang=ar');
    expect(first.html).toMatch(/<html lang="ar" dir="rtl"/);
    for (const text of ['التسجيل', 'اتصال', 'ما اسمك؟', 'صغير', 'التالي']) expect(first.html).toContain(text);
    for (const english of ['Your name?', 'Small', 'Contact']) expect(visibleText(first.html)).not.toContain(english);
    // The second step's question has no Arabic text: it is shown in English, as the completeness reports.
    const status = await (await app.request(`/api/v1/forms/${form.id}/translations`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(status.data[2].missing).toEqual(['steps.more.components.note.question']);
  });

  it('negotiates Accept-Language (a region falls back to its language), and ?lang= wins', async () => {
    expect((await page('', { 'accept-language': 'de-CH, en;q=0.5' })).html).toMatch(/<html lang="de"/);
    expect((await page('', { 'accept-language': 'fr, ar;q=0.3' })).html).toMatch(/<html lang="ar"/);
    expect((await page('', { 'accept-language': 'fr' })).html).toMatch(/<html lang="en" dir="ltr"/);
    expect((await page('?lang=en', { 'accept-language': 'de' })).html).toMatch(/<html lang="en"/);
    for (const bad of ['xx', 'de%0a', '..', 'a'.repeat(500), '%3Cscript%3E']) {
      const { status, html } = await page(`?lang=${bad}`);
      expect(status, bad).toBe(200);
      expect(html, bad).toMatch(/<html lang="(en|ar)"/);
    }
    expect((await page('?lang=de&lang=ar')).html).toMatch(/<html lang="de"/);
    // A NUL in any parameter is refused at the edge, as everywhere.
    expect((await page('?lang=%00')).status).toBe(400);
  });

  it('has a language switcher on every step: links that work without JavaScript, named, with hreflang', async () => {
    const { html } = await page('?lang=de');
    const nav = /<nav class="fl-languages" aria-label="Sprache">([\s\S]*?)<\/nav>/.exec(html)?.[1];
    expect(nav).toBeDefined();
    expect(nav).toMatch(/<a href="\/s\/[^"]*lang=en[^"]*" hreflang="en" lang="en">English<\/a>/);
    expect(nav).toMatch(/<a href="\/s\/[^"]*lang=ar[^"]*" hreflang="ar" lang="ar">العربية<\/a>/);
    expect(nav).toMatch(/aria-current="true"[^>]*>Deutsch|>Deutsch</);
  });

  it.each([
    ['de', 'Klein', 'Sonst noch etwas?'],
    ['ar', 'صغير', 'Anything else?'],
    ['en', 'Small', 'Anything else?'],
  ])('keeps the language (%s) across the steps and records it; a choice in it is stored as the default option', async (language, small, nextQuestion) => {
    const visitor = new Visitor(app, { 'accept-language': language === 'en' ? 'de' : 'en' });
    const first = await visitor.get(`/s/${form.id}?lang=${language}`);
    const html = await first.text();
    expect(html).toContain(small);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    expect(action).toContain(`lang=${language}`);
    const size = componentAt(form, 0, 1);
    const posted = await visitor.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ [field(componentAt(form, 0, 0))]: 'Ada', [field(size)]: small }).toString(),
    });
    expect(posted.status).toBe(303);
    const next = await visitor.get(posted.headers.get('location')!);
    const second = await next.text();
    expect(second).toMatch(new RegExp(`<html lang="${language}"`));
    expect(second).toContain(nextQuestion);
    const rows = (await responsesOf(db, form.id)).filter((response) => response.meta.source === 'page' && response.meta.language === language);
    expect(rows.map((response) => answerIn(response, size.id)?.selected)).toEqual(['Small']);
  });
});

describe('the JSON API', () => {
  it('gives the definition in ?lang= with the languages', async () => {
    const response = await app.request(`/s/${form.id}/definition?lang=ar`);
    const body = await response.json();
    expect(body).toMatchObject({ name: 'التسجيل', language: 'ar', languages: ['en', 'de', 'ar'], locale: 'ar' });
    expect(body.steps[0].name).toBe('اتصال');
    expect(body.steps[0].components[1].content.options).toEqual(['صغير', 'كبير']);
    expect(body.steps[1].components[0].content.question).toBe('Anything else?');
    expect((await (await app.request(`/s/${form.id}/definition`, { headers: { 'accept-language': 'de' } })).json()).language).toBe('de');
  });

  it('takes `language`, a choice in that language or the default one, and refuses a language the form does not have', async () => {
    const size = componentAt(form, 0, 1);
    const name = componentAt(form, 0, 0);
    const arabic = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { language: 'ar', answers: { [name.id]: 'Layla', [size.id]: 'كبير' } }));
    expect(arabic.status).toBe(201);
    const german = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { language: 'de', answers: { [size.id]: 'Small' } }));
    expect(german.status).toBe(201);
    const english = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [size.id]: 'Small' } }));
    expect(english.status).toBe(201);
    const rows = await responsesOf(db, form.id);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const arabicRow = byId.get((await arabic.json()).id)!;
    expect(answerIn(arabicRow, size.id)).toMatchObject({ selected: 'Large', headline: 'Team size?' });
    expect(arabicRow.meta.language).toBe('ar');
    expect(byId.get((await english.json()).id)!.meta.language).toBe('en');
    const refused = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { language: 'fr', answers: {} }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0].path).toEqual(['language']);
    const wrong = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { language: 'de', answers: { [size.id]: 'كبير' } }));
    expect(wrong.status).toBe(400);
  });
});

describe('one set of responses', () => {
  it('lists, exports, sends to webhooks and summarises every language together, counting a choice across languages, with a languages count', async () => {
    const size = componentAt(form, 0, 1);
    const listing = await (await app.request(`/api/v1/responses?formId=${form.id}&returnPartials=true`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(new Set(listing.data.map((response: any) => response.meta.language))).toEqual(new Set(['en', 'de', 'ar']));
    const csv = await (await app.request(`/api/v1/responses/export?formId=${form.id}&returnPartials=true&format=csv`, { headers: { 'x-api-key': tenant.apiKey } })).text();
    const header = csv.split('\r\n')[0]!.split(',');
    expect(header).toContain('language');
    // The webhooks' response objects carry it too.
    const events = await db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.formId, form.id), eq(outboxEvents.type, 'response.created')));
    expect(new Set(events.map((event) => (event.payload.data as { meta: { language?: string } }).meta.language))).toEqual(new Set(['en', 'de', 'ar']));
    const summary = await graphql(
      app,
      'query ($id: ID!) { form(id: $id) { summary { total languages { language total } questions { questionId options { option count } } } } }',
      { id: form.id },
      { 'x-api-key': tenant.apiKey },
    );
    const { total, languages, questions } = summary.body.data.form.summary;
    expect(languages.reduce((sum: number, language: any) => sum + language.total, 0)).toBe(total);
    expect(languages[0].language).toBe('en');
    const options = questions.find((question: any) => question.questionId === size.id).options;
    // The pages in German ("Klein"), Arabic ("صغير") and English, the German API ("Small") and the English API; the Arabic API's "كبير" is Large.
    expect(options).toEqual([
      { option: 'Small', count: 5 },
      { option: 'Large', count: 1 },
    ]);
  });
});
