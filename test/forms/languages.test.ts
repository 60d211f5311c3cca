/**
 * Multilingual forms through the API: `languages` and texts given per language in generate and update
 * (REST and GraphQL), their problems with paths, the definition showing them back, and the translation
 * API (completeness, a language's document, PUT with If-Match, unknown paths and placeholders refused).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, graphql, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { generateThroughApi } from '../support/public-helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let other: TestTenant;
const key = (t: TestTenant = tenant) => ({ 'x-api-key': t.apiKey });
const get = (path: string, t: TestTenant = tenant) => ctx.app.request(path, { headers: key(t) });
const put = (path: string, body: unknown, headers: Record<string, string> = {}) => ctx.app.request(path, jsonRequest('PUT', body, { ...key(), ...headers }));

const LANGUAGES = { default: 'en', others: ['de', 'fr'] };
const steps = () => [
  {
    name: { en: 'Contact', de: 'Kontakt', fr: 'Contact' },
    key: 'contact',
    components: [
      { type: 'ShortInput', key: 'email', content: { question: { en: 'Your e-mail?', de: 'Ihre E-Mail?' }, placeholder: 'you@example.com' } },
      {
        type: 'Dropdown',
        key: 'size',
        content: {
          question: 'Team size?',
          choices: [
            { en: 'Small', de: 'Klein', fr: 'Petite' },
            { en: 'Large', de: 'Groß' },
          ],
        },
      },
    ],
  },
  {
    name: 'Thanks',
    key: 'done',
    components: [{ type: 'Header', content: { title: { en: 'Thanks, {{question.email}}', de: 'Danke, {{question.email}}' } } }],
  },
];

async function generate(more: Record<string, unknown> = {}, body = steps()) {
  return generateThroughApi(ctx.app, ctx.db, tenant, 'Unused', body, { name: { en: 'Sign-up', de: 'Anmeldung' }, languages: LANGUAGES, ...more });
}

beforeAll(async () => {
  ctx = await setupTestApp({ apiRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
  other = await createTenant(ctx.db);
});

describe('generating a multilingual form', () => {
  it('stores the default language in place and the others beside it, under the stored field (an alias too)', async () => {
    const { status, form } = await generate();
    expect(status).toBe(200);
    expect(form.name).toBe('Sign-up');
    expect(form.languages).toEqual(LANGUAGES);
    expect(form.locale).toBe('en');
    expect(form.texts).toEqual({ name: { de: 'Anmeldung' } });
    const [contact] = form.steps;
    expect(contact!.name).toBe('Contact');
    expect(contact!.texts).toEqual({ name: { de: 'Kontakt', fr: 'Contact' } });
    expect(contact!.components[0]!.content.question).toBe('Your e-mail?');
    expect(contact!.components[1]!.content.options).toEqual(['Small', 'Large']);
    expect(contact!.components[1]!.texts).toEqual({ 'options.0': { de: 'Klein', fr: 'Petite' }, 'options.1': { de: 'Groß' } });
  });

  it('shows the texts back per language in GET /api/v1/forms/{formId}, and an update of that body keeps them', async () => {
    const { form } = await generate();
    const body: any = await (await get(`/api/v1/forms/${form.id}`)).json();
    expect(body.data.name).toEqual({ en: 'Sign-up', de: 'Anmeldung' });
    expect(body.data.languages).toEqual(LANGUAGES);
    expect(body.data.steps[0].components[1].content.options[0]).toEqual({ en: 'Small', de: 'Klein', fr: 'Petite' });
    const { name, steps: given } = body.data;
    const patched = await ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { name, steps: given }, key()));
    expect(patched.status).toBe(200);
    const again: any = await (await get(`/api/v1/forms/${form.id}`)).json();
    expect(again.data.steps).toEqual(body.data.steps);
    expect(again.data.name).toEqual(body.data.name);
  });

  it('refuses a language not declared, a text without the default language, and a text object where one value goes, each with its path', async () => {
    const bad = steps();
    (bad[0]!.components[0]!.content as any).question = { de: 'Nur Deutsch' };
    (bad[0]!.components[1]!.content as any).choices[1] = { en: 'Large', es: 'Grande' };
    bad[1]!.components.push({ type: 'CalendlyScreen', content: { dataUrl: { en: 'https://calendly.com/a', de: 'https://calendly.com/b' } } } as any);
    const { status, body } = await generate({}, bad);
    expect(status).toBe(400);
    expect(body.message).toBe('Invalid request body');
    const paths = body.errors.map((error: any) => error.path.join('.'));
    expect(paths).toContain('steps.0.components.0.content.question');
    expect(paths).toContain('steps.0.components.1.content.options.1.es');
    expect(body.errors.find((error: any) => error.path.join('.') === 'steps.0.components.0.content.question').message).toMatch(/default language \(en\)/);
    expect(paths.some((path: string) => path.startsWith('steps.1.components.1.content'))).toBe(true);
  });

  it("refuses a one-language form's text in another language, bad languages, and a locale in another language", async () => {
    const oneLanguage = await generateThroughApi(ctx.app, ctx.db, tenant, 'One', steps());
    expect(oneLanguage.status).toBe(400);
    expect(oneLanguage.body.errors.map((error: any) => error.path.join('.'))).toContain('steps.0.name.de');
    const badLanguages = await generate({ languages: { default: 'en', others: ['de', 'de', 'xx'] } });
    expect(badLanguages.status).toBe(400);
    expect(badLanguages.body.errors.map((error: any) => error.path.join('.'))).toEqual(expect.arrayContaining(['languages.others.1', 'languages.others.2']));
    const badLocale = await generate({ locale: 'de-CH' });
    expect(badLocale.status).toBe(400);
    expect(badLocale.body.errors.map((error: any) => error.path.join('.'))).toContain('locale');
    const regional = await generate({ locale: 'en-GB' });
    expect(regional.status).toBe(200);
    expect(regional.form.locale).toBe('en-GB');
  });

  it('takes the same input through GraphQL generateForm', async () => {
    const result = await graphql(
      ctx.app,
      'mutation ($env: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $env, input: $input) { form { id name languages { default others } translations { locale translated total missing } } } }',
      { env: tenant.environmentId, input: { sourceFormId: tenant.templateId, name: { en: 'Sign-up', de: 'Anmeldung' }, languages: LANGUAGES, steps: steps() } },
      key(),
    );
    expect(result.body.errors).toBeUndefined();
    const form = result.body.data.generateForm.form;
    expect(form.name).toBe('Sign-up');
    expect(form.languages).toEqual(LANGUAGES);
    const [en, de, fr] = form.translations;
    expect(en).toEqual({ locale: 'en', translated: 9, total: 9, missing: [] });
    expect(de).toEqual({
      locale: 'de',
      translated: 6,
      total: 9,
      missing: ['steps.contact.components.email.placeholder', 'steps.contact.components.size.question', 'steps.done.name'],
    });
    expect(fr.translated).toBe(2);
    expect(fr.missing).toContain('name');
  });
});

describe('the translation API', () => {
  it('lists every language with its completeness, and gives a language as a flat document by stable paths', async () => {
    const { form } = await generate();
    const list = await get(`/api/v1/forms/${form.id}/translations`);
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toBe('"1"');
    const { data }: any = await list.json();
    expect(data.map((language: any) => language.locale)).toEqual(['en', 'de', 'fr']);
    expect(data[1]).toMatchObject({ translated: 6, total: 9 });
    const english: any = await (await get(`/api/v1/forms/${form.id}/translations/en`)).json();
    expect(english).toEqual({
      name: 'Sign-up',
      'steps.contact.name': 'Contact',
      'steps.contact.components.email.question': 'Your e-mail?',
      'steps.contact.components.email.placeholder': 'you@example.com',
      'steps.contact.components.size.question': 'Team size?',
      'steps.contact.components.size.options.0': 'Small',
      'steps.contact.components.size.options.1': 'Large',
      'steps.done.name': 'Thanks',
      [`steps.done.components.${form.steps[1]!.components[0]!.id}.title`]: 'Thanks, {{question.email}}',
    });
    const german: any = await (await get(`/api/v1/forms/${form.id}/translations/de`)).json();
    expect(german['steps.contact.components.size.options.1']).toBe('Groß');
    expect(german['steps.done.name']).toBeUndefined();
    expect((await get(`/api/v1/forms/${form.id}/translations/es`)).status).toBe(404);
    expect((await get(`/api/v1/forms/${form.id}/translations`, other)).status).toBe(404);
  });

  it('round-trips a language: PUT makes a new version, GET gives it back, completeness follows', async () => {
    const { form } = await generate();
    const english: Record<string, string> = await (await get(`/api/v1/forms/${form.id}/translations/en`)).json();
    const french = Object.fromEntries(Object.entries(english).map(([path, text]) => [path, `FR ${text}`]));
    const response = await put(`/api/v1/forms/${form.id}/translations/fr`, french, { 'if-match': '"1"' });
    expect(response.status).toBe(200);
    expect((await response.json()).result.form.version).toBe(2);
    expect(await (await get(`/api/v1/forms/${form.id}/translations/fr`)).json()).toEqual(french);
    const { data }: any = await (await get(`/api/v1/forms/${form.id}/translations`)).json();
    expect(data[2]).toEqual({ locale: 'fr', translated: 9, total: 9, missing: [] });
    // German is untouched; the stale If-Match is refused.
    expect((await (await get(`/api/v1/forms/${form.id}/translations/de`)).json())['steps.contact.name']).toBe('Kontakt');
    expect((await put(`/api/v1/forms/${form.id}/translations/fr`, french, { 'if-match': '"1"' })).status).toBe(412);
    // Paths left out become untranslated.
    expect((await put(`/api/v1/forms/${form.id}/translations/fr`, { name: 'Inscription' })).status).toBe(200);
    expect(await (await get(`/api/v1/forms/${form.id}/translations/fr`)).json()).toEqual({ name: 'Inscription' });
  });

  it('refuses unknown paths, texts that are not texts, and placeholders that differ, each at its key; nothing changes', async () => {
    const { form } = await generate();
    const title = `steps.done.components.${form.steps[1]!.components[0]!.id}.title`;
    const response = await put(`/api/v1/forms/${form.id}/translations/de`, { 'steps.nope.name': 'x', name: 7, [title]: 'Danke, {{question.name}}' });
    expect(response.status).toBe(400);
    const body: any = await response.json();
    expect(body.errors.map((error: any) => error.path[0]).sort()).toEqual(['name', 'steps.nope.name', title].sort());
    expect(body.errors.find((error: any) => error.path[0] === title).message).toContain('{{question.email}}');
    expect((await put(`/api/v1/forms/${form.id}/translations/en`, {})).status).toBe(400);
    expect((await put(`/api/v1/forms/${form.id}/translations/es`, {})).status).toBe(400);
    expect((await put(`/api/v1/forms/${form.id}/translations/de`, '[1]')).status).toBe(400);
    expect((await get(`/api/v1/forms/${form.id}/translations`)).headers.get('etag')).toBe('"1"');
  });

  it('GraphQL has the same: Form.translation and putFormTranslation', async () => {
    const { form } = await generate();
    const put = await graphql(
      ctx.app,
      'mutation ($id: ID!, $texts: JSON!) { putFormTranslation(id: $id, locale: "fr", texts: $texts, expectedVersion: 1) { version form { translation(locale: "fr") translations { locale translated } } } }',
      { id: form.id, texts: { 'steps.contact.name': 'Coordonnées' } },
      key(),
    );
    expect(put.body.errors).toBeUndefined();
    expect(put.body.data.putFormTranslation.version).toBe(2);
    expect(put.body.data.putFormTranslation.form.translation).toEqual({ 'steps.contact.name': 'Coordonnées' });
    const bad = await graphql(ctx.app, 'mutation ($id: ID!) { putFormTranslation(id: $id, locale: "fr", texts: {nope: "x"}) { version } }', { id: form.id }, key());
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('updating a multilingual form', () => {
  it("keeps the translations of texts that did not change, drops those whose default text changed, and a dropped language's", async () => {
    const { form } = await generate();
    const plain = form.steps.map((step) => ({
      id: step.id,
      key: step.key,
      name: step.name,
      components: step.components.map(({ id, key: componentKey, type, content }) => ({ id, key: componentKey, type, content: structuredClone(content) })),
    }));
    (plain[0]!.components[0]!.content as any).question = 'Your work e-mail?';
    const response = await ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { steps: plain, languages: { default: 'en', others: ['de'] } }, key()));
    expect(response.status).toBe(200);
    const german: any = await (await get(`/api/v1/forms/${form.id}/translations/de`)).json();
    expect(german['steps.contact.name']).toBe('Kontakt');
    expect(german['steps.contact.components.size.options.0']).toBe('Klein');
    expect(german['steps.contact.components.email.question']).toBeUndefined();
    const { data }: any = await (await get(`/api/v1/forms/${form.id}/translations`)).json();
    expect(data.map((language: any) => language.locale)).toEqual(['en', 'de']);
    expect((await get(`/api/v1/forms/${form.id}/translations/fr`)).status).toBe(404);
  });

  it("checks texts given per language against the form's own languages, and a new default language needs every text not given written in it", async () => {
    const { form } = await generate();
    const given = [
      { name: { en: 'A', es: 'B' }, components: [{ type: 'Header', content: { title: 'x' } }] },
      { name: 'C', components: [{ type: 'Header', content: { title: 'y' } }] },
    ];
    const response = await ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { steps: given }, key()));
    expect(response.status).toBe(400);
    expect((await response.json()).errors.map((error: any) => error.path.join('.'))).toContain('steps.0.name.es');
    const newDefault = await ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { languages: { default: 'de', others: ['en'] } }, key()));
    expect(newDefault.status).toBe(400);
    const errors = (await newDefault.json()).errors as { path: (string | number)[]; message: string }[];
    // Each text without German, at its path in the definition, its stable path in the message.
    expect(errors.map((error) => error.path.join('.'))).toEqual(['steps.0.components.0.content.placeholder', 'steps.0.components.1.content.question', 'steps.1.name']);
    expect(errors[2]!.message).toContain('steps.done.name');
    // Given the steps, only the name must be in German, and it is.
    const withSteps = await ctx.app.request(
      `/api/v1/forms/${form.id}`,
      jsonRequest(
        'PATCH',
        {
          languages: { default: 'de', others: ['en'] },
          steps: [
            { name: 'Kontakt', components: [{ type: 'ShortInput', content: { question: 'E-Mail?' } }] },
            { name: 'Danke', components: [{ type: 'Header', content: { title: 'Danke' } }] },
          ],
        },
        key(),
      ),
    );
    expect(withSteps.status, await withSteps.clone().text()).toBe(200);
    expect((await (await get(`/api/v1/forms/${form.id}`)).json()).data.name).toEqual({ de: 'Anmeldung', en: 'Sign-up' });
    expect((await get(`/api/v1/forms/${form.id}/translations/de`)).status).toBe(200);
  });

  it('takes a new default language alone when every text has one in it: the texts are re-keyed, the former default kept as a translation', async () => {
    const translated = steps();
    const contact = translated[0]!.components;
    (contact[0]!.content as any).placeholder = { en: 'you@example.com', de: 'sie@example.com' };
    (contact[1]!.content as any).question = { en: 'Team size?', de: 'Teamgröße?' };
    translated[1]!.name = { en: 'Thanks', de: 'Danke' } as any;
    const { form, status } = await generate({}, translated);
    expect(status).toBe(200);
    const response = await ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { languages: { default: 'de', others: ['en', 'fr'] } }, key()));
    expect(response.status, await response.clone().text()).toBe(200);
    const { data }: any = await (await get(`/api/v1/forms/${form.id}`)).json();
    expect(data).toMatchObject({ locale: 'de', languages: { default: 'de', others: ['en', 'fr'] }, name: { de: 'Anmeldung', en: 'Sign-up' } });
    expect(data.steps[0].name).toEqual({ de: 'Kontakt', en: 'Contact', fr: 'Contact' });
    // The same ids: answers keep their questions.
    expect(data.steps[0].components.map((c: any) => c.id)).toEqual(form.steps[0]!.components.map((c) => c.id));
    expect(data.steps[0].components[1].content.options).toEqual([
      { de: 'Klein', en: 'Small', fr: 'Petite' },
      { de: 'Groß', en: 'Large' },
    ]);
    const english: any = await (await get(`/api/v1/forms/${form.id}/translations/en`)).json();
    expect(english).toMatchObject({ name: 'Sign-up', 'steps.contact.components.email.placeholder': 'you@example.com', 'steps.done.name': 'Thanks' });
    const statuses: any = await (await get(`/api/v1/forms/${form.id}/translations`)).json();
    expect(statuses.data.map((language: any) => [language.locale, language.missing.length])).toEqual([
      ['de', 0],
      ['en', 0],
      ['fr', statuses.data[2].total - 2],
    ]);
    // The page speaks German by default now; a choice is stored in German.
    const page = await (await ctx.app.request(`/s/${form.id}`)).text();
    expect(page).toContain('<html lang="de"');
    expect(page).toContain('Ihre E-Mail?');
    const graph = await graphql(ctx.app, 'query ($id: ID!) { form(id: $id) { name locale } }', { id: form.id }, key());
    expect(graph.body.data.form).toEqual({ name: 'Anmeldung', locale: 'de' });
  });

  it("re-keys the limits' messages with the texts, and names a message without a text in the new default language", async () => {
    const translated = steps();
    (translated[0]!.components[0]!.content as any).placeholder = { en: 'you@example.com', de: 'sie@example.com' };
    (translated[0]!.components[1]!.content as any).question = { en: 'Team size?', de: 'Teamgröße?' };
    translated[1]!.name = { en: 'Thanks', de: 'Danke' } as any;
    const limits = { maxResponses: 5, closedMessage: { en: 'Closed.', de: 'Geschlossen.' }, notYetOpenMessage: 'Soon.' };
    const { form, status } = await generate({ limits }, translated);
    expect(status).toBe(200);
    const toGerman = () => ctx.app.request(`/api/v1/forms/${form.id}`, jsonRequest('PATCH', { languages: { default: 'de', others: ['en', 'fr'] } }, key()));
    const refused = await toGerman();
    expect(refused.status).toBe(400);
    const { errors }: any = await refused.json();
    expect(errors.map((error: any) => error.path.join('.'))).toEqual(['limits.notYetOpenMessage']);

    const german: any = await (await get(`/api/v1/forms/${form.id}/translations/de`)).json();
    const fixed = await put(`/api/v1/forms/${form.id}/translations/de`, { ...german, 'limits.notYetOpenMessage': 'Bald.' });
    expect(fixed.status, await fixed.clone().text()).toBe(200);
    expect((await toGerman()).status).toBe(200);
    const { data }: any = await (await get(`/api/v1/forms/${form.id}`)).json();
    expect(data.limits).toMatchObject({ closedMessage: { de: 'Geschlossen.', en: 'Closed.' }, notYetOpenMessage: { de: 'Bald.', en: 'Soon.' } });
    const english: any = await (await get(`/api/v1/forms/${form.id}/translations/en`)).json();
    expect(english).toMatchObject({ 'limits.closedMessage': 'Closed.', 'limits.notYetOpenMessage': 'Soon.' });
  });

  it('re-keys through GraphQL updateForm too', async () => {
    const translated = steps();
    (translated[0]!.components[0]!.content as any).placeholder = { en: 'you@example.com', de: 'sie@example.com' };
    (translated[0]!.components[1]!.content as any).question = { en: 'Team size?', de: 'Teamgröße?' };
    translated[1]!.name = { en: 'Thanks', de: 'Danke' } as any;
    const { form } = await generate({}, translated);
    const res = await graphql(
      ctx.app,
      'mutation ($id: ID!) { updateForm(id: $id, input: {languages: {default: "de", others: ["en"]}}) { form { name locale } } }',
      { id: form.id },
      key(),
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateForm.form).toEqual({ name: 'Anmeldung', locale: 'de' });
  });
});
