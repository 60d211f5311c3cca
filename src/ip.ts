/**
 * IP addresses as the edge, the webhook rules and privacy read them (ipaddr.js), in one place: parsing
 * that never guesses, and the network an address belongs to.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The address, or undefined when `address` is not a plain IP address (a name, a zone id, IPv4 in
 * octal or hexadecimal). IPv6 goes through the WHATWG URL serializer first, which writes every
 * address in hexadecimal: ipaddr.js (2.2) reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d`.
 */
export function parseIp(address: string): IpAddress | undefined {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.isValidFourPartDecimal(address) ? ipaddr.IPv4.parse(address) : undefined;
  if (family !== 6) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical) : undefined;
}

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, in any spelling) as the IPv4 address it maps; others as they are. */
export function unmapIp(address: IpAddress): IpAddress {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/** The first address of the `prefix`-bit network holding `address` (every later bit zeroed), as text. */
export function networkOf(address: IpAddress, prefix: number): string {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return ipaddr.fromByteArray(bytes).toString();
}
