/**
 * Per-address limits and IPv6 (README "Rate limits"): an IPv6 client is counted by its /64 (one host
 * gets a whole /64 from any provider, so counting single addresses gives it 2^64 budgets), an IPv4
 * client by its address, and an IPv4-mapped IPv6 address as the IPv4 address it maps. Checked on every
 * per-address limit: the failed-authentication cool-down (API and /metrics), requests without
 * credentials, public submissions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientAddressKey } from '../../src/limits/rate-limits.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, type TestContext, type TestTenant } from '../support/helpers.ts';
import { makeForm } from '../support/public-helpers.ts';

let ctx: TestContext;
let tenant: TestTenant;
let formId: string;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
  formId = (
    await makeForm(ctx.db, tenant, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Name?' } }] },
      { name: 'Two', components: [{ type: 'LongInput', content: { question: 'More?' } }] },
    ])
  ).id;
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const WRONG_KEY = `fl_aaaaaaaaaaaa_${'x'.repeat(43)}`;

describe('clientAddressKey', () => {
  it('counts IPv6 by its /64, IPv4 by its address, IPv4-mapped as IPv4', () => {
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80::/64');
    expect(clientAddressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(clientAddressKey('')).toBe('unknown');
    expect(clientAddressKey('not an address')).toBe('unknown');
  });
});

describe('the failed-authentication cool-down', () => {
  it('covers the whole /64 of an IPv6 client that keeps failing, and no other /64', async () => {
    const app = appWith(ctx.db, { authFailureLimitPerMinute: 3, authFailureBlockSeconds: 120, trustProxy: 1 });
    const listing = (ip: string, key: string) => app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': key, ...from(ip) } });
    // Three guesses from three addresses of one /64 use up its budget.
    for (const ip of ['2001:db8:10:1::1', '2001:db8:10:1::2', '2001:db8:10:1:ffff:ffff:ffff:fffe']) expect((await listing(ip, WRONG_KEY)).status, ip).toBe(401);
    // Any address of that /64 is refused now, good key included, in another spelling too.
    for (const ip of ['2001:db8:10:1::1', '2001:db8:10:1:abcd::9', '2001:0db8:0010:0001:0000:0000:0000:0042']) {
      const refused = await listing(ip, tenant.apiKey);
      expect(refused.status, ip).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    }
    // The next /64 (and the one before) is another client.
    expect((await listing('2001:db8:10:2::1', tenant.apiKey)).status).toBe(200);
    expect((await listing('2001:db8:10:0:ffff::1', tenant.apiKey)).status).toBe(200);
  });

  it('keeps IPv4 per address, and counts an IPv4-mapped address as its IPv4 address', async () => {
    const app = appWith(ctx.db, { authFailureLimitPerMinute: 3, authFailureBlockSeconds: 120, trustProxy: 1 });
    const listing = (ip: string, key: string) => app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': key, ...from(ip) } });
    for (const ip of ['198.51.100.30', '::ffff:198.51.100.30', '::ffff:c633:641e']) expect((await listing(ip, WRONG_KEY)).status, ip).toBe(401);
    expect((await listing('198.51.100.30', tenant.apiKey)).status).toBe(429);
    expect((await listing('::ffff:198.51.100.30', tenant.apiKey)).status).toBe(429);
    // Its neighbour is another client.
    expect((await listing('198.51.100.31', tenant.apiKey)).status).toBe(200);
  });

  it('covers /metrics, counted by the same /64', async () => {
    const app = appWith(ctx.db, { authFailureLimitPerMinute: 2, authFailureBlockSeconds: 120, trustProxy: 1 });
    const metrics = (ip: string) => app.request('/metrics', { headers: { authorization: 'Bearer wrong-token', ...from(ip) } });
    expect((await metrics('2001:db8:20:1::1')).status).toBe(401);
    expect((await metrics('2001:db8:20:1::2')).status).toBe(401);
    expect((await metrics('2001:db8:20:1::3')).status).toBe(429);
    expect((await app.request('/api/v1/responses?limit=1', { headers: { 'x-api-key': tenant.apiKey, ...from('2001:db8:20:1::4') } })).status).toBe(429);
    expect((await metrics('2001:db8:20:2::1')).status).toBe(401);
  });
});

describe('requests without credentials', () => {
  it('share one budget within a /64, not across', async () => {
    const app = appWith(ctx.db, { anonymousRateLimitPerMinute: 2, trustProxy: 1 });
    const anonymous = (ip: string) => app.request('/api/v1/responses?limit=1', { headers: from(ip) });
    expect((await anonymous('2001:db8:30:1::a')).status).toBe(401);
    expect((await anonymous('2001:db8:30:1::b')).status).toBe(401);
    expect((await anonymous('2001:db8:30:1::c')).status).toBe(429);
    expect((await anonymous('2001:db8:30:2::a')).status).toBe(401);
  });
});

describe('public submissions', () => {
  it('share one budget within a /64, not across; IPv4 addresses each have their own', async () => {
    const app = appWith(ctx.db, { publicRateLimitPerMinute: 2, trustProxy: 1 });
    const submit = (ip: string) => app.request(`/s/${formId}/responses`, jsonRequest('POST', { answers: {} }, from(ip)));
    expect((await submit('2001:db8:40:1::1')).status).toBe(201);
    expect((await submit('2001:db8:40:1::2')).status).toBe(201);
    const refused = await submit('2001:db8:40:1::3');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/^"public";r=0;t=\d+$/);
    expect((await submit('2001:db8:40:2::1')).status).toBe(201);

    expect((await submit('198.51.100.50')).status).toBe(201);
    expect((await submit('198.51.100.50')).status).toBe(201);
    expect((await submit('198.51.100.50')).status).toBe(429);
    expect((await submit('198.51.100.51')).status).toBe(201);
  });
});
