/**
 * Dotted-quad IPv4 arithmetic. Only the plain form 'a.b.c.d' is accepted: leading zeros are refused
 * because some device stacks read '010' as octal 8.
 */

const OCTET = /^(0|[1-9]\d{0,2})$/;

/** The address as an unsigned 32-bit integer, or null when it is not a dotted quad. */
export function ipv4ToNumber(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

export function isIpv4Address(text: string): boolean {
  return ipv4ToNumber(text) !== null;
}

/** Prefix length of a contiguous mask ('255.255.255.0' is 24), or null for anything else, including 0.0.0.0. */
export function netmaskPrefixLength(text: string): number | null {
  const value = ipv4ToNumber(text);
  if (value === null || value === 0) return null;
  const bits = value.toString(2).padStart(32, '0');
  const prefix = bits.indexOf('0') === -1 ? 32 : bits.indexOf('0');
  return bits.slice(prefix).includes('1') ? null : prefix;
}

export function isNetmask(text: string): boolean {
  return netmaskPrefixLength(text) !== null;
}

/** Both addresses valid and in the same subnet under the mask. */
export function sameSubnet(a: string, b: string, netmask: string): boolean {
  const x = ipv4ToNumber(a);
  const y = ipv4ToNumber(b);
  const prefix = netmaskPrefixLength(netmask);
  if (x === null || y === null || prefix === null) return false;
  const size = 2 ** (32 - prefix);
  return Math.floor(x / size) === Math.floor(y / size);
}

/**
 * Whether the address can be given to a device on that subnet: not the network address and not
 * the broadcast address (masks of /31 and /32 have no such addresses).
 */
export function isHostAddress(address: string, netmask: string): boolean {
  const value = ipv4ToNumber(address);
  const prefix = netmaskPrefixLength(netmask);
  if (value === null || prefix === null) return false;
  if (prefix >= 31) return true;
  const size = 2 ** (32 - prefix);
  const offset = value % size;
  return offset !== 0 && offset !== size - 1;
}
