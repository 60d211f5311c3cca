/**
 * Property-based, as test/hostile.property.test.ts: what embedding added, driven with generated hostile
 * input. For each request the checks of test/hostile-checks.ts (never a 5xx, the documented body,
 * nothing leaked, nothing stored by a refusal; pages: an HTML answer), and:
 * - `embedOrigins` (REST and GraphQL): whatever is accepted is stored as origins a CSP can carry, and
 *   the pages' `frame-ancestors` never gains a directive (no `;`, quote, comma or space inside a source);
 * - the page in embed mode with hostile `fl-origin`, `fl-token`, `fl-transparent` and hidden-field
 *   parameters: no 5xx, no cookie set, a hostile token continues no session, and the host origin on the
 *   page is always an origin;
 * - `locale` at generate: accepted only as a supported, canonical tag, else a 400 at `locale`;
 * - `allowAnotherResponse` at generate: a boolean or null, else a 400 at `allowAnotherResponse`;
 * - `/embed.js` and `/assets/…` with hostile paths, query parameters, headers (Accept-Encoding) and methods.
 * Runs per property: HOSTILE_RUNS (default 40).
 */
import { fc, test } from '@fast-check/vitest';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect } from 'vitest';
import { apiKeys, auditLog, environments, erasures, forms, leads, responses, uploads, webhookDeliveries, webhookEndpoints } from '../../src/db/schema.ts';
import { canonicalLocale } from '../../src/i18n/locales.ts';
import { HOSTILE_OPTIONS, hostileString, hostileValue, sendHostile } from '../support/hostile-checks.ts';
import { ADMIN_TOKEN, appWith, createTenant, setupIsolatedTestApp, validBody, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

const options = HOSTILE_OPTIONS;

let ctx: TestContext;
let target: { db: TestContext['db']; app: TestContext['app'] };
let tenant: TestTenant;
let formId: string;
let goodAction: string;

const LEAKS = [/\bat .*\.(ts|js|mjs):\d+/, /node_modules/, /\/work\//, /\bselect\b.+\bfrom\b/i, /PostgresError/i, /Maximum call stack/i, /SyntaxError/];
/** A CSP source list as formloom writes it: keywords and scheme://host[:port] sources separated by single spaces. */
const SAFE_ANCESTORS = /^frame-ancestors (\*|'self'|'none'|https?:\/\/[a-z0-9.-]+(:\d+)?)( (\*|'self'|https?:\/\/[a-z0-9.-]+(:\d+)?))*$/;

beforeAll(async () => {
  // Row counts must see this file's writes only.
  ctx = await setupIsolatedTestApp();
  // The handlers, not the rate limits, are under test here.
  const app = appWith(ctx.db, { apiRateLimitPerMinute: 0, authFailureLimitPerMinute: 0, anonymousRateLimitPerMinute: 0, publicRateLimitPerMinute: 0 });
  target = { db: ctx.db, app };
  tenant = await createTenant(ctx.db);
  formId = (
    await makeForm(ctx.db, tenant, [
      { name: 'A', components: [{ type: 'ShortInput', content: { question: 'Q?' } }] },
      { name: 'B', components: [{ type: 'Dropdown', content: { question: 'Pick', options: ['a', 'b'], isMulti: true } }] },
    ])
  ).id;
  const page = await (await app.request(`/s/${formId}?embed=1&fl-origin=${encodeURIComponent('https://host.example')}`)).text();
  goodAction = page.match(/ action="([^"]*)"/)![1]!.replace(/&amp;/g, '&');
});

async function rowCounts() {
  const rows = await Promise.all(
    [environments, apiKeys, forms, responses, leads, webhookEndpoints, webhookDeliveries, auditLog, erasures, uploads].map((table) => ctx.db.select({ n: count() }).from(table)),
  );
  return rows.map(([row]) => row!.n);
}

/** A page request: never a 5xx or a leak, an HTML answer for a refusal, nothing stored by one, and no cookie in embed mode. */
async function sendPage(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const before = await rowCounts();
  const response = await target.app.request(path, init);
  const text = await response.text();
  const label = `${init.method ?? 'GET'} ${path.slice(0, 160)} → ${response.status}: ${text.slice(0, 200)}`;
  expect(response.status, label).toBeLessThan(500);
  for (const leak of LEAKS) expect(text, label).not.toMatch(leak);
  if (response.status >= 400) {
    expect(response.headers.get('content-type') ?? '', label).toContain('text/html');
    if (response.status !== 422) expect(await rowCounts(), `${label}: a refused request stored something`).toEqual(before);
  }
  // Embed mode is `embed=1` exactly (the first `embed` parameter, as the page reads it): `embed=1e309` is not.
  if (new URL(path, 'http://formloom.test').searchParams.get('embed') === '1') expect(response.headers.getSetCookie(), label).toEqual([]);
  const ancestors = response.headers
    .get('content-security-policy')
    ?.split('; ')
    .find((part) => part.startsWith('frame-ancestors'));
  if (ancestors) expect(ancestors, label).toMatch(SAFE_ANCESTORS);
  // The host origin a page posts to is an origin, whatever was asked for.
  const host = text.match(/ data-host-origin="([^"]*)"/)?.[1];
  if (host !== undefined) expect(host, label).toMatch(/^https?:\/\/[a-z0-9.-]+(:\d+)?$/);
  return { status: response.status, text, headers: response.headers };
}

/** Origin-like strings: real ones, and the near misses an attacker tries. */
const originish = fc.oneof(
  hostileString,
  fc.constantFrom(
    '*',
    'https://a.example',
    'http://localhost:3000',
    'https://a.example/',
    'https://a.example;script-src *',
    "https://a.example'",
    'https://a.example, https://b',
    'javascript:alert(1)',
    'data:,x',
    'https://*.a.example',
    'https://[::1]',
    'https://ａ.example',
    'HTTPS://A.EXAMPLE:443',
    'null',
    'https://a.example\nx',
  ),
  fc
    .tuple(fc.constantFrom('http://', 'https://', 'HTTP://', ''), fc.string({ maxLength: 20 }), fc.constantFrom('', ':80', ':0', ':65536', '/p', '?q', '#f', '@x'))
    .map(([scheme, host, tail]) => `${scheme}${host}${tail}`),
);

describe('embedOrigins', () => {
  test.prop([fc.oneof(fc.array(originish, { maxLength: 5 }), hostileValue)], options)(
    'REST PATCH: accepted origins are CSP-safe; pages never gain a directive',
    async (embedOrigins) => {
      const answer = await sendHostile(
        target,
        `/api/v1/environments/${tenant.environmentId}/settings`,
        {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
          body: JSON.stringify({ embedOrigins }),
        },
        'json',
      );
      if (answer.status === 200) {
        const stored = (answer.body as { embedOrigins: string[] | null }).embedOrigins;
        for (const origin of stored ?? []) expect(origin, answer.label).toMatch(/^(\*|https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?)$/);
        await sendPage(`/s/${formId}`);
      }
    },
  );

  test.prop([hostileValue], options)('GraphQL updateEnvironmentSettings: hostile embedOrigins', async (embedOrigins) => {
    await sendHostile(
      target,
      '/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({
          query: 'mutation($env: ID, $o: [String!]) { updateEnvironmentSettings(environmentId: $env, input: { embedOrigins: $o }) { embedOrigins } }',
          variables: { env: tenant.environmentId, o: embedOrigins },
        }),
      },
      'graphql',
    );
  });
});

describe('the page in embed mode', () => {
  const params = fc.dictionary(
    fc.oneof(fc.constantFrom('embed', 'fl-origin', 'fl-token', 'fl-transparent', 'step', 'new', 'done', 'plan', 'utm_source'), hostileString),
    fc.oneof(hostileString, originish, fc.constantFrom('1', '0', 'true')),
    { maxKeys: 5 },
  );
  test.prop([params, fc.boolean()], options)('GET with hostile embed and hidden-field parameters', async (query, embedded) => {
    const search = new URLSearchParams(embedded ? { embed: '1' } : {});
    for (const [name, value] of Object.entries(query)) search.append(name, value);
    await sendPage(`/s/${formId}?${search}`);
  });

  const tokenish = fc.oneof(
    hostileString,
    fc
      .tuple(
        fc.string({ maxLength: 70 }),
        fc.string({ maxLength: 70 }),
        fc.oneof(fc.string({ maxLength: 14 }), fc.constantFrom('0', '99999999999', '-1', '1e9')),
        fc.string({ maxLength: 50 }),
      )
      .map((parts) => parts.join('.')),
  );
  test.prop([tokenish, fc.array(fc.tuple(hostileString, hostileString), { maxLength: 4 }), fc.constantFrom('0', '1', 'x')], options)(
    'POST with a hostile token continues no session and stores nothing',
    async (token, fields, step) => {
      const body = new URLSearchParams();
      for (const [name, value] of fields) body.append(name, value);
      // URLSearchParams writes a lone surrogate as U+FFFD, as any HTTP client sends it.
      const path = `/s/${formId}?${new URLSearchParams({ step, embed: '1', 'fl-origin': 'https://host.example', 'fl-token': token })}`;
      const before = await rowCounts();
      const answer = await sendPage(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
      // Only a token formloom signed can be used; these never were (413: a body over the limit is refused first).
      if (token !== '') {
        expect([400, 413], `${path.slice(0, 200)} → ${answer.status}`).toContain(answer.status);
        expect(await rowCounts()).toEqual(before);
      }
    },
  );

  // Session fixation: any token the victim's browser was handed before its latest step (the first page's
  // included) is replayed by the attacker, framed or top-level; it never shows the victim's answer nor changes it.
  test.prop([fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 3 }), fc.nat(), fc.constantFrom('iframe', 'document', undefined), fc.constantFrom('0', '1')], options)(
    'a superseded token neither reads nor writes the response',
    async (victimSteps, pick, dest, step) => {
      const marker = `victim-${Math.random().toString(36).slice(2)}`;
      const form = (await target.db.select().from(forms).where(eq(forms.id, formId)))[0]!;
      const [q, pickMany] = [form.steps[0]!.components[0]!.id, form.steps[1]!.components[0]!.id];
      const tokens: string[] = [];
      let action = (await (await target.app.request(`/s/${formId}?embed=1&fl-origin=${encodeURIComponent('https://host.example')}`)).text())
        .match(/ action="([^"]*)"/)![1]!
        .replace(/&amp;/g, '&');
      let responseId: string | undefined;
      for (const at of [0, ...victimSteps]) {
        const here = action.replace(/step=\d/, `step=${at}`);
        tokens.push(new URL(here, 'http://x').searchParams.get('fl-token')!);
        const posted = await target.app.request(here, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: at === 0 ? `c.${q}=${marker}` : `c.${pickMany}=a`,
        });
        const location = posted.headers.get('location');
        if (!location) break;
        const page = await (await target.app.request(location.replace(/step=\d|done=1/, 'step=0'))).text();
        action = page.match(/ action="([^"]*)"/)?.[1]?.replace(/&amp;/g, '&') ?? location;
        responseId ??= (await target.db.select().from(responses).where(eq(responses.formId, formId))).find((row) => JSON.stringify(row.data).includes(marker))?.id;
      }
      const stale = tokens[pick % tokens.length]!;
      const replay = `/s/${formId}?${new URLSearchParams({ step, embed: '1', 'fl-origin': 'https://host.example', 'fl-token': stale })}`;
      const headers: Record<string, string> = dest ? { 'sec-fetch-dest': dest } : {};
      expect((await sendPage(replay, { headers })).text).not.toContain(marker);
      await sendPage(replay, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: `c.${q}=attacker` });
      const [row] = await target.db.select().from(responses).where(eq(responses.id, responseId!));
      expect(JSON.stringify(row!.data)).toContain(marker);
      expect(JSON.stringify(row!.data)).not.toContain('attacker');
    },
  );

  test.prop([fc.array(fc.tuple(hostileString, hostileString), { maxLength: 4 })], options)("POST with the page's own token: hostile fields", async (fields) => {
    const body = new URLSearchParams();
    for (const [name, value] of fields) body.append(name, value);
    await sendPage(goodAction, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  });
});

describe('locale and /embed.js', () => {
  test.prop([fc.oneof(hostileValue, hostileString, fc.constantFrom('de', 'de-CH', 'en-US-x-private', 'zh-Hant-TW', 'i-klingon', 'de-', 'und', 'root', 'EN', 'fr-ca'))], options)(
    'generate: hostile locales',
    async (locale) => {
      const answer = await sendHostile(
        target,
        `/api/v1/environments/${tenant.environmentId}/forms/generate`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
          body: JSON.stringify({ ...validBody(tenant.templateId), locale }),
        },
        'json',
      );
      // What the server receives (NaN and Infinity travel as null).
      const sent: unknown = JSON.parse(JSON.stringify({ locale })).locale;
      const acceptable = sent === null || sent === undefined || (typeof sent === 'string' && canonicalLocale(sent) !== undefined);
      expect(answer.status, answer.label).toBe(acceptable ? 200 : 400);
      // Refused at `locale` (or inside it, for a list or an object given as the locale).
      if (!acceptable)
        expect(
          (answer.body as { errors: { path: unknown[] }[] }).errors.some((e) => e.path[0] === 'locale'),
          answer.label.slice(0, 300),
        ).toBe(true);
    },
  );

  const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
  test.prop(
    [
      fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
      fc.record({ 'if-none-match': headerValue, origin: headerValue }, { requiredKeys: [] }),
      fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'),
    ],
    options,
  )('GET /embed.js: hostile query, headers and methods', async (query, headers, method) => {
    const answer = await target.app.request(`/embed.js?${new URLSearchParams(query)}`, { method, headers });
    const text = await answer.text();
    expect(answer.status).toBeLessThan(500);
    expect([200, 204, 304, 400, 405]).toContain(answer.status);
    for (const leak of LEAKS) expect(text).not.toMatch(leak);
  });

  test.prop([fc.oneof(hostileValue, hostileString, fc.boolean())], options)('generate: hostile allowAnotherResponse', async (allowAnotherResponse) => {
    const answer = await sendHostile(
      target,
      `/api/v1/environments/${tenant.environmentId}/forms/generate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
        body: JSON.stringify({ ...validBody(tenant.templateId), allowAnotherResponse }),
      },
      'json',
    );
    const sent: unknown = JSON.parse(JSON.stringify({ allowAnotherResponse })).allowAnotherResponse;
    const acceptable = sent === null || sent === undefined || typeof sent === 'boolean';
    expect(answer.status, answer.label).toBe(acceptable ? 200 : 400);
    if (!acceptable)
      expect(
        (answer.body as { errors: { path: unknown[] }[] }).errors.some((e) => e.path[0] === 'allowAnotherResponse'),
        answer.label.slice(0, 300),
      ).toBe(true);
  });

  const pathPart = fc.oneof(
    hostileString.map((s) => encodeURIComponent(s.toWellFormed())),
    fc.constantFrom('..', '%2e%2e', 'fonts', 'page.js', 'fonts/inter.css', '%00', '//', 'fonts/..%2f..%2fpackage.json'),
  );
  test.prop(
    [
      fc.array(pathPart, { minLength: 1, maxLength: 3 }),
      fc.record({ 'accept-encoding': headerValue, 'if-none-match': headerValue, range: headerValue }, { requiredKeys: [] }),
      fc.constantFrom('GET', 'HEAD', 'POST', 'PUT'),
    ],
    options,
  )('GET /assets/…: hostile paths, codings and methods', async (parts, headers, method) => {
    const answer = await target.app.request(`/assets/${parts.join('/')}`, { method, headers });
    const text = await answer.text();
    expect([200, 304, 400, 404, 405]).toContain(answer.status);
    for (const leak of LEAKS) expect(text).not.toMatch(leak);
    // Only an asset formloom made is ever sent: never a file of the disk.
    if (answer.status === 200) expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
