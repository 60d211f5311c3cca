/**
 * Embedding, in-process (the browser side is test/embed.browser.test.ts):
 * - `GET /embed.js`: a cacheable, parseable script under 15 KB, open to every origin;
 * - `embedOrigins` per environment over REST, GraphQL and its validation; the pages' CSP
 *   frame-ancestors follow it, FRAME_ANCESTORS while it is unset;
 * - embed mode (`?embed=1`): no cookie read or set, the session carried by a signed token in links and
 *   posts, the page's root attributes for the frame's messages; a tampered, expired or other form's
 *   token continues nothing.
 */
import { Script } from 'node:vm';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { instanceSecretsOf } from '../../src/auth/admin-token.ts';
import { auditLog, responses } from '../../src/db/schema.ts';
import { embedSessionToken, readEmbedSessionToken } from '../../src/embed/session-token.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { ADMIN_TOKEN, appWith, createTenant, graphql, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, responsesOf, type App } from '../support/public-helpers.ts';

let ctx: TestContext;
let app: App;
let tenant: TestTenant;
let form: Form;
let other: Form;
const HOST = 'https://www.customer.example';
const cookieSecret = instanceSecretsOf(ADMIN_TOKEN).signing.cookies.current;

const STEPS = [
  { name: 'About you', components: [{ type: 'ShortInput', content: { question: 'Your name?', required: true } }] },
  { name: 'Team', components: [{ type: 'Dropdown', content: { question: 'Regions', options: ['Europe', 'Asia'], isMulti: true } }] },
];

beforeAll(async () => {
  ctx = await setupTestApp();
  app = ctx.app;
  tenant = await createTenant(ctx.db);
  form = await makeForm(ctx.db, tenant, STEPS, 'Embedded form');
  other = await makeForm(ctx.db, tenant, STEPS, 'Another form');
});

const settingsPath = () => `/api/v1/environments/${tenant.environmentId}/settings`;
const key = () => ({ 'x-api-key': tenant.apiKey });
const setOrigins = (embedOrigins: unknown) => app.request(settingsPath(), jsonRequest('PATCH', { embedOrigins }, key()));

/** `/s/<id>?embed=1&fl-origin=…` plus `extra`. */
const embedPath = (target: Form, extra = '') => `/s/${target.id}?embed=1&fl-origin=${encodeURIComponent(HOST)}${extra}`;
/** The URL-decoded value of an attribute in a page. */
const attribute = (page: string, name: string) => page.match(new RegExp(` ${name}="([^"]*)"`))?.[1]?.replace(/&amp;/g, '&');
const tokenIn = (url: string) => new URL(url, 'http://x').searchParams.get('fl-token') ?? '';
const post = (path: string, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
};
/** Opens the embedded form and returns the path its first step posts to (with its token). */
async function openEmbedded(target: Form): Promise<string> {
  const page = await (await app.request(embedPath(target))).text();
  return attribute(page, 'action')!;
}

describe('GET /embed.js', () => {
  it('is a small cacheable script any site may load, answered 304 while unchanged', async () => {
    const response = await app.request('/embed.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    expect(Buffer.byteLength(script)).toBeLessThan(15 * 1024);
    // It parses, and it is the embed script.
    expect(() => new Script(script)).not.toThrow();
    expect(script).toContain('data-formloom-form');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await app.request('/embed.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await app.request('/embed.js', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    const head = await app.request('/embed.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    const preflight = await app.request('/embed.js', { method: 'OPTIONS', headers: { origin: HOST, 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await app.request('/embed.js', { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('embedOrigins', () => {
  it('is read and set over REST, normalised, validated with paths, audited, and reset with null', async () => {
    expect(await (await app.request(settingsPath(), { headers: key() })).json()).toMatchObject({ embedOrigins: null });

    const set = await setOrigins(['HTTPS://WWW.Customer.example:443', 'http://localhost:8080', 'https://www.customer.example']);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ embedOrigins: [HOST, 'http://localhost:8080'] });

    const bad = await setOrigins([
      'https://a.example/path',
      'ftp://a.example',
      'https://a.example?x=1',
      'https://user@a.example',
      'https://*.a.example',
      'a.example',
      "https://a.example;script-src 'unsafe-inline'",
      '*',
    ]);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { message: string; errors: { message: string; path: unknown[] }[] };
    expect(body.message).toBe('Invalid request body');
    expect(body.errors.map((error) => error.path)).toEqual([
      ['embedOrigins', 0],
      ['embedOrigins', 1],
      ['embedOrigins', 2],
      ['embedOrigins', 3],
      ['embedOrigins', 4],
      ['embedOrigins', 5],
      ['embedOrigins', 6],
      ['embedOrigins', 7],
    ]);
    expect(body.errors[7]!.message).toBe('"*" (any site) must be the only entry');
    // Nothing changed by the refused request.
    expect(await (await app.request(settingsPath(), { headers: key() })).json()).toMatchObject({ embedOrigins: [HOST, 'http://localhost:8080'] });
    expect((await setOrigins(Array.from({ length: 51 }, (_, i) => `https://s${i}.example`))).status).toBe(400);
    const notStrings = await setOrigins([HOST, 7]);
    expect(notStrings.status).toBe(400);
    expect(((await notStrings.json()) as { errors: { path: unknown[] }[] }).errors.map((error) => error.path)).toEqual([['embedOrigins', 1]]);
    expect((await setOrigins('https://a.example')).status).toBe(400);
    // Characters URL parsing lets through in a host but a CSP header must never carry.
    for (const origin of ['https://a.example;b', "https://a'b.example", 'https://a,b.example', 'https://a_b.example', 'https://[::1]:8080', 'https://a.example#top']) {
      expect((await setOrigins([origin])).status, origin).toBe(400);
    }

    expect(await (await setOrigins(['*'])).json()).toMatchObject({ embedOrigins: ['*'] });
    expect(await (await setOrigins(null)).json()).toMatchObject({ embedOrigins: null });

    const audited = await ctx.db.select().from(auditLog).where(eq(auditLog.environmentId, tenant.environmentId));
    expect(audited.filter((entry) => entry.action === 'environment.settings').map((entry) => entry.details)).toEqual(
      expect.arrayContaining([{ embedOrigins: `${HOST} http://localhost:8080` }, { embedOrigins: '*' }, { embedOrigins: null }]),
    );
  });

  it('is a field and an input of GraphQL, refused there with the same paths', async () => {
    const mutation = 'mutation($env: ID, $origins: [String!]) { updateEnvironmentSettings(environmentId: $env, input: { embedOrigins: $origins }) { embedOrigins } }';
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const set = await graphql(app, mutation, { env: tenant.environmentId, origins: [HOST] }, admin);
    expect(set.body).toEqual({ data: { updateEnvironmentSettings: { embedOrigins: [HOST] } } });
    const bad = await graphql(app, mutation, { env: tenant.environmentId, origins: [`${HOST}/`, '*'] }, admin);
    expect(bad.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors![0].extensions.errors.map((e: { path: unknown[] }) => e.path)).toEqual([
      ['embedOrigins', 0],
      ['embedOrigins', 1],
    ]);
    const read = await graphql(app, `{ environment(id: "${tenant.environmentId}") { embedOrigins } }`, {}, key());
    expect(read.body.data.environment.embedOrigins).toEqual([HOST]);
    await setOrigins(null);
  });

  it("sets the form pages' frame-ancestors, and FRAME_ANCESTORS applies while it is unset", async () => {
    const csp = async (path = `/s/${form.id}`, target = app) => {
      const response = await target.request(path);
      return { policy: response.headers.get('content-security-policy') ?? '', frameOptions: response.headers.get('x-frame-options') };
    };
    expect(await csp()).toMatchObject({ frameOptions: 'SAMEORIGIN' });
    expect((await csp()).policy).toMatch(/frame-ancestors 'self'$/);
    const configured = appWith(ctx.db, { frameAncestors: "'self' https://configured.example" });
    expect((await csp(`/s/${form.id}`, configured)).policy).toMatch(/frame-ancestors 'self' https:\/\/configured\.example$/);

    await setOrigins([HOST, 'http://localhost:8080']);
    // The environment's setting wins over the server's.
    for (const target of [app, configured]) {
      const { policy, frameOptions } = await csp(embedPath(form), target);
      expect(policy).toMatch(new RegExp(`frame-ancestors 'self' ${HOST.replace(/\./g, '\\.')} http://localhost:8080$`));
      expect(frameOptions).toBeNull();
    }
    // Also on a step shown again with errors.
    const invalid = await post(await openEmbedded(form), {});
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${HOST}`);
    await setOrigins(['*']);
    expect((await csp()).policy).toMatch(/frame-ancestors \*$/);
    await setOrigins([]);
    expect(await csp()).toMatchObject({ frameOptions: 'SAMEORIGIN' });
    expect((await csp()).policy).toMatch(/frame-ancestors 'self'$/);
    // Another environment's forms keep the server's setting.
    const elsewhere = await createTenant(ctx.db);
    const theirs = await makeForm(ctx.db, elsewhere, STEPS);
    expect((await csp(`/s/${theirs.id}`, configured)).policy).toMatch(/frame-ancestors 'self' https:\/\/configured\.example$/);
    await setOrigins(null);
  });
});

describe('embed mode', () => {
  it('shows the form without cookies, with its state on the root element and the messages script', async () => {
    const response = await app.request(`${embedPath(form)}&fl-transparent=1&plan=pro`);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    const page = await response.text();
    expect(page).toMatch(
      new RegExp(
        `<html lang="en" dir="ltr" class="fl-embed fl-transparent" data-state="step" data-form-id="${form.id}" data-step-key="step_1" data-step-index="0" data-host-origin="${HOST}">`,
      ),
    );
    const script = /<script nonce="[^"]+" src="(\/assets\/frame\.[\w-]{12}\.js)">/.exec(page)![1]!;
    expect(await (await app.request(script)).text()).toContain("window.parent.postMessage({ source: 'formloom'");
    expect(page).toContain('html.fl-transparent, .fl-transparent body { background: transparent; }');
    const action = attribute(page, 'action')!;
    expect(action).toMatch(new RegExp(`^/s/${form.id}\\?step=0&embed=1&fl-origin=${encodeURIComponent(HOST).replace(/\./g, '\\.')}&fl-transparent=1&fl-token=`));
    expect(readEmbedSessionToken(cookieSecret, form.id, tokenIn(action))).toBeDefined();

    // The stand-alone page has the same attributes, but no host and no messages.
    const plain = await (await app.request(`/s/${form.id}`)).text();
    expect(plain).toContain(`<html lang="en" dir="ltr" data-state="step" data-form-id="${form.id}" data-step-key="step_1" data-step-index="0">`);
    expect(plain).not.toContain("source: 'formloom'");
  });

  it('carries the session in a signed token through every step, and the thank-you page names the response', async () => {
    const action = await openEmbedded(form);
    const first = await post(action, { [field(componentAt(form, 0, 0))]: 'Ada' });
    expect(first.status).toBe(303);
    expect(first.headers.getSetCookie()).toEqual([]);
    const next = first.headers.get('location')!;
    expect(next).toMatch(new RegExp(`^/s/${form.id}\\?step=1&embed=1&fl-origin=`));
    const session = readEmbedSessionToken(cookieSecret, form.id, tokenIn(next))!;
    const [started] = (await responsesOf(ctx.db, form.id)).filter((row) => row.sessionId === session.sessionId);
    expect(started).toMatchObject({ finished: false, leadId: session.leadId });

    const step2 = await (await app.request(next)).text();
    expect(step2).toContain('data-step-key="step_2" data-step-index="1"');
    // The back link carries the token too.
    expect(step2).toMatch(new RegExp(`href="/s/${form.id}\\?step=0&amp;embed=1&amp;fl-origin=[^"]+&amp;fl-token=`));
    const done = await post(attribute(step2, 'action')!, { [field(componentAt(form, 1, 0))]: ['Europe', 'Asia'] });
    expect(done.headers.get('location')).toMatch(/\?done=1&embed=1/);
    const thanks = await (await app.request(done.headers.get('location')!)).text();
    expect(thanks).toContain(`data-state="completed" data-form-id="${form.id}" data-response-id="${started!.id}" data-host-origin="${HOST}"`);
    const [finished] = await ctx.db.select().from(responses).where(eq(responses.id, started!.id));
    expect(finished).toMatchObject({ finished: true });
    expect(finished!.data.find((a) => a.questionId === componentAt(form, 1, 0).id)?.response).toMatchObject({ selected: ['Europe', 'Asia'] });
  });

  it('refuses a tampered token, another form’s token and an expired one, and stores nothing for them', async () => {
    const action = await openEmbedded(form);
    const answered = await post(action, { [field(componentAt(form, 0, 0))]: 'Victim' });
    const victimNext = answered.headers.get('location')!;
    const victim = readEmbedSessionToken(cookieSecret, form.id, tokenIn(victimNext))!;
    const before = await responsesOf(ctx.db, form.id);
    const otherBefore = await responsesOf(ctx.db, other.id);

    const [sessionId, leadId, expires, mac] = tokenIn(victimNext).split('.') as [string, string, string, string];
    const withToken = (target: Form, token: string, step = 1) => `/s/${target.id}?step=${step}&embed=1&fl-origin=${encodeURIComponent(HOST)}&fl-token=${encodeURIComponent(token)}`;
    const attacker = tokenIn(await openEmbedded(form)).split('.');
    const tampered = [
      // Another session with the attacker's own signature, a longer expiry, another lead, a broken mac.
      [sessionId, attacker[1], attacker[2], attacker[3]].join('.'),
      [sessionId, leadId, String(Number(expires) + 3600), mac].join('.'),
      [sessionId, 'someone-else', expires, mac].join('.'),
      [sessionId, leadId, expires, `${mac.slice(0, -2)}AA`].join('.'),
      `${sessionId}.${leadId}.${expires}`,
      'garbage',
    ];
    const expired = embedSessionToken(cookieSecret, form.id, victim, Date.now() - 2 * 24 * 3600 * 1000);
    const cases: [Form, string][] = [...tampered.map((token) => [form, token] as [Form, string]), [other, tokenIn(victimNext)], [form, expired]];
    for (const [target, token] of cases) {
      const refused = await post(withToken(target, token), { [field(componentAt(target, 1, 0))]: 'Europe' });
      expect(refused.status, token).toBe(400);
      const page = await refused.text();
      expect(page).toContain('Session expired');
      expect(page).toContain(`href="/s/${target.id}?embed=1&amp;fl-origin=`);
      // A refused token's GET starts a fresh session: nothing of the victim's answers is shown.
      const shown = await (await app.request(withToken(target, token, 0))).text();
      expect(shown).not.toContain('Victim');
      expect(readEmbedSessionToken(cookieSecret, target.id, tokenIn(attribute(shown, 'action')!))!.sessionId).not.toBe(victim.sessionId);
    }
    expect(await responsesOf(ctx.db, form.id)).toEqual(before);
    expect(await responsesOf(ctx.db, other.id)).toEqual(otherBefore);

    // The victim's own token still works, and shows their answers.
    const own = await (await app.request(withToken(form, tokenIn(victimNext), 0))).text();
    expect(own).toContain('value="Victim"');
  });

  /**
   * Session fixation: the attacker opens the embedded form, copies the token from a link and sends the
   * victim `…&fl-token=<token>`. The token rotates at the first submission and at every step, so the copied
   * link (and any token a later step superseded) neither shows nor changes the victim's response.
   */
  it('rotates the token at the first submission and at every step: a link another browser used continues nothing', async () => {
    const name = componentAt(form, 0, 0);
    const planted = await openEmbedded(form);
    const fixed = tokenIn(planted);
    const first = await post(planted, { [field(name)]: 'victim@example.com' });
    expect(first.status).toBe(303);
    const afterFirst = first.headers.get('location')!;
    const session = readEmbedSessionToken(cookieSecret, form.id, tokenIn(afterFirst))!;
    expect(session.sessionId).not.toBe(readEmbedSessionToken(cookieSecret, form.id, fixed)!.sessionId);
    const [victimRow] = (await responsesOf(ctx.db, form.id)).filter((row) => row.sessionId === session.sessionId);
    expect(victimRow).toBeDefined();
    const before = await responsesOf(ctx.db, form.id);

    // The attacker's copy shows a fresh form, and its post changes nothing of the victim's.
    const withToken = (token: string, step: number) => `/s/${form.id}?step=${step}&embed=1&fl-origin=${encodeURIComponent(HOST)}&fl-token=${encodeURIComponent(token)}`;
    const shown = await (await app.request(withToken(fixed, 0))).text();
    expect(shown).not.toContain('victim@example.com');
    expect(shown).toContain('data-step-index="0"');

    // The victim's next step rotates again: the token of step 2's page is superseded once step 2 is posted.
    const step2 = await (await app.request(afterFirst)).text();
    const action2 = attribute(step2, 'action')!;
    const second = await post(action2, { [field(componentAt(form, 1, 0))]: 'Europe' });
    expect(second.headers.get('location')).toMatch(/\?done=1&embed=1/);
    const superseded = tokenIn(action2);
    expect(await (await app.request(withToken(superseded, 0))).text()).not.toContain('victim@example.com');
    const hijack = await post(withToken(superseded, 0), { [field(name)]: 'attacker@example.com' });
    expect([303, 400]).toContain(hijack.status);
    const [after] = (await responsesOf(ctx.db, form.id)).filter((row) => row.id === victimRow!.id);
    expect(after).toMatchObject({ finished: true });
    expect(JSON.stringify(after!.data)).toContain('victim@example.com');
    expect(JSON.stringify(after!.data)).not.toContain('attacker@example.com');
    expect((await responsesOf(ctx.db, form.id)).filter((row) => before.some((old) => old.id === row.id) && row.id !== victimRow!.id)).toEqual(
      before.filter((row) => row.id !== victimRow!.id),
    );
  });

  it('starts a fresh session for embed=1 on a top-level navigation (Sec-Fetch-Dest: document), whatever token the link holds', async () => {
    const action = await openEmbedded(form);
    const next = (await post(action, { [field(componentAt(form, 0, 0))]: 'Top' })).headers.get('location')!;
    const back = `${next.replace('step=1', 'step=0')}`;
    const framed = await (await app.request(back, { headers: { 'sec-fetch-dest': 'iframe' } })).text();
    expect(framed).toContain('value="Top"');
    const opened = await app.request(back, { headers: { 'sec-fetch-dest': 'document' } });
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).not.toContain('value="Top"');
    const fresh = readEmbedSessionToken(cookieSecret, form.id, tokenIn(attribute(page, 'action')!))!;
    expect(fresh.sessionId).not.toBe(readEmbedSessionToken(cookieSecret, form.id, tokenIn(next))!.sessionId);
  });

  it('refuses an fl-origin that is not an origin, and ignores cookies in embed mode', async () => {
    for (const origin of ['https://a.example/path', 'javascript:alert(1)', 'null', '*']) {
      const response = await app.request(`/s/${form.id}?embed=1&fl-origin=${encodeURIComponent(origin)}`);
      expect(response.status, origin).toBe(400);
      expect(await response.text()).toContain('fl-origin must be the embedding page');
    }
    // A session cookie of the stand-alone page does not reach the embedded form's session.
    const cookiePage = await app.request(`/s/${form.id}`);
    const cookie = cookiePage.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await app.request(`/s/${form.id}?step=0`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `${field(componentAt(form, 0, 0))}=CookieUser`,
    });
    const embedded = await (await app.request(embedPath(form), { headers: { cookie } })).text();
    expect(embedded).toContain('data-step-index="0"');
    expect(embedded).not.toContain('CookieUser');
  });

  it('shows closed and missing forms in embed mode with the frame script, so the host shows the message', async () => {
    const closed = await makeForm(ctx.db, tenant, STEPS, 'Closed form');
    await app.request(`/api/v1/environments/${tenant.environmentId}/forms/${closed.id}/close`, { method: 'POST', headers: key() });
    const page = await app.request(embedPath(closed));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(`data-state="closed" data-form-id="${closed.id}" data-host-origin="${HOST}"`);
    const missing = await app.request(`/s/nope?embed=1&fl-origin=${encodeURIComponent(HOST)}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`data-state="message" data-host-origin="${HOST}"`);
  });
});
