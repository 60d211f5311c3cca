/**
 * Property-based, IPv6 at the edge (fast-check; HOSTILE_RUNS runs per property, default 40):
 * - webhook URLs: an IPv6 address carrying an IPv4 address, in any spelling and whatever IPv4 address it
 *   carries, is refused; any IPv6 address gets the same answer in every spelling, and is allowed only
 *   inside 2000::/3; a refusal is a 400 on `url` that stores nothing;
 * - client addresses (X-Forwarded-For): any text is answered without a 5xx; two addresses of one /64, in
 *   any spelling, share the failed-authentication budget, another /64 does not;
 * - the environment settings route (PATCH /api/v1/environments/{id}/settings) with hostile bodies: no
 *   5xx, the documented error body, nothing changed by a refusal, and no secret key echoed.
 */
import { fc, test } from '@fast-check/vitest';
import { count, eq } from 'drizzle-orm';
import { HOSTILE_OPTIONS } from '../support/hostile-checks.ts';
import { beforeAll, describe, expect } from 'vitest';
import { environments, webhookEndpoints } from '../../src/db/schema.ts';
import { appWith, createTenant, jsonRequest, setupIsolatedTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';

const options = HOSTILE_OPTIONS;

let ctx: TestContext;
let strict: TestContext['app'];
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupIsolatedTestApp(); // counts rows
  // Webhook address rules on (the default), the per-key and anonymous limits out of the way.
  strict = appWith(ctx.db, { webhooks: { ...testConfig().webhooks, allowPrivate: false }, apiRateLimitPerMinute: 0, anonymousRateLimitPerMinute: 0 });
  tenant = await createTenant(ctx.db);
});

// ---------------------------------------------------------------- spellings

const hex = (word: number) => word.toString(16);
const ipv4Bytes = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const dotted = ([a, b, c, d]: number[]) => `${a}.${b}.${c}.${d}`;
const wordsOf = ([a, b, c, d]: number[]) => [(a! << 8) | b!, (c! << 8) | d!];

/** The eight 16-bit words of an IPv6 address (as URL writes it, so any spelling fast-check makes). */
function words(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((word) => parseInt(word, 16));
}

/** Ways to write the same address: compressed, in full with leading zeros, in capitals, the last 32 bits dotted. */
function spellings(eight: number[]): string[] {
  const full = eight.map((w) => w.toString(16).padStart(4, '0')).join(':');
  const plain = eight.map(hex).join(':');
  const compressed = new URL(`http://[${plain}]/`).hostname.slice(1, -1);
  const last = [eight[6]! >> 8, eight[6]! & 255, eight[7]! >> 8, eight[7]! & 255];
  return [compressed, full, full.toUpperCase(), `${eight.slice(0, 6).map(hex).join(':')}:${dotted(last)}`];
}

/** An IPv6 address that carries an IPv4 address, in one of the forms that do, in one spelling. */
const carryingIpv4 = fc.tuple(ipv4Bytes, fc.nat(8), fc.nat(3)).map(([v4, form, spelling]) => {
  const [hi, lo] = wordsOf(v4);
  const forms: number[][] = [
    [0, 0, 0, 0, 0, 0xffff, hi!, lo!], // IPv4-mapped
    [0, 0, 0, 0, 0xffff, 0, hi!, lo!], // SIIT (IPv4-translated)
    [0, 0, 0, 0, 0, 0, hi!, lo!], // IPv4-compatible
    [0x64, 0xff9b, 0, 0, 0, 0, hi!, lo!], // NAT64, well-known prefix
    [0x64, 0xff9b, 1, 0, 0, 0, hi!, lo!], // NAT64, local-use prefix
    [0x2002, hi!, lo!, 0, 0, 0, 0, 1], // 6to4
    [0x2001, 0, 0x4136, 0xe378, 0x8000, 0x63bf, hi! ^ 0xffff, lo! ^ 0xffff], // Teredo (client obfuscated)
    [0x2001, 0, hi!, lo!, 0, 0, 0, 1], // Teredo (server)
    [0x64, 0xff9b, 1, hi!, lo!, 0, 0, 0], // NAT64 local-use, IPv4 elsewhere in the address
  ];
  const eight = forms[form]!;
  return { address: spellings(eight)[spelling]!, carried: dotted(v4) };
});

const webhookAnswer = async (address: string) => {
  const before = await endpointCount();
  const response = await strict.request(
    '/api/v1/webhooks',
    jsonRequest('POST', { url: `http://[${address}]:8080/hook`, eventTypes: ['response.created'] }, { 'x-api-key': tenant.apiKey }),
  );
  const body = (await response.json()) as { id?: string; errors?: { path: unknown[] }[] };
  if (response.status === 201) await strict.request(`/api/v1/webhooks/${body.id}`, { method: 'DELETE', headers: { 'x-api-key': tenant.apiKey } });
  else {
    expect(response.status, address).toBe(400);
    expect(
      body.errors!.map((e) => e.path),
      address,
    ).toEqual([['url']]);
    expect(await endpointCount(), `${address}: a refused endpoint was stored`).toBe(before);
  }
  return response.status;
};
const endpointCount = async () => (await ctx.db.select({ n: count() }).from(webhookEndpoints))[0]!.n;

describe('webhook URLs with IPv6 addresses', () => {
  test.prop([carryingIpv4], options)('an address carrying an IPv4 address is refused, whatever it carries and however written', async ({ address }) => {
    expect(await webhookAnswer(address)).toBe(400);
  });

  test.prop([fc.ipV6(), fc.nat(3), fc.nat(3)], options)('any address gets the same answer in every spelling, and is allowed only inside 2000::/3', async (address, one, other) => {
    const eight = words(address);
    const forms = spellings(eight);
    const first = await webhookAnswer(forms[one]!);
    expect(await webhookAnswer(forms[other]!)).toBe(first);
    if (first === 201) expect(eight[0]! & 0xe000, address).toBe(0x2000);
  });
});

// ---------------------------------------------------------------- client addresses

describe('client addresses', () => {
  test.prop(
    [fc.oneof(fc.ipV6(), fc.ipV4(), fc.string({ maxLength: 60 }), fc.constantFrom('::ffff:1.2.3.4', '[::1]', 'fe80::1%eth0', '2001:db8::1, 10.0.0.1', '::ffff:0:1.2.3.4'))],
    options,
  )('any forwarded address is answered without a 5xx', async (forwarded) => {
    const app = appWith(ctx.db, { trustProxy: 1, authFailureLimitPerMinute: 1000 });
    const header = forwarded.replace(/[\r\n\0]/g, '');
    const response = await app.request('/api/v1/responses?limit=1', { headers: { 'x-forwarded-for': header, 'x-api-key': 'fl_aaaaaaaaaaaa_' + 'x'.repeat(43) } });
    expect(response.status, header).toBe(401);
  });

  test.prop([fc.ipV6(), fc.ipV6(), fc.nat(3), fc.nat(3)], options)(
    'two addresses of one /64 share the failed-authentication budget, in any spelling; the next /64 does not',
    async (address, other, one, two) => {
      const app = appWith(ctx.db, { trustProxy: 1, authFailureLimitPerMinute: 1, authFailureBlockSeconds: 60 });
      const prefix = words(address).slice(0, 4);
      const sameNetwork = [...prefix, ...words(other).slice(4)];
      const nextNetwork = [...prefix.slice(0, 3), (prefix[3]! + 1) & 0xffff, ...words(other).slice(4)];
      const listing = (from: string, key: string) => app.request('/api/v1/responses?limit=1', { headers: { 'x-forwarded-for': from, 'x-api-key': key } });
      // IPv4-mapped addresses count as IPv4: leave them to their own test.
      fc.pre(!(prefix.every((w) => w === 0) && words(address)[5] === 0xffff));
      expect((await listing(spellings(words(address))[one]!, 'fl_aaaaaaaaaaaa_' + 'x'.repeat(43))).status).toBe(401);
      expect((await listing(spellings(sameNetwork)[two]!, tenant.apiKey)).status).toBe(429);
      if (nextNetwork[3] !== prefix[3]) expect((await listing(spellings(nextNetwork)[one]!, tenant.apiKey)).status).toBe(200);
    },
  );
});

// ---------------------------------------------------------------- the settings route

const SECRET = 'property-secret-key-7c1d9e';
const hostileKey = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x'.repeat(501), `${SECRET} `, `${SECRET}\n`, '<script>', null, 42, true, [], {}),
);
const settingsBody = fc.oneof(
  fc
    .record(
      {
        ipStorage: fc.oneof(fc.constantFrom('full', 'truncated', 'none', 'FULL', 'hashed', ''), fc.integer()),
        retentionDays: fc.oneof(fc.integer(), fc.double(), fc.constant(null), fc.string({ maxLength: 5 })),
        turnstile: fc.oneof(fc.record({ siteKey: hostileKey, secretKey: hostileKey }, { requiredKeys: [] }), hostileKey),
        recaptcha: fc.oneof(fc.record({ siteKey: hostileKey, secretKey: hostileKey, extra: hostileKey }, { requiredKeys: [] }), hostileKey),
        unknown: hostileKey,
      },
      { requiredKeys: [] },
    )
    .map((body) => JSON.stringify(body)),
  fc.constantFrom('', '{', 'null', '[]', '"x"', `{"turnstile":${'['.repeat(5000)}`),
  fc.string({ maxLength: 60 }),
);

describe('PATCH /api/v1/environments/{id}/settings', () => {
  test.prop([settingsBody], options)('hostile bodies: no 5xx, the documented error, nothing changed by a refusal, no secret echoed', async (body) => {
    const row = async () => JSON.stringify((await ctx.db.select().from(environments).where(eq(environments.id, tenant.environmentId)))[0]);
    const before = await row();
    const response = await strict.request(`/api/v1/environments/${tenant.environmentId}/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body,
    });
    const text = await response.text();
    const label = `${body.slice(0, 200)} → ${response.status}: ${text.slice(0, 300)}`;
    expect(response.status, label).toBeLessThan(500);
    expect(text, label).not.toContain(SECRET);
    const answer = JSON.parse(text) as { message?: string; errors?: { message: string; path: unknown[] }[] };
    if (response.status >= 400) {
      expect([400, 413], label).toContain(response.status);
      expect(answer, label).toEqual({ message: expect.any(String), ...(answer.errors ? { errors: expect.any(Array) } : {}) });
      for (const error of answer.errors ?? []) expect(error, label).toEqual({ message: expect.any(String), path: expect.any(Array) });
      expect(await row(), `${label}: a refusal changed the environment`).toBe(before);
    } else {
      expect(Object.keys(answer).sort(), label).toEqual(['embedOrigins', 'id', 'ipStorage', 'recaptcha', 'retentionDays', 'turnstile']);
    }
  });
});
