/** Who is submitting: the client's IP (honouring TRUST_PROXY), country (COUNTRY_HEADER), scheme. */
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from './config.ts';
import { parseIp, unmapIp } from './ip.ts';

/** An IP address as received; an IPv4-mapped IPv6 address (in any spelling) as the IPv4 address it maps. */
function normaliseIp(value: string | undefined): string {
  if (!value) return '';
  const trimmed = value.trim().replace(/^\[(.*)\]$/, '$1');
  if (!isIP(trimmed)) return '';
  const parsed = parseIp(trimmed);
  const unmapped = parsed && unmapIp(parsed);
  return unmapped && unmapped !== parsed ? unmapped.toString() : trimmed;
}

/** The socket's peer address; empty when there is no socket (in-process requests). */
function socketAddress(c: Context): string {
  try {
    return normaliseIp(getConnInfo(c).remote.address);
  } catch {
    return '';
  }
}

/**
 * TRUST_PROXY = 0: the socket's peer address. N > 0: N proxies in front append to X-Forwarded-For, so
 * the client is the Nth entry from the right (the leftmost when the header is shorter).
 */
export function clientIp(c: Context, trustProxy: number): string {
  if (trustProxy <= 0) return socketAddress(c);
  const entries = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return socketAddress(c);
  return normaliseIp(entries[Math.max(0, entries.length - trustProxy)]);
}

/** A two-letter country code from the configured header; empty when absent, unknown ("XX") or malformed. */
export function clientCountry(c: Context, header: string): string {
  const value = c.req.header(header)?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(value) && value !== 'XX' ? value : '';
}

/** Whether the browser reached us over https (directly, or through a trusted proxy that says so). */
export function isHttps(c: Context, config: Pick<Config, 'trustProxy'>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (config.trustProxy <= 0) return false;
  return (c.req.header('x-forwarded-proto') ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}
