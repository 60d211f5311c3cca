/**
 * IP minimisation (docs/privacy.md, "IP minimisation"): an environment stores respondents' addresses as
 * received (`full`, the default), truncated to their network (IPv4 /24, IPv6 /48: `203.0.113.0`,
 * `2001:db8:1::`), or not at all (`none`, stored as ''). The country comes from a request header, not
 * from the address, so it is kept whatever the setting.
 */
import { sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { environments } from '../db/schema.ts';
import { networkOf } from '../ip.ts';

const IPV4_PREFIX = 24;
const IPV6_PREFIX = 48;

/** The address with every bit after the network prefix zeroed; '' for anything that is not an address. */
export function truncateIp(ip: string): string {
  if (!ipaddr.isValid(ip)) return '';
  const address = ipaddr.parse(ip);
  return networkOf(address, address.kind() === 'ipv4' ? IPV4_PREFIX : IPV6_PREFIX);
}

/**
 * The stored address as an SQL value for a prepared INSERT, chosen by the environment's setting inside
 * the statement itself (no extra round trip on the submission path): its placeholders `environmentId`,
 * `ip` and `truncatedIp` take the environment and `storedIpValues(ip)`, both candidates computed here.
 */
const storedIp = (environmentId: unknown, ip: unknown, truncatedIp: unknown) =>
  sql<string>`(select case ${environments.ipStorage} when 'none' then '' when 'truncated' then ${truncatedIp}::text else ${ip}::text end
    from ${environments} where ${environments.id} = ${environmentId}::text)`;
export const storedIpSql = storedIp(sql.placeholder('environmentId'), sql.placeholder('ip'), sql.placeholder('truncatedIp'));

/** `storedIpSql` for a statement built per call: its values bound. */
export const storedIpOf = (environmentId: string, ip: string) => storedIp(environmentId, ip, truncateIp(ip));

export const storedIpValues = (ip: string) => ({ ip, truncatedIp: truncateIp(ip) });
