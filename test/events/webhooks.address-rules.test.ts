/**
 * Where webhooks may point (README "Webhooks", rules): one table of addresses, an entry or more in every
 * range that is refused (every range ipaddr.js classifies as anything but unicast, IPv4 and IPv6, and the
 * IPv6 ranges it leaves out: IPv4-compatible, local-use NAT64, site-local, documentation, everything
 * outside 2000::/3), next to public addresses that are allowed, some just outside a refused range. Each
 * entry is checked where the code applies the rules: a URL with the address saved over REST, a name
 * resolving to it when saved, and a name resolving to it at delivery time (the dispatcher's `lookup`).
 */
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, webhookUrlProblem } from '../../src/events/address-rules.ts';
import { parseIp } from '../../src/ip.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, testConfig, type TestContext, type TestTenant } from '../support/helpers.ts';

/** [address, the range it is in]: the range names are ipaddr.js's, or ours for the ones it does not know. */
const REFUSED: [string, string][] = [
  // IPv4, by ipaddr.js's classification
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.20.10.5', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.254', 'private'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.254', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.175.48.1', 'as112'],
  ['192.31.196.1', 'as112'],
  ['192.52.193.1', 'amt'],
  // IPv6, by ipaddr.js's classification
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['febf:ffff::1', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['::1', 'loopback'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  // IPv4-mapped, in every spelling, whatever IPv4 address it carries
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:7f00:1', 'ipv4Mapped'],
  ['0:0:0:0:0:ffff:7f00:0001', 'ipv4Mapped'],
  ['::0:ffff:127.0.0.1', 'ipv4Mapped'],
  ['::FFFF:A9FE:A9FE', 'ipv4Mapped'],
  ['::ffff:10.0.0.1', 'ipv4Mapped'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ['100::1', 'discard'],
  // SIIT (IPv4-translated, RFC 6145): "::ffff:0:a.b.c.d"
  ['::ffff:0:127.0.0.1', 'rfc6145'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['::ffff:0:8.8.8.8', 'rfc6145'],
  // NAT64 well-known prefix (RFC 6052)
  ['64:ff9b::127.0.0.1', 'rfc6052'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::8.8.8.8', 'rfc6052'],
  // 6to4: 2002:AABB:CCDD::/48 embeds A.B.C.D
  ['2002:7f00:1::1', '6to4'],
  ['2002:a00:1::', '6to4'],
  ['2002:808:808::1', '6to4'],
  // Teredo: the server's and the client's (obfuscated) IPv4 addresses inside
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001::1', 'teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'amt'],
  ['2001:4:112::1', 'as112v6'],
  ['2620:4f:8000::1', 'as112v6'],
  ['2001:10::1', 'deprecated'],
  ['2001:20::1', 'orchid2'],
  ['2001:30::1', 'droneRemoteIdProtocolEntityTags'],
  ['2001:1ff::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:db8:ffff::1', 'reserved'],
  // IPv6 that ipaddr.js calls unicast, refused as outside the public internet
  ['::127.0.0.1', 'IPv4-compatible (::/96)'],
  ['::7f00:1', 'IPv4-compatible (::/96)'],
  ['::8.8.8.8', 'IPv4-compatible (::/96)'],
  ['::a9fe:a9fe', 'IPv4-compatible (::/96)'],
  ['64:ff9b:1::1', 'local-use NAT64 (64:ff9b:1::/48)'],
  ['64:ff9b:1:ffff::a00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
  ['fec0::1', 'site-local (fec0::/10)'],
  ['3fff::1', 'documentation (3fff::/20)'],
  ['3fff:fff:ffff::1', 'documentation (3fff::/20)'],
  ['1::1', 'outside 2000::/3'],
  ['4000::1', 'outside 2000::/3'],
  ['e000::1', 'outside 2000::/3'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '11.0.0.1',
  '100.63.255.255', // just below 100.64.0.0/10
  '100.128.0.1', // just above it
  '172.15.255.255', // just below 172.16.0.0/12
  '172.32.0.1', // just above it
  '192.0.3.1',
  '192.169.0.1',
  '198.20.0.1',
  '223.255.255.254',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:200::1', // just above 2001::/23
  '2003::1',
  '2620:4f:7fff::1', // just below 2620:4f:8000::/48
  '3ffe:ffff::1', // just below 3fff::/20 (within 2000::/3)
  '3fff:1000::1', // just above it
];

const urlOf = (address: string) => (isIP(address) === 6 ? `http://[${address}]:8080/hook` : `http://${address}:8080/hook`);
/** A resolver that answers every name with `address`. */
const answering = (address: string) => async (): Promise<LookupAddress[]> => [{ address, family: isIP(address) }];

let ctx: TestContext;
let tenant: TestTenant;

beforeAll(async () => {
  ctx = await setupTestApp();
  tenant = await createTenant(ctx.db);
});

describe('the table', () => {
  it('has an address in every range ipaddr.js classifies as anything but unicast, IPv4 and IPv6', () => {
    const named = new Set(REFUSED.map(([, range]) => range));
    const special = [ipaddr.IPv4, ipaddr.IPv6].flatMap((kind) => Object.keys((kind.prototype as unknown as { SpecialRanges: object }).SpecialRanges));
    for (const range of special) expect(named, range).toContain(range);
    // And each entry is where it says it is (the table can't drift from ipaddr.js's ranges).
    for (const [address, range] of REFUSED) {
      const parsed = parseIp(address);
      expect(parsed, address).toBeDefined();
      expect(parsed!.range(), address).toBe(special.includes(range) ? range : 'unicast');
    }
    for (const address of ALLOWED) expect(parseIp(address)!.range(), address).toBe('unicast');
  });
});

describe('refused addresses', () => {
  it.each(REFUSED)('%s (%s) is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it('are refused as a webhook URL over REST, with the path of the URL', async () => {
    const strict = appWith(ctx.db, { webhooks: { ...testConfig().webhooks, allowPrivate: false } });
    for (const [address, range] of REFUSED) {
      const response = await strict.request('/api/v1/webhooks', jsonRequest('POST', { url: urlOf(address), eventTypes: ['response.created'] }, { 'x-api-key': tenant.apiKey }));
      expect(response.status, `${address} (${range})`).toBe(400);
      const body = (await response.json()) as { errors: { message: string; path: unknown[] }[] };
      expect(body.errors, address).toEqual([{ message: 'url must not point at a loopback, private or link-local address', path: ['url'] }]);
    }
  });

  it('are refused when a name resolves to one, when saved', async () => {
    for (const [address] of REFUSED) {
      expect(await webhookUrlProblem('https://hooks.example.com/in', false, answering(address)), address).toBe(
        'host hooks.example.com resolves to a loopback, private or link-local address',
      );
      // One bad answer among good ones is enough.
      const mixed = async (): Promise<LookupAddress[]> => [
        { address: '8.8.8.8', family: 4 },
        { address, family: isIP(address) },
      ];
      expect(await webhookUrlProblem('https://hooks.example.com/in', false, mixed), address).toMatch(/resolves to a loopback/);
    }
  });

  it('are refused when a name resolves to one at delivery time (the connection’s lookup)', async () => {
    for (const [address] of REFUSED) {
      const outcome = await lookUp(guardedLookup(false, systemLike(address)), 'hooks.example.com');
      expect(outcome, address).toEqual({ error: 'EPRIVATEADDRESS' });
    }
  });
});

describe('public addresses', () => {
  it.each(ALLOWED)('%s is allowed', async (address) => {
    expect(isPrivateAddress(address)).toBe(false);
    expect(await webhookUrlProblem(urlOf(address), false)).toBeUndefined();
    expect(await webhookUrlProblem('https://hooks.example.com/in', false, answering(address))).toBeUndefined();
    expect(await lookUp(guardedLookup(false, systemLike(address)), 'hooks.example.com')).toEqual({ address, family: isIP(address) });
  });

  it('every refused address is accepted with WEBHOOK_ALLOW_PRIVATE=1', async () => {
    for (const [address] of REFUSED) {
      expect(await webhookUrlProblem(urlOf(address), true), address).toBeUndefined();
      expect(await lookUp(guardedLookup(true, systemLike(address)), 'hooks.example.com'), address).toEqual({ address, family: isIP(address) });
    }
  });
});

it('refuses what is not a plain IP address', () => {
  for (const text of ['', 'localhost', 'fe80::1%eth0', '1.2.3', '0x7f.0.0.1', '::ffff:1.2.3.4.5', '2001:db8::g']) expect(isPrivateAddress(text), text).toBe(true);
});

/** A stand-in for dns.lookup (the only one the dispatcher is given is the system's): answers `address`. */
function systemLike(address: string): LookupFunction {
  return (_hostname, options, callback) => {
    const answer = [{ address, family: isIP(address) }];
    if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, answer);
    else callback(null, address, isIP(address));
  };
}

/** What http.request would get from `lookup` for `hostname` (one address, as it asks by default). */
function lookUp(lookup: LookupFunction, hostname: string): Promise<{ address: string; family: number } | { error: string }> {
  return new Promise((resolve) => {
    lookup(hostname, {}, (error, address, family) => {
      if (error) resolve({ error: String(error.code) });
      else resolve({ address: address as string, family: family! });
    });
  });
}
