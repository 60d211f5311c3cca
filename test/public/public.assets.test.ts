/**
 * The pages' static files: the page script, the self-hosted theme fonts (stylesheets and woff2 files)
 * and /embed.js, each compressed as the request's Accept-Encoding asks (Brotli, gzip or none), with an
 * ETag; the hashed /assets/ files cached for a year (immutable), /embed.js for minutes. By default a
 * page loads nothing from a third party.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { HOST_SCRIPT } from '../../src/embed/host-script.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { CLIENT_SCRIPT } from '../../src/public/client-script.ts';
import { negotiateEncoding } from '../../src/public/static-assets.ts';
import type { Database } from '../../src/db/client.ts';
import { appWith, createTenant, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { makeForm, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;
const STEPS = [
  { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q1' } }] },
  { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Q2' } }] },
];

beforeAll(async () => {
  ({ db, app } = await setupTestApp({ fontsCssUrl: loadConfig({}).fontsCssUrl }));
  // The template's theme: Playfair Display headings, Source Sans 3 text.
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, STEPS);
});

const decoded = async (response: Response): Promise<Buffer> => {
  const bytes = Buffer.from(await response.arrayBuffer());
  const coding = response.headers.get('content-encoding');
  return coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes;
};
const linked = (page: string, pattern: RegExp) => [...page.matchAll(pattern)].map((m) => m[1]!);

describe('static assets', () => {
  it('serves the theme’s fonts from formloom by default: one stylesheet per family, its @font-face rules naming the theme’s family', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    const sheets = linked(page, /<link rel="stylesheet" href="([^"]+)"/g);
    expect(sheets).toHaveLength(2);
    expect(sheets[0]).toMatch(/^\/assets\/fonts\/playfair-display\.[\w-]{12}\.css$/);
    expect(sheets[1]).toMatch(/^\/assets\/fonts\/source-sans-3\.[\w-]{12}\.css$/);
    expect(page).not.toMatch(/https:\/\/fonts\./);
    const css = await (await app.request(sheets[0]!)).text();
    expect(css).toContain("font-family: 'Playfair Display';");
    expect(css).not.toContain('Variable');
    const files = linked(css, /url\(([^)]+)\)/g);
    expect(files.length).toBeGreaterThan(1);
    // The latin file is the package's own bytes, sent as they are (woff2 is compressed already).
    const latin = files.find((file) => file.includes('-latin-wght-normal.'))!;
    const font = await app.request(latin, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(font.headers.get('content-encoding')).toBeNull();
    expect(font.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const own = readFileSync(createRequire(import.meta.url).resolve('@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2'));
    expect(Buffer.from(await font.arrayBuffer()).equals(own)).toBe(true);
  });

  it('lets the page load its fonts and script from formloom alone (CSP), and FONTS_CSS_URL still points elsewhere or turns fonts off', async () => {
    const response = await app.request(`/s/${form.id}`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/style-src 'nonce-[^']+' 'self';/);
    expect(csp).toContain("font-src 'self';");
    const service = await appWith(db, { fontsCssUrl: 'https://fonts.example.net/css2' }).request(`/s/${form.id}`);
    expect(await service.text()).toContain(
      'href="https://fonts.example.net/css2?family=Playfair+Display:wght@400;600;700&amp;family=Source+Sans+3:wght@400;600;700&amp;display=swap"',
    );
    const none = await (await appWith(db, { fontsCssUrl: undefined }).request(`/s/${form.id}`)).text();
    expect(none).not.toContain('<link rel="stylesheet"');
    // A font formloom does not ship falls back to the system stack: nothing to load.
    const other = await createTenant(db, {
      theme: { ...tenant.template.theme!, fonts: { heading: 'Comic Neue', body: 'Comic Neue' } },
    });
    const otherForm = await makeForm(db, other, STEPS);
    expect(await (await app.request(`/s/${otherForm.id}`)).text()).not.toContain('<link rel="stylesheet"');
  });

  it('sends the page script and stylesheets compressed as Accept-Encoding asks, with an ETag, cached for a year', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    const [script] = linked(page, /<script nonce="[^"]+" src="([^"]+)"/g);
    expect(script).toMatch(/^\/assets\/page\.[\w-]{12}\.js$/);
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['br;q=0, *;q=0.1', 'gzip'],
      ['identity', null],
      [undefined, null],
    ] as const) {
      const response = await app.request(script!, {
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-encoding'), accept).toBe(coding);
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect((await decoded(response)).toString('utf8')).toBe(CLIENT_SCRIPT);
    }
    const br = await app.request(script!, { headers: { 'accept-encoding': 'br' } });
    expect(Number(br.headers.get('content-length'))).toBeLessThan(CLIENT_SCRIPT.length / 2);
    const again = await app.request(script!, { headers: { 'if-none-match': br.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const sheet = linked(page, /<link rel="stylesheet" href="([^"]+)"/g)[0]!;
    const css = await app.request(sheet, { headers: { 'accept-encoding': 'gzip' } });
    expect([css.headers.get('content-encoding'), css.headers.get('content-type')]).toEqual(['gzip', 'text/css; charset=utf-8']);
  });

  it('sends /embed.js compressed too, revalidated after minutes (its address never changes)', async () => {
    const response = await app.request('/embed.js', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect((await decoded(response)).toString('utf8')).toBe(HOST_SCRIPT);
    const plain = await app.request('/embed.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(HOST_SCRIPT);
  });

  it('answers an unknown asset 404 and another method 405', async () => {
    expect((await app.request('/assets/page.000000000000.js')).status).toBe(404);
    expect((await app.request('/assets/fonts/../../package.json')).status).toBe(404);
    expect((await app.request('/assets/page.js', { method: 'POST' })).status).toBe(405);
  });

  it('negotiates codings by their q-values', () => {
    const both = { gzip: new Uint8Array(), br: new Uint8Array() };
    expect(negotiateEncoding('gzip;q=1.0, br;q=0.9', both)).toBe('gzip');
    expect(negotiateEncoding('BR', both)).toBe('br');
    expect(negotiateEncoding('gzip;q=0', both)).toBe('identity');
    expect(negotiateEncoding('br', {})).toBe('identity');
    expect(negotiateEncoding('deflate', both)).toBe('identity');
  });
});
