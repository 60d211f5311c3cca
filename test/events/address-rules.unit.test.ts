/**
 * The webhook address rules, without a database or the network: every check of `webhookUrlProblem` and
 * every branch of `guardedLookup` (the connection-time check that stops DNS rebinding). `npm run mutate`
 * runs these against src/events/address-rules.ts (docs/development.md, "Mutation testing").
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, webhookUrlProblem, type ResolveAll } from '../../src/events/address-rules.ts';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:4700:4700::1111';
const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
const failing: ResolveAll = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
const PRIVATE_ADDRESS = 'must not point at a loopback, private or link-local address';

describe('isPrivateAddress', () => {
  it.each([
    ['not an address', true],
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    [PUBLIC_V4, false],
    [PUBLIC_V6, false],
    ['::1', true],
    ['fec0::1', true],
    ['3fff::1', true],
    ['::ffff:93.184.215.14', true],
  ])('%s → %s', (address, refused) => {
    expect(isPrivateAddress(address)).toBe(refused);
  });
});

describe('webhookUrlProblem', () => {
  const check = (url: string, allowPrivate = false, resolve: ResolveAll = resolvesTo(PUBLIC_V4)) => webhookUrlProblem(url, allowPrivate, resolve);

  it('takes a URL of up to 2048 characters, no longer', async () => {
    const base = 'https://hooks.example/';
    expect(await check(base + 'a'.repeat(2048 - base.length))).toBeUndefined();
    expect(await check(base + 'a'.repeat(2049 - base.length))).toBe('must be at most 2048 characters');
  });

  it('refuses what is not an absolute URL, and every scheme but http and https', async () => {
    expect(await check('/relative')).toBe('must be an absolute http(s) URL');
    expect(await check('ftp://hooks.example/')).toBe('must be an http or https URL');
    expect(await check('javascript:alert(1)', true)).toBe('must be an http or https URL');
    expect(await check('http://hooks.example/')).toBeUndefined();
    expect(await check('https://hooks.example/')).toBeUndefined();
  });

  it('refuses credentials and fragments, even with private addresses allowed', async () => {
    expect(await check('https://user@hooks.example/', true)).toBe('must not carry a user name or password');
    expect(await check('https://:secret@hooks.example/', true)).toBe('must not carry a user name or password');
    expect(await check('https://hooks.example/#part', true)).toBe('must not have a #fragment');
    expect(await check('https://hooks.example/?a=1', true)).toBeUndefined();
  });

  it('judges IP literals without resolving, IPv6 in brackets included', async () => {
    const never: ResolveAll = () => Promise.reject(new Error('must not resolve an IP literal'));
    expect(await check('http://127.0.0.1/', false, never)).toBe(PRIVATE_ADDRESS);
    expect(await check('http://[::1]:8080/', false, never)).toBe(PRIVATE_ADDRESS);
    expect(await check(`http://[${PUBLIC_V6}]/`, false, never)).toBeUndefined();
    expect(await check(`http://${PUBLIC_V4}/`, false, never)).toBeUndefined();
    expect(await check('http://127.0.0.1/', true, never)).toBeUndefined();
  });

  it('refuses localhost and its subdomains without resolving', async () => {
    const never: ResolveAll = () => Promise.reject(new Error('must not resolve localhost'));
    expect(await check('http://localhost/', false, never)).toBe(PRIVATE_ADDRESS);
    expect(await check('http://api.localhost/', false, never)).toBe(PRIVATE_ADDRESS);
    expect(await check('http://localhost.example/')).toBeUndefined();
  });

  it('refuses a name that does not resolve, resolves to nothing, or to any private address among public ones', async () => {
    expect(await check('https://gone.example/', false, failing)).toBe('host gone.example does not resolve');
    expect(await check('https://empty.example/', false, resolvesTo())).toBe('host empty.example does not resolve');
    expect(await check('https://mixed.example/', false, resolvesTo(PUBLIC_V4, '10.0.0.7'))).toBe('host mixed.example resolves to a loopback, private or link-local address');
    expect(await check('https://mixed.example/', false, resolvesTo('10.0.0.7', PUBLIC_V4))).toBe('host mixed.example resolves to a loopback, private or link-local address');
    expect(await check('https://public.example/', false, resolvesTo(PUBLIC_V4, PUBLIC_V6))).toBeUndefined();
    expect(await check('https://mixed.example/', true, resolvesTo('10.0.0.7'))).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  /** A resolver answering with these addresses (or this error), and what the guarded lookup called back. */
  function lookupWith(answer: LookupAddress[] | Error, allowPrivate: boolean, all: boolean) {
    const inner = ((_host: string, options: object, callback: (error: Error | null, addresses: LookupAddress[]) => void) => {
      asked.push(options);
      if (answer instanceof Error) callback(answer, []);
      else callback(null, answer);
    }) as unknown as LookupFunction;
    return new Promise<{ error: (Error & { code?: string }) | null; address: unknown; family: unknown }>((resolve) => {
      guardedLookup(allowPrivate, inner)('hooks.example', { all }, (error, address, family) => resolve({ error, address, family }));
    });
  }
  const v4 = (address: string): LookupAddress => ({ address, family: 4 });
  const asked: object[] = [];

  it("asks its resolver for every address, keeping the caller's other options", async () => {
    asked.length = 0;
    const inner = ((_host: string, options: object, callback: (error: Error | null, addresses: LookupAddress[]) => void) => {
      asked.push(options);
      callback(null, [v4(PUBLIC_V4)]);
    }) as unknown as LookupFunction;
    await new Promise((resolve) => guardedLookup(false, inner)('hooks.example', { family: 4, all: false }, resolve));
    expect(asked).toEqual([{ family: 4, all: true }]);
  });

  it('hands on a resolver error', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' });
    expect(await lookupWith(failure, false, false)).toEqual({ error: failure, address: '', family: 0 });
  });

  it('refuses a name with any private address (DNS rebinding), first or not', async () => {
    for (const list of [
      [v4(PUBLIC_V4), v4('192.168.1.5')],
      [v4('192.168.1.5'), v4(PUBLIC_V4)],
    ]) {
      const { error, address, family } = await lookupWith(list, false, false);
      expect({ address, family }).toEqual({ address: '', family: 0 });
      expect(error?.code).toBe('EPRIVATEADDRESS');
      expect(error?.message).toBe('hooks.example resolves to a private address; refused');
    }
  });

  it('answers with the first address, or every address when asked for all', async () => {
    const list = [v4(PUBLIC_V4), { address: PUBLIC_V6, family: 6 }];
    expect(await lookupWith(list, false, false)).toEqual({ error: null, address: PUBLIC_V4, family: 4 });
    expect(await lookupWith(list, false, true)).toEqual({ error: null, address: list, family: undefined });
  });

  it('lets private addresses through with WEBHOOK_ALLOW_PRIVATE', async () => {
    expect(await lookupWith([v4('10.0.0.1')], true, false)).toEqual({ error: null, address: '10.0.0.1', family: 4 });
  });

  it('reports a name without addresses as not found', async () => {
    const { error, address, family } = await lookupWith([], false, false);
    expect({ address, family }).toEqual({ address: '', family: 0 });
    expect(error?.code).toBe('ENOTFOUND');
    expect(error?.message).toBe('hooks.example does not resolve');
  });
});
