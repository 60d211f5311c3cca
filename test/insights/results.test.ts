/**
 * Share links and the read-only results page: made, listed and revoked over REST, GraphQL and its
 * scope; the page at /r/<token> with the funnel, drop-off, series and every question's summary as SVG
 * with tables, in the form's language; text answers only when the link includes them, never identity
 * fields, e-mail or passwords; the edge (headers, rate limit, 404 for unknown, expired and revoked links).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/auth.service.ts';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, graphql, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, makeForm, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

const EMAIL = 'ada.lovelace@example.org';
const SECRET = 'hunter2-secret';
const NOTE = 'Loved the <b>onboarding</b>';

const key = () => ({ 'x-api-key': tenant.apiKey });
const create = (body: unknown, formId = form.id, headers = key()) => app.request(`/api/v1/forms/${formId}/share-links`, jsonRequest('POST', body, headers));
/** The page and its HTML without the white space around tags (the source's templates are formatted). */
const page = async (url: string, target = app) => {
  const res = await target.request(url);
  const parts = (await res.text()).split(/(<[^<>]*>)/);
  return { res, text: parts.map((part) => (part.startsWith('<') ? part : part.trim())).join('') };
};

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(
    db,
    tenant,
    [
      {
        name: 'About you',
        components: [
          { type: 'IdentityInfo', content: { fields: [{ key: 'emailAddress', label: 'E-mail' }] } },
          { type: 'EmailForm', content: {} },
          { type: 'PasswordInput', content: {} },
          { type: 'MultipleOptionsQuestion', content: { question: 'Plan?', choices: ['Free', 'Pro'] } },
        ],
      },
      {
        name: 'Opinion',
        components: [
          { type: 'NPS', content: { question: 'Recommend us?' } },
          { type: 'Matrix', content: { question: 'Rate these', rows: ['Speed', 'Price'], columns: ['Low', 'High'] } },
          { type: 'Number', content: { question: 'Seats?' } },
          { type: 'LongInput', content: { question: 'Anything else?' } },
        ],
      },
    ],
    'Lead form',
    { locale: 'de' },
  );
  const c = (step: number, index: number) => componentAt(form, step, index).id;
  await app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
  await app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
  await app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
  const first = { [c(0, 0)]: { emailAddress: EMAIL }, [c(0, 1)]: EMAIL, [c(0, 2)]: SECRET, [c(0, 3)]: ['Pro'] };
  await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: first }));
  const second = { [c(1, 0)]: 9, [c(1, 1)]: { Speed: 'High', Price: 'Low' }, [c(1, 2)]: 12, [c(1, 3)]: NOTE };
  const res = await app.request(`/s/${form.id}/responses`, jsonRequest('POST', { answers: { ...first, ...second }, finished: true }));
  expect(res.status).toBe(201);
});

describe('share links over REST', () => {
  it('makes a link (201, its URL once), lists it without a token, revokes it (404 afterwards)', async () => {
    const made = await create({ includeTextAnswers: false });
    expect(made.status).toBe(201);
    const link = (await made.json()) as Record<string, unknown> & { id: string; url: string };
    expect(link).toMatchObject({ formId: form.id, includeTextAnswers: false, expiresAt: null });
    expect(link.url).toMatch(/^\/r\/[\w-]{43}$/);
    const listed = await app.request(`/api/v1/forms/${form.id}/share-links`, { headers: key() });
    const { data } = (await listed.json()) as { data: Record<string, unknown>[] };
    expect(data.find((l) => l.id === link.id)).toEqual({
      id: link.id,
      formId: form.id,
      includeTextAnswers: false,
      expiresAt: null,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(data)).not.toContain(link.url.slice(3));
    expect((await page(link.url)).res.status).toBe(200);
    const revoked = await app.request(`/api/v1/forms/${form.id}/share-links/${link.id}`, {
      method: 'DELETE',
      headers: key(),
    });
    expect([revoked.status, await revoked.json()]).toEqual([200, { id: link.id, formId: form.id, revoked: true }]);
    const after = await page(link.url);
    expect(after.res.status).toBe(404);
    expect(after.text).toContain('Results not found');
    const again = await app.request(`/api/v1/forms/${form.id}/share-links/${link.id}`, {
      method: 'DELETE',
      headers: key(),
    });
    expect([again.status, await again.json()]).toEqual([404, { message: 'Share link not found' }]);
  });

  it('needs responses:read, and another environment’s form is not found', async () => {
    const narrow = await createApiKey(db, { environmentId: tenant.environmentId, scopes: ['forms:read'] });
    const refused = await create({}, form.id, { 'x-api-key': narrow.key });
    expect([refused.status, await refused.json()]).toEqual([403, { message: 'API key lacks the scope responses:read' }]);
    const other = await createTenant(db);
    const foreign = await create({}, form.id, { 'x-api-key': other.apiKey });
    expect([foreign.status, await foreign.json()]).toEqual([404, { message: 'Form not found' }]);
    const list = await app.request(`/api/v1/forms/${form.id}/share-links`, { headers: { 'x-api-key': other.apiKey } });
    expect(list.status).toBe(404);
  });

  it('refuses bad bodies with the field’s path, and an expiry in the past', async () => {
    const bad = await create({ includeTextAnswers: 'yes', expiresAt: 'tomorrow', colour: 1 });
    const body = (await bad.json()) as { message: string; errors: { path: unknown[] }[] };
    expect(bad.status).toBe(400);
    expect(body.errors.map((e) => e.path)).toEqual(expect.arrayContaining([['includeTextAnswers'], ['expiresAt'], []]));
    const past = await create({ expiresAt: '2020-01-01T00:00:00Z' });
    expect([past.status, await past.json()]).toMatchObject([400, { errors: [{ path: ['expiresAt'], message: 'Must be in the future' }] }]);
  });

  it('an expired link and a deleted form’s link are 404', async () => {
    const link = (await (await create({ expiresAt: new Date(Date.now() + 60_000).toISOString() })).json()) as {
      id: string;
      url: string;
    };
    expect((await page(link.url)).res.status).toBe(200);
    await db.execute(sql`update form_share_links set expires_at = now() - interval '1 second' where id = ${link.id}`);
    expect((await page(link.url)).res.status).toBe(404);
    expect((await page('/r/not-a-token')).res.status).toBe(404);
    expect((await page(`/r/${'a'.repeat(43)}`)).res.status).toBe(404);
  });
});

describe('share links over GraphQL', () => {
  it('creates, lists and revokes', async () => {
    const made = await graphql(
      app,
      'mutation($id: ID!) { createShareLink(formId: $id, input: {includeTextAnswers: true}) { url shareLink { id includeTextAnswers } } }',
      { id: form.id },
      key(),
    );
    const { url, shareLink } = made.body.data.createShareLink;
    expect(shareLink.includeTextAnswers).toBe(true);
    const listed = await graphql(app, 'query($id: ID!) { shareLinks(formId: $id) { id } }', { id: form.id }, key());
    expect(listed.body.data.shareLinks.map((l: { id: string }) => l.id)).toContain(shareLink.id);
    const revoked = await graphql(app, 'mutation($f: ID!, $id: ID!) { revokeShareLink(formId: $f, id: $id) { revoked } }', { f: form.id, id: shareLink.id }, key());
    expect(revoked.body.data.revokeShareLink.revoked).toBe(true);
    expect((await page(url)).res.status).toBe(404);
  });
});

describe('the results page', () => {
  it('shows the funnel, drop-off, series and every question as SVG with tables, in the form’s language', async () => {
    const { url } = (await (await create({})).json()) as { url: string };
    const { res, text } = await page(url);
    expect(res.status).toBe(200);
    expect(text).toContain('<html lang="de" dir="ltr">');
    expect(text).toContain('<h1>Lead form</h1>');
    expect(text).toContain('Aufrufe, Starts und Abschlüsse');
    // 3 views, 2 starts (66.7 %), 1 finish.
    expect(text).toMatch(/<th scope="row">Aufrufe<\/th><td>3<\/td>/);
    expect(text).toMatch(/<th scope="row">Starts<\/th><td>2 \(66,7\s%\)<\/td>/);
    expect(text).toMatch(/<th scope="row">Abschlüsse<\/th><td>1 \(33,3\s%\)<\/td>/);
    // The unfinished response answered the first step: it left at the second.
    expect(text).toMatch(/<th scope="row">About you<\/th><td>2<\/td><td>0<\/td><td>0\s%<\/td>/);
    expect(text).toMatch(/<th scope="row">Opinion<\/th><td>2<\/td><td>1<\/td><td>50\s%<\/td>/);
    expect(text).toMatch(/<th scope="row">Median<\/th><td>12<\/td>/);
    expect(text).toMatch(/<th scope="row">Pro<\/th><td>2<\/td><td>100\s%<\/td>/);
    expect(text).toMatch(/<th scope="row">Promotoren \(9–10\)<\/th><td>1<\/td>/);
    expect(text).toMatch(/<th scope="row">Speed<\/th><td>0<\/td><td>1<\/td>/);
    expect(text).toContain('Seats?');
    // Every chart is an image named by its own title.
    const charts = [...text.matchAll(/<svg([^>]*)><title id="([^"]+)">/g)];
    expect(charts.length).toBeGreaterThanOrEqual(6);
    for (const [, attributes, id] of charts) {
      expect(attributes).toMatch(/\srole="img"/);
      expect(attributes).toContain(`aria-labelledby="${id}"`);
    }
    expect(text).not.toContain('<script');
  });

  it('carries no personal data; free text only when the link includes it', async () => {
    const plain = await page(((await (await create({})).json()) as { url: string }).url);
    for (const secret of [EMAIL, SECRET, 'onboarding']) expect(plain.text).not.toContain(secret);
    const withText = await page(((await (await create({ includeTextAnswers: true })).json()) as { url: string }).url);
    expect(withText.text).toContain('Loved the &lt;b&gt;onboarding&lt;/b&gt;');
    for (const secret of [EMAIL, SECRET]) expect(withText.text).not.toContain(secret);
  });

  it('answers with the security headers, never cached, not indexed, no referrer, not framed', async () => {
    const { url } = (await (await create({})).json()) as { url: string };
    const { res } = await page(url);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'nonce-[\w+/=]+'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    expect(Object.fromEntries(['cache-control', 'referrer-policy', 'x-robots-tag', 'x-frame-options', 'x-content-type-options'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex, nofollow',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
    const posted = await app.request(url, { method: 'POST' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('reuses a form’s figures for RESULTS_FRESH_SECONDS; the link itself is checked on every request', async () => {
    const { id, url } = (await (await create({})).json()) as { id: string; url: string };
    const views = async (target: App) => /<th scope="row">Aufrufe<\/th><td>(\d+)<\/td>/.exec((await page(url, target)).text)![1];
    const uncached = appWith(db, { resultsFreshMs: 0 });
    const before = await views(app);
    await app.request(`/s/${form.id}/views`, jsonRequest('POST', {}));
    expect(await views(app)).toBe(before);
    expect(Number(await views(uncached))).toBe(Number(before) + 1);
    await app.request(`/api/v1/forms/${form.id}/share-links/${id}`, { method: 'DELETE', headers: key() });
    expect((await page(url)).res.status).toBe(404);
  });

  it('is rate-limited with the public pages (429 page with Retry-After)', async () => {
    const limited = appWith(db, { pageRateLimitPerMinute: 2 });
    const { url } = (await (await create({})).json()) as { url: string };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.request(url)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await limited.request(url);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Too many requests');
  });
});

describe('the results page of a multilingual form', () => {
  const ALL = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'ja', 'ar'];
  const EYEBROW: Record<string, string> = {
    en: 'Results',
    de: 'Ergebnisse',
    fr: 'Résultats',
    es: 'Resultados',
    it: 'Risultati',
    nl: 'Resultaten',
    pt: 'Resultados',
    pl: 'Wyniki',
    ja: '結果',
    ar: 'النتائج',
  };
  let url: string;

  beforeAll(async () => {
    const multi = await makeForm(
      db,
      tenant,
      [
        {
          name: { en: 'About', de: 'Über Sie' },
          components: [
            { type: 'Dropdown', key: 'size', content: { question: { en: 'Team size?', de: 'Teamgröße?' }, options: [{ en: 'Small', de: 'Klein', ar: 'صغير' }, 'Large'] } },
            { type: 'Date', key: 'day', content: { question: 'Day?' } },
          ],
        },
        { name: { en: 'Thanks', de: 'Danke' }, completion: true, components: [{ type: 'Header', content: { title: 'Thanks' } }] },
      ],
      { en: 'Sign-up', de: 'Anmeldung', ar: 'التسجيل' },
      { languages: { default: 'en', others: ALL.slice(1) } },
    );
    const [size, day] = multi.steps[0]!.components.map((c) => c.id);
    for (const [language, option, date] of [
      ['de', 'Klein', '2026-03-05'],
      ['en', 'Small', '2026-04-20'],
      ['ar', 'Large', '2026-04-01'],
    ]) {
      const res = await app.request(`/s/${multi.id}/responses`, jsonRequest('POST', { answers: { [size!]: option, [day!]: date }, finished: true, language }));
      expect(res.status, await res.text()).toBe(201);
    }
    ({ url } = (await (await create({}, multi.id)).json()) as { url: string });
  });

  it('is read in ?lang= (its name, steps, questions and options translated, counted as one set), else Accept-Language, else the default', async () => {
    const german = (await page(`${url}?lang=de`)).text;
    expect(german).toContain('<html lang="de" dir="ltr">');
    expect(german).toContain('<h1>Anmeldung</h1>');
    expect(german).toContain('<title>Anmeldung – Ergebnisse</title>');
    expect(german).toContain('<meta name="description" content="Anmeldung – Ergebnisse" />');
    expect(german).toMatch(/<th scope="row">Über Sie<\/th><td>3<\/td>/);
    expect(german).toContain('Teamgröße?');
    expect(german).toMatch(/<th scope="row">Klein<\/th><td>2<\/td><td>66,7\s%<\/td>/);
    expect(german).toMatch(/<th scope="row">Large<\/th><td>1<\/td>/);
    expect(german).not.toContain('Sign-up');
    // Dates in the language's format: the Date question's earliest and latest, the series' days.
    expect(german).toContain('5. März 2026');
    expect(german).toContain('20. April 2026');
    expect(german).toContain(new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date()));
    expect(german).not.toContain('2026-03-05');

    const res = await app.request(url, { headers: { 'accept-language': 'ar-EG, de;q=0.5' } });
    const arabic = await res.text();
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toMatch(/<h1>\s*التسجيل\s*<\/h1>/);
    expect(arabic).toContain('صغير');
    // An untranslated text stays in the default language.
    expect(arabic).toContain('Team size?');

    for (const target of [url, `${url}?lang=xx`, `${url}?lang=${'de'.repeat(40)}`]) {
      const english = (await page(target)).text;
      expect(english).toContain('<html lang="en" dir="ltr">');
      expect(english).toContain('<h1>Sign-up</h1>');
      expect(english).toMatch(/<th scope="row">Small<\/th><td>2<\/td>/);
      expect(english).toContain('March 5, 2026');
    }
  });

  it('speaks every built-in language, right to left for Arabic', async () => {
    for (const language of ALL) {
      const { text } = await page(`${url}?lang=${language}`);
      expect(text).toContain(`<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">`);
      expect(text).toContain(`<p class="rs-eyebrow">${EYEBROW[language]}</p>`);
      if (language !== 'en') expect(text, language).not.toContain('Views, starts and finishes');
    }
    const { text } = await page(`${url}?lang=ar`);
    expect(text).toContain('text-align:start');
    expect(text).not.toMatch(/text-align:(?:left|right)/);
  });

  it('answers an unknown link in the reader’s language', async () => {
    const res = await app.request(`/r/${'b'.repeat(43)}`, { headers: { 'accept-language': 'pl-PL,pl;q=0.9' } });
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(text).toContain('<html lang="pl" dir="ltr">');
    expect(text).toContain('Nie znaleziono wyników');
    const arabic = await (await app.request(`/r/${'b'.repeat(43)}?lang=ar`)).text();
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
  });
});
