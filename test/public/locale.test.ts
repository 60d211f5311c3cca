/**
 * A form's `locale`: validated at generate (REST and GraphQL: a 400 / BAD_USER_INPUT at `locale`),
 * stored canonical, and followed by the page's own words: `<html lang>`, default button labels, the
 * error summary and validation messages, the thank-you and closed screens, the components' own words
 * (the uploader's note, the schedulers' link and titles, accessible names, captcha notes), the file
 * checks' messages, the upload script's words and the message pages of a form's posts. The form's own
 * texts stay as written; a page of every component type in German, French or Spanish holds none of a
 * list of English words.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalLocale, formatSize, localizeMessage, pageWords, SUPPORTED_LANGUAGES } from '../../src/i18n/locales.ts';
import { STORED_COMPONENT_TYPES } from '../../src/components/catalogue.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupTestApp, testConfig, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, Visitor, type App } from '../support/public-helpers.ts';
import { PNG } from '../support/file-fixtures.ts';
import { onFileEnd } from '../support/cleanup.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { findFormById } from '../../src/forms/forms.service.ts';

let ctx: TestContext;
let app: App;
let tenant: TestTenant;
/** The app with a data dir of the file's own (uploads are stored) and a small upload body limit. */
let uploadsApp: App;
const UPLOAD_LIMIT = 100_000;

beforeAll(async () => {
  ctx = await setupTestApp();
  app = ctx.app;
  tenant = await createTenant(ctx.db);
  const dataDir = await mkdtemp(join(tmpdir(), 'formloom-locale-'));
  onFileEnd(() => rm(dataDir, { recursive: true, force: true }));
  uploadsApp = appWith(ctx.db, { dataDir, uploads: { ...testConfig().uploads, maxBodyBytes: UPLOAD_LIMIT } });
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
  return app.request(
    `/api/v1/environments/${tenant.environmentId}/forms/generate`,
    jsonRequest('POST', { ...validBody(tenant.templateId, STEPS), locale, allowAnotherResponse: true }, { 'x-api-key': tenant.apiKey }),
  );
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

    for (const locale of ['sv', 'xx', 'de_DE', 'en-', '', 'a'.repeat(40), 'de\u0000', 42]) {
      const refused = await generate(locale);
      expect(refused.status, String(locale)).toBe(400);
      const body = (await refused.json()) as { message: string; errors: { message: string; path: unknown[] }[] };
      expect(body.message).toBe('Invalid request body');
      expect(body.errors.map((error) => error.path)).toContainEqual(['locale']);
    }
    const unsupported = (await (await generate('sv')).json()) as { errors: { message: string }[] };
    expect(unsupported.errors[0]!.message).toMatch(/^locale must be a BCP 47 language tag in one of the supported languages: en, de, fr, es, it, nl, pt, pl, ja, ar/);
  });

  it('is part of the public definition, and of importForm (default en)', async () => {
    const form = await generated('fr');
    expect(await (await app.request(`/s/${form.id}/definition`)).json()).toMatchObject({ id: form.id, locale: 'fr' });
    const mutation = 'mutation($input: ImportFormInput!) { importForm(input: $input) { locale } }';
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const input = { environmentId: tenant.environmentId, name: 'Template', steps: [{ name: 'A', components: [{ type: 'ShortInput', content: {} }] }] };
    expect((await graphql(app, mutation, { input: { ...input, locale: 'es-ES' } }, admin)).body).toEqual({ data: { importForm: { locale: 'es-ES' } } });
    expect((await graphql(app, mutation, { input }, admin)).body).toEqual({ data: { importForm: { locale: 'en' } } });
    const refused = await graphql(app, mutation, { input: { ...input, locale: 'sv' } }, admin);
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

// ---------------------------------------------------------------- the components' own words

/** What a respondent reads or hears of a page: its text, accessible names, titles and placeholders, and what its script writes (an uploader's `data-words`). */
function respondentText(page: string): string[] {
  const decode = (text: string) =>
    text
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const shown = page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, '');
  const texts = [...shown.matchAll(/>([^<>]+)</g)].map((match) => decode(match[1]!).trim());
  const attributes = [...shown.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((match) => decode(match[1]!));
  const scriptWords = [...shown.matchAll(/\sdata-words="([^"]*)"/g)].flatMap((match) => Object.values(JSON.parse(decode(match[1]!)) as Record<string, string>));
  return [...texts, ...attributes, ...scriptWords].filter((text) => text !== '');
}

/** English words of the page's own: none may show on a German, French or Spanish page. */
const ENGLISH_WORDS =
  /\b(?:Next|Submit|Back|Select|Other|Progress|step|Please|Accepted|Choose|File|files?|Calendar|calendar|Open|Upload|Uploaded|uploaded|upload|Password|password|Repeat|agree|Your|answer|required|booked|you|Country|dial|Scheduling|shown|Thank|response|the|This|is|not|of|and|to|with|at|most|Too|much|again)\b/g;
const englishIn = (texts: string[]) => [...new Set(texts.flatMap((text) => [...text.matchAll(ENGLISH_WORDS)].map((match) => `${match[0]} (in "${text}")`)))];

/** A form of every component type, its own texts neutral (no word of any language): step 0 leads to step 1, which holds them all. */
function everyTypeSteps() {
  const calendar = 'https://calendly.com/acme/intro';
  const schedulerTypes = STORED_COMPONENT_TYPES.filter((type) => type === 'Scheduler' || type.endsWith('Screen'));
  return [
    { name: 'S0', components: [{ type: 'ShortInput', content: { question: 'Q0' } }] },
    {
      name: 'S1',
      components: [
        { type: 'Header', content: { title: 'H1' } },
        { type: 'ShortInput', content: {} },
        { type: 'LongInput', content: { required: true } },
        { type: 'EmailForm', content: {} },
        {
          type: 'IdentityInfo',
          content: {
            fields: [
              { key: 'firstName', label: 'L1' },
              { key: 'phoneNumber', label: 'L2', includeDialCode: true, defaultDialCodeCountry: 'DE' },
            ],
          },
        },
        { type: 'Dropdown', content: { options: ['A', 'B'] } },
        { type: 'Dropdown', content: { options: ['A', 'B'], isMulti: true } },
        { type: 'MultipleOptionsQuestion', content: { question: 'Q2', choices: ['A', 'B'], allowOther: true } },
        { type: 'GraphicOptions', content: { question: 'Q3', options: [{ label: 'A' }, { label: 'B' }] } },
        { type: 'Disclaimer', content: { text: 'T1', required: true } },
        { type: 'FileUploader', content: { multiple: true, maxFiles: 3 } },
        { type: 'PasswordInput', content: {} },
        { type: 'PasswordCreatorInput', content: {} },
        { type: 'Recaptcha', content: { siteKey: 'site-key-recaptcha' } },
        { type: 'TurnstileWidget', content: { siteKey: 'site-key-turnstile' } },
        { type: 'AiChatbot', content: { greeting: 'G1' } },
        ...schedulerTypes.map((type) => ({ type, content: { url: calendar } })),
        { type: 'DynamicScheduler', content: { defaultCalendar: { name: 'K1', url: calendar }, calendars: [{ name: 'K2', url: `${calendar}?team=2` }] } },
        { type: 'NextBackButtons', content: {} },
        { type: 'NextButton', content: {} },
        { type: 'Rating', content: { required: true } },
        { type: 'NPS', content: {} },
        { type: 'OpinionScale', content: {} },
        { type: 'Number', content: { required: true, unit: 'U1' } },
        { type: 'Date', content: {} },
        { type: 'Matrix', content: { rows: ['R1'], columns: ['K1', 'K2'], required: true } },
        { type: 'Ranking', content: { options: ['O1', 'O2'], required: true } },
      ],
    },
  ];
}

/** The pages of that form a respondent meets: step 1 as first shown (with the back link), and sent back with errors and a kept file (no JavaScript). */
async function everyTypePages(locale: string): Promise<{ form: Form; pages: string[] }> {
  const form = await makeForm(ctx.db, tenant, everyTypeSteps(), 'F1', { locale });
  const visitor = new Visitor(uploadsApp);
  await visitor.get(`/s/${form.id}`);
  expect((await visitor.submit(form, 0, {})).status).toBe(303);
  const shown = await (await visitor.get(`/s/${form.id}?step=1`)).text();
  const body = new FormData();
  body.append(field(componentAt(form, 1, 10)), new File([PNG], 'p.png', { type: 'image/png' }));
  const refused = await visitor.request(`/s/${form.id}?step=1`, { method: 'POST', body });
  expect(refused.status).toBe(422);
  return { form, pages: [shown, await refused.text()] };
}

/** A one-step form in `locale` (with a plain last step: a form has at least two). */
const oneStepForm = (locale: string, step: { name: string; components: unknown[] }) =>
  makeForm(ctx.db, tenant, [step, { name: 'Z', components: [{ type: 'ShortInput', content: { question: 'Q' } }] }], 'F', { locale });

describe("the components' own words", () => {
  it('the every-type form has every component type', () => {
    const used = new Set(everyTypeSteps().flatMap((step) => step.components.map((component) => component.type)));
    expect(STORED_COMPONENT_TYPES.filter((type) => !used.has(type))).toEqual([]);
  });

  it('a page of every component type shows none of the English words in German, French or Spanish (and all of them in English)', async () => {
    const english = await everyTypePages('en');
    const found = englishIn(english.pages.flatMap(respondentText)).map((hit) => hit.split(' ')[0]);
    for (const word of ['Accepted', 'Choose', 'File', 'Calendar', 'Open', 'Repeat', 'agree', 'Your', 'booked', 'you', 'Country', 'Upload', 'uploaded', 'Scheduling']) {
      expect(found, word).toContain(word);
    }
    for (const locale of ['de', 'fr', 'es']) {
      const { pages } = await everyTypePages(locale);
      const [shown, refused] = pages as [string, string];
      expect(shown).toContain(`<html lang="${locale}"`);
      // The kept file and the errors are there to be checked.
      expect(refused).toContain('p.png');
      expect(refused).toContain('fl-error');
      expect(englishIn(pages.flatMap(respondentText)), locale).toEqual([]);
    }
  });

  it("follow a German form: the uploader's note, scheduler link and titles, accessible names, the captcha's language, the upload script's words", async () => {
    const { form, pages } = await everyTypePages('de');
    const [shown, refused] = pages as [string, string];
    const words = pageWords('de');
    const uploader = componentAt(form, 1, 10);
    expect(shown).toContain(
      `<p class="fl-note" id="f-${uploader.id}-note">Erlaubt: pdf, png, jpg, jpeg, gif, webp, heic, docx, xlsx, pptx, doc, xls, ppt, odt, ods, odp, rtf, txt, csv; bis zu 10 MB, höchstens 3 Dateien.</p>`,
    );
    expect(shown).toMatch(new RegExp(`<input type="file" id="f-${uploader.id}"[^>]* data-upload="/s/${form.id}/uploads\\?localized=1"[^>]* aria-label="Datei">`));
    const scriptWords = JSON.parse(/data-words="([^"]*)"/.exec(shown)![1]!.replace(/&quot;/g, '"')) as Record<string, string>;
    expect(scriptWords).toEqual({
      progress: 'Fortschritt des Hochladens',
      uploaded: 'Hochgeladen.',
      uploadedMany: '{n} Dateien hochgeladen.',
      failed: 'Das Hochladen ist fehlgeschlagen.',
      offline: words.uploadOffline,
      tooLarge: words.uploadTooLarge,
      busy: words.uploadBusy,
      closed: words.closedText,
    });
    expect(shown).toContain('>Kalender in einem neuen Tab öffnen</a>');
    expect(shown).toContain('title="Calendly-Kalender"');
    expect(shown).toContain('title="Terminkalender"');
    expect(shown).toContain('data-calendar-select aria-label="Kalender"');
    expect(shown).toContain('>Ihr Termin ist gebucht.</p>');
    expect(shown).toContain('aria-label="Landesvorwahl"');
    expect(shown).toContain('>Passwort wiederholen</label>');
    expect(shown).toContain('aria-label="Passwort"');
    expect(shown).toContain('aria-label="Ihre Antwort"');
    expect(shown).toContain('<span>Ich stimme zu</span>');
    expect(shown).toContain('<legend class="sr-only">Bitte wählen…</legend>');
    expect(shown).toContain('Dieser Schritt braucht JavaScript für die Prüfung, dass Sie kein Roboter sind.');
    expect(shown).toContain('src="https://www.google.com/recaptcha/api.js?hl=de"');
    expect(shown).toContain('data-language="de"');
    // Sent back: the kept file in the form's words, the messages translated.
    expect(refused).toContain(`p.png (${formatSize(PNG.byteLength, 'de')})`);
    expect(refused).toContain('Wählen Sie eine andere Datei, um diese zu ersetzen.');
    expect(refused).toContain('Bitte setzen Sie das Häkchen, um fortzufahren');
    expect(refused).toContain('L1 ist erforderlich');
  });

  it("shows a refused file's message in the form's language after a post without JavaScript", async () => {
    const form = await oneStepForm('de', {
      name: 'Dateien',
      components: [{ type: 'FileUploader', content: { question: 'Foto', allowedTypes: ['png'], maxSize: 2048, multiple: true } }],
    });
    const visitor = new Visitor(uploadsApp);
    await visitor.get(`/s/${form.id}`);
    const post = (files: File[]) => {
      const body = new FormData();
      for (const file of files) body.append(field(componentAt(form, 0, 0)), file);
      return visitor.request(`/s/${form.id}?step=0`, { method: 'POST', body });
    };
    const refused = await post([
      new File(['not a png'], 'notiz.png', { type: 'image/png' }),
      new File(['<html></html>'], 'seite.html', { type: 'text/html' }),
      new File([new Uint8Array(3000)], 'gross.png', { type: 'image/png' }),
      new File([], 'leer.png', { type: 'image/png' }),
    ]);
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('notiz.png ist keine gültige .png-Datei (erlaubt: png)');
    expect(html).toContain('seite.html: Dieser Dateityp wird nicht angenommen (erlaubt: png)');
    expect(html).toContain('gross.png ist zu groß (höchstens 2 KB)');
    expect(html).toContain('leer.png ist leer');
    expect(html).not.toMatch(/is not a valid|not accepted|too large|is empty/);
    // The uploader's own note in the form's language too.
    expect(html).toContain('Erlaubt: png; bis zu 2 KB, höchstens 10 Dateien.');
  });

  it("the page's upload script gets the file checks' messages in the form's language (?localized=1); the JSON API keeps English", async () => {
    const form = await oneStepForm('fr', { name: 'Fichiers', components: [{ type: 'FileUploader', content: { allowedTypes: ['png'] } }] });
    const upload = (query: string) => {
      const body = new FormData();
      body.append('componentId', componentAt(form, 0, 0).id);
      body.append('file', new File(['not a png'], 'note.png', { type: 'image/png' }));
      return uploadsApp.request(`/s/${form.id}/uploads${query}`, { method: 'POST', body });
    };
    const localized = await upload('?localized=1');
    expect(localized.status).toBe(400);
    expect(await localized.json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: 'note.png n’est pas un fichier .png valide (formats acceptés : png)', path: ['file', 0] }],
    });
    expect(await (await upload('')).json()).toEqual({
      message: 'Invalid request body',
      errors: [{ message: 'note.png is not a valid .png file (accepted: png)', path: ['file', 0] }],
    });
  });

  it("answers a post over the body limit, and one it can't read, with a page in the form's language", async () => {
    const form = await oneStepForm('es', { name: 'Archivos', components: [{ type: 'FileUploader', content: { question: 'CV' } }] });
    const body = new FormData();
    body.append(field(componentAt(form, 0, 0)), new File([new Uint8Array(UPLOAD_LIMIT + 1)], 'cv.pdf', { type: 'application/pdf' }));
    const tooMuch = await uploadsApp.request(`/s/${form.id}?step=0`, { method: 'POST', body });
    expect(tooMuch.status).toBe(413);
    const page = await tooMuch.text();
    expect(page).toContain('<html lang="es"');
    expect(page).toContain('<h1>Demasiados datos</h1>');
    expect(page).toContain('(como máximo 97,7 KB)'.replace('97,7 KB', formatSize(UPLOAD_LIMIT, 'es')));

    const unsupported = await app.request(`/s/${form.id}?step=0`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(unsupported.status).toBe(415);
    expect(await unsupported.text()).toContain('<h1>Datos de formulario no admitidos</h1>');
  });

  it('translates the file checks, sizes in the language', () => {
    expect(formatSize(2.5 * 1024 * 1024, 'fr')).toBe('2,5 Mo');
    expect(formatSize(2.5 * 1024 * 1024, 'en')).toBe('2.5 MB');
    expect(formatSize(12, 'de')).toBe('12 Byte');
    expect(localizeMessage('fr', 'a.png is too large (at most 2.5 MB)')).toBe('a.png est trop volumineux (2,5 Mo au maximum)');
    expect(localizeMessage('es', 'a b.docx cannot be accepted: its contents would expand to more than 100 times its size')).toBe(
      'a b.docx no se puede aceptar: al descomprimirlo, el contenido ocuparía más de 100 veces el tamaño del archivo',
    );
    expect(localizeMessage('de', 'x.zip cannot be accepted: it holds archives nested more than 3 deep')).toBe(
      'x.zip kann nicht angenommen werden: Das Archiv enthält Archive, die mehr als 3 Ebenen tief verschachtelt sind',
    );
    expect(localizeMessage('de', 'x.zip cannot be accepted: a reason nobody translated')).toBe('x.zip kann nicht angenommen werden: a reason nobody translated');
    expect(localizeMessage('de', 'Choose a file to upload')).toBe('Wählen Sie eine Datei zum Hochladen');
  });
});
