/**
 * The `language` filter of listings, exports and summaries: REST `language` on the listing and the CSV
 * and NDJSON exports, GraphQL `filter.language` on the responses listings and `Form.summary`; only the
 * responses answered in that language (a one-language form's, which record none, in its form's
 * language), a region read as its language, anything else refused with the parameter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let multi: Form;
let french: Form;
const key = () => ({ 'x-api-key': tenant.apiKey });
const get = (path: string) => ctx.app.request(path, { headers: key() });
const ids: Record<string, string[]> = { en: [], de: [], ar: [], fr: [] };

async function answer(form: Form, option: string, language?: string) {
  const size = componentAt(form, 0, 0).id;
  const res = await ctx.app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { [size]: option }, finished: true, ...(language ? { language } : {}) }));
  expect(res.status, await res.clone().text()).toBe(201);
  ids[language ?? 'fr']!.push(((await res.json()) as { id: string }).id);
}

const dropdown = (options: unknown[]) => [
  { name: 'Size', components: [{ type: 'Dropdown', key: 'size', content: { question: 'Team size?', options } }] },
  { name: 'Done', completion: true, components: [{ type: 'Header', content: { title: 'Thanks' } }] },
];

beforeAll(async () => {
  ctx = await setupTestApp({ apiRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
  multi = await makeForm(ctx.db, tenant, dropdown([{ en: 'Small', de: 'Klein', ar: 'صغير' }, 'Large']), 'Sign-up', { languages: { default: 'en', others: ['de', 'ar'] } });
  french = await makeForm(ctx.db, tenant, dropdown(['Petite', 'Grande']), 'Inscription', { locale: 'fr-CA' });
  await answer(multi, 'Klein', 'de');
  await answer(multi, 'Small', 'de');
  await answer(multi, 'Small', 'en');
  await answer(multi, 'صغير', 'ar');
  await answer(multi, 'Large', 'ar');
  await answer(french, 'Petite');
});

const listedIds = async (query: string) => {
  const res = await get(`/api/v1/responses?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { id: string }[] }).data.map((r) => r.id).sort();
};

describe('REST', () => {
  it('lists only the responses answered in a language, a region read as its language; a one-language form’s in its own', async () => {
    expect(await listedIds(`formId=${multi.id}&language=de`)).toEqual([...ids.de!].sort());
    expect(await listedIds(`formId=${multi.id}&language=AR-eg`)).toEqual([...ids.ar!].sort());
    expect(await listedIds(`formId=${multi.id}&language=fr`)).toEqual([]);
    expect(await listedIds(`formId=${french.id}&language=fr`)).toEqual(ids.fr);
    // The environment's listing (streamed, and paged) and a form's agree.
    expect(await listedIds('language=fr')).toEqual(ids.fr);
    expect(await listedIds('language=ar&limit=1')).toHaveLength(1);
    expect(await listedIds('language=en')).toEqual(ids.en);
  });

  it('exports only them, as CSV and NDJSON', async () => {
    const csv = await (await get(`/api/v1/responses/export?formId=${multi.id}&language=ar&format=csv`)).text();
    const rows = csv.trim().split('\r\n');
    expect(rows).toHaveLength(1 + ids.ar!.length);
    for (const row of rows.slice(1)) expect(row).toMatch(/,ar,/);
    const ndjson = await (await get(`/api/v1/responses/export?language=de&format=ndjson`)).text();
    const lines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; meta: { language: string } });
    expect(lines.map((line) => line.id).sort()).toEqual([...ids.de!].sort());
    expect(new Set(lines.map((line) => line.meta.language))).toEqual(new Set(['de']));
    const french = await (await get(`/api/v1/responses/export?language=fr&format=csv`)).text();
    expect(french.trim().split('\r\n')).toHaveLength(2);
  });

  it('refuses a value that is not a built-in language with the parameter, in the listing and the export', async () => {
    for (const value of ['xx', '', 'de_DE', 'en-', 'a'.repeat(40), '*']) {
      for (const path of ['/api/v1/responses', '/api/v1/responses/export']) {
        const res = await get(`${path}?formId=${multi.id}&language=${encodeURIComponent(value)}`);
        expect(res.status, `${path} ${value}`).toBe(400);
        const body = (await res.json()) as { errors: { path: unknown[]; message: string }[] };
        expect(body.errors).toEqual([{ path: ['language'], message: expect.stringContaining('built-in languages') }]);
      }
    }
  });
});

describe('GraphQL', () => {
  const summary = (language: string | null, id = multi.id) =>
    graphql(
      ctx.app,
      'query ($id: ID!, $filter: SummaryFilter) { form(id: $id) { summary(filter: $filter) { total finished languages { language total } questions { questionId options { option count } } } } }',
      { id, filter: language === null ? null : { language } },
      key(),
    );

  it('summarises only the responses answered in a language, its choices counted in the default language', async () => {
    const all = (await summary(null)).body.data.form.summary;
    expect(all.total).toBe(5);
    const german = (await summary('de-AT')).body.data.form.summary;
    expect(german).toMatchObject({ total: 2, finished: 2, languages: [{ language: 'de', total: 2 }] });
    expect(german.questions[0].options).toEqual([
      { option: 'Small', count: 2 },
      { option: 'Large', count: 0 },
    ]);
    const arabic = (await summary('ar')).body.data.form.summary;
    expect(arabic.questions[0].options).toEqual([
      { option: 'Small', count: 1 },
      { option: 'Large', count: 1 },
    ]);
    expect((await summary('fr')).body.data.form.summary.total).toBe(0);
    expect((await summary('fr', french.id)).body.data.form.summary.total).toBe(1);
  });

  it('lists only them through filter.language', async () => {
    const res = await graphql(
      ctx.app,
      'query ($id: ID!) { form(id: $id) { responses(filter: {language: "ar", returnPartials: true}) { edges { node { id } } } } }',
      { id: multi.id },
      key(),
    );
    expect(res.body.data.form.responses.edges.map((edge: { node: { id: string } }) => edge.node.id).sort()).toEqual([...ids.ar!].sort());
  });

  it('refuses a value that is not a built-in language at filter.language', async () => {
    const res = await summary('klingon');
    expect(res.body.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors)).toContain('"language"');
    const listing = await graphql(ctx.app, 'query ($id: ID!) { form(id: $id) { responses(filter: {language: "zz"}) { edges { node { id } } } } }', { id: multi.id }, key());
    expect(listing.body.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
  });
});
