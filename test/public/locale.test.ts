/**
 * A form's `locale`: validated at generate (REST and GraphQL: a 400 / BAD_USER_INPUT at `locale`),
 * stored canonical, and followed by the page's own words: `<html lang>`, default button labels, the
 * error summary and validation messages, the thank-you and closed screens. The form's own texts stay
 * as written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalLocale, localizeMessage, pageWords, SUPPORTED_LANGUAGES } from '../../src/i18n/locales.ts';
import { ADMIN_TOKEN, createTenant, graphql, jsonRequest, setupTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, Visitor, type App } from '../support/public-helpers.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { findFormById } from '../../src/forms/forms.service.ts';

let ctx: TestContext;
let app: App;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  app = ctx.app;
  tenant = await createTenant(ctx.db);
});

const STEPS = [
  {
    name: 'Kontakt',
    components: [
      { type: 'ShortInput', content: { question: 'Name', required: true } },
      { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-Mail' }] } },
      { type: 'Dropdown', content: { question: 'Größe', options: ['S', 'M'] } },
    ],
  },
  { name: 'Ende', components: [{ type: 'Dropdown', content: { question: 'Regionen', options: ['Europa', 'Asien'], isMulti: true } }] },
];

async function generate(locale: unknown): Promise<Response> {
  return app.request(`/api/v1/environments/${tenant.environmentId}/forms/generate`, jsonRequest('POST', { ...validBody(tenant.templateId, STEPS), locale }, { 'x-api-key': tenant.apiKey }));
}

async function generated(locale: string): Promise<Form> {
  const response = await generate(locale);
  expect(response.status).toBe(200);
  const { result } = (await response.json()) as { result: { form: { id: string } } };
  return (await findFormById(ctx.db, result.form.id))!;
}

describe('locale at generate', () => {
  it('is stored canonical; a malformed or unsupported tag is a 400 at locale', async () => {
    expect((await generated('de-ch')).locale).toBe('de-CH');
    expect((await generated('FR')).locale).toBe('fr');
    const plain = await generate(undefined);
    const { result } = (await plain.json()) as { result: { form: { id: string } } };
    expect((await findFormById(ctx.db, result.form.id))!.locale).toBe('en');

    for (const locale of ['it', 'xx', 'de_DE', 'en-', '', 'a'.repeat(40), 'de\u0000', 42]) {
      const refused = await generate(locale);
      expect(refused.status, String(locale)).toBe(400);
      const body = (await refused.json()) as { message: string; errors: { message: string; path: unknown[] }[] };
      expect(body.message).toBe('Invalid request body');
      expect(body.errors.map((error) => error.path)).toContainEqual(['locale']);
    }
    const unsupported = (await (await generate('it')).json()) as { errors: { message: string }[] };
    expect(unsupported.errors[0]!.message).toMatch(/^locale must be a BCP 47 language tag in one of the supported languages: en, de, fr, es/);
  });

  it('is part of the public definition, and of importForm (default en)', async () => {
    const form = await generated('fr');
    expect(await (await app.request(`/s/${form.id}/definition`)).json()).toMatchObject({ id: form.id, locale: 'fr' });
    const mutation = 'mutation($input: ImportFormInput!) { importForm(input: $input) { locale } }';
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const input = { environmentId: tenant.environmentId, name: 'Template', steps: [{ name: 'A', components: [{ type: 'ShortInput', content: {} }] }] };
    expect((await graphql(app, mutation, { input: { ...input, locale: 'es-ES' } }, admin)).body).toEqual({ data: { importForm: { locale: 'es-ES' } } });
    expect((await graphql(app, mutation, { input }, admin)).body).toEqual({ data: { importForm: { locale: 'en' } } });
    const refused = await graphql(app, mutation, { input: { ...input, locale: 'pt' } }, admin);
    expect(refused.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('is an input and a field of GraphQL', async () => {
    const mutation = 'mutation($env: ID!, $input: GenerateFormInput!) { generateForm(environmentId: $env, input: $input) { form { locale } } }';
    const ok = await graphql(app, mutation, { env: tenant.environmentId, input: { ...validBody(tenant.templateId), locale: 'es-MX' } }, { 'x-api-key': tenant.apiKey });
    expect(ok.body).toEqual({ data: { generateForm: { form: { locale: 'es-MX' } } } });
    const bad = await graphql(app, mutation, { env: tenant.environmentId, input: { ...validBody(tenant.templateId), locale: 'klingon' } }, { 'x-api-key': tenant.apiKey });
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors![0].extensions.errors[0].path).toEqual(['locale']);
  });

  it('accepts every shipped language, with a region', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      expect(canonicalLocale(language)).toBe(language);
      expect(canonicalLocale(`${language}-CA`)).toBe(`${language}-CA`);
    }
  });
});

describe("the page's own words", () => {
  it('follow a German form: lang, buttons, the error summary, messages, thank-you and closed screens', async () => {
    const form = await generated('de');
    const visitor = new Visitor(app);
    const first = await (await visitor.get(`/s/${form.id}`)).text();
    expect(first).toContain('<html lang="de"');
    expect(first).toContain('>Weiter</button>');
    expect(first).toContain('<option value="">Bitte wählen…</option>');
    expect(first).toContain('(Schritt 1 von 2)');
    // The form's own texts as written.
    expect(first).toContain('>Name<');

    const invalid = await visitor.submit(form, 0, { [field(componentAt(form, 0, 1), 'emailAddress')]: 'nicht-gültig' });
    expect(invalid.status).toBe(422);
    const errors = await invalid.text();
    expect(errors).toContain('<title>Fehler: Kontakt (Schritt 1 von 2)');
    expect(errors).toContain('Bitte prüfen Sie diese 2 Antworten:');
    expect(errors).toContain('Bitte beantworten Sie diese Frage');
    expect(errors).toContain('Geben Sie eine gültige E-Mail-Adresse ein');
    expect(errors).not.toContain('This question requires an answer');

    expect((await visitor.submit(form, 0, { [field(componentAt(form, 0, 0))]: 'Ada', [field(componentAt(form, 0, 1), 'emailAddress')]: 'ada@example.com' })).status).toBe(303);
    const last = await (await visitor.get(`/s/${form.id}?step=1`)).text();
    expect(last).toContain('>Absenden</button>');
    expect(last).toContain('← Zurück</a>');
    await visitor.submit(form, 1, { [field(componentAt(form, 1, 0))]: ['Asien'] });
    const thanks = await (await visitor.get(`/s/${form.id}?done=1`)).text();
    expect(thanks).toContain('<h1>Vielen Dank!</h1>');
    expect(thanks).toContain('Ihre Antwort wurde gespeichert.');
    expect(thanks).toContain('Weitere Antwort senden');

    await app.request(`/api/v1/environments/${tenant.environmentId}/forms/${form.id}/close`, { method: 'POST', headers: { 'x-api-key': tenant.apiKey } });
    const closed = await (await app.request(`/s/${form.id}`)).text();
    expect(closed).toContain('<html lang="de"');
    expect(closed).toContain('Dieses Formular nimmt keine Antworten mehr entgegen.');
  });

  it('follow French and Spanish forms, and a region keeps its tag in lang', async () => {
    for (const [locale, next, required] of [
      ['fr-CA', 'Suivant', 'Cette question nécessite une réponse'],
      ['es', 'Siguiente', 'Esta pregunta requiere una respuesta'],
    ] as const) {
      const form = await generated(locale);
      const visitor = new Visitor(app);
      const page = await (await visitor.get(`/s/${form.id}`)).text();
      expect(page).toContain(`<html lang="${locale}"`);
      expect(page).toContain(`>${next}</button>`);
      expect(await (await visitor.submit(form, 0, {})).text()).toContain(required);
    }
  });

  it('translates every message pattern it knows, keeping the values, and leaves others as written', () => {
    expect(localizeMessage('de', '"Mars" is not one of the options')).toBe('„Mars“ ist keine der Optionen');
    expect(localizeMessage('fr', 'Choose at most 2 options')).toBe('Choisissez au plus 2 options');
    expect(localizeMessage('es', 'E-mail is required')).toBe('E-mail es obligatorio');
    expect(localizeMessage('de-AT', 'Must be at most 1000 characters')).toBe('Höchstens 1000 Zeichen');
    expect(localizeMessage('en', 'This question requires an answer')).toBe('This question requires an answer');
    expect(localizeMessage('de', 'Something nobody translated')).toBe('Something nobody translated');
    expect(pageWords('xx').next).toBe('Next');
  });
});
