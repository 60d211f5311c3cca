/**
 * Where webhooks may go (OWASP API7, server-side request forgery): http(s) URLs whose host is not,
 * and does not resolve to, an address outside the public unicast internet — unless
 * WEBHOOK_ALLOW_PRIVATE=1. The check runs when an endpoint is saved and again at every connection
 * (`guardedLookup`), so a name that later resolves somewhere private (DNS rebinding) is refused at
 * delivery time too.
 *
 * Which addresses are public is ipaddr.js's classification (`range()`: anything but `unicast` is
 * refused, IPv4 and IPv6), with the few ranges it does not know added below. Every IPv6 form that
 * carries an IPv4 address is refused whole (IPv4-mapped in every spelling, IPv4-compatible, SIIT, 6to4,
 * Teredo, NAT64), whatever IPv4 address it carries: nothing legitimate answers webhooks there, and
 * judging the embedded address would mean trusting every translator on the way.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { parseIp } from '../ip.ts';

/**
 * IPv6 outside the public unicast internet that ipaddr.js (2.2) classifies as `unicast`: outside
 * 2000::/3 (the only global unicast block IANA allocates; this holds the IPv4-compatible ::/96,
 * the local-use NAT64 prefix 64:ff9b:1::/48, the deprecated site-local fec0::/10), and the
 * documentation prefix 3fff::/20 (RFC 9637).
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const IPV6_ALSO_REFUSED = [ipaddr.parseCIDR('3fff::/20')] as [ipaddr.IPv6, number][];

/** Whether an IP address is one webhooks must not reach by default (anything that is not a public unicast address). */
export function isPrivateAddress(address: string): boolean {
  const parsed = parseIp(address);
  if (!parsed) return true;
  if (parsed.range() !== 'unicast') return true;
  if (parsed.kind() === 'ipv4') return false;
  const ipv6 = parsed as ipaddr.IPv6;
  return !ipv6.match(GLOBAL_UNICAST) || IPV6_ALSO_REFUSED.some((range) => ipv6.match(range));
}

/** How names are resolved: the system's resolver (`dns.lookup`), every address of the name. */
export type ResolveAll = (host: string) => Promise<LookupAddress[]>;
const lookupAll = promisify(dnsLookup) as (host: string, options: { all: true; verbatim: boolean }) => Promise<LookupAddress[]>;
const systemResolveAll: ResolveAll = (host) => lookupAll(host, { all: true, verbatim: true });

const MAX_URL_LENGTH = 2048;

/** Why `raw` can't be a webhook URL, or undefined when it can. Resolves the host's name (with `resolveAll`). */
export async function webhookUrlProblem(raw: string, allowPrivate: boolean, resolveAll: ResolveAll = systemResolveAll): Promise<string | undefined> {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return isPrivateAddress(host) ? 'must not point at a loopback, private or link-local address' : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at a loopback, private or link-local address';
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  if (addresses.some((a) => isPrivateAddress(a.address))) return `host ${host} resolves to a loopback, private or link-local address`;
  return undefined;
}

/**
 * A `lookup` for http.request that refuses private addresses at connection time (every resolved
 * address must be public). With `allowPrivate` it is the ordinary lookup. `lookup` is the resolver
 * it guards (the system's by default).
 */
export function guardedLookup(allowPrivate: boolean, lookup: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address; refused`), { code: 'EPRIVATEADDRESS' });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
