import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UnreadableError } from './unreadable.js';

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so that tests need no DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, as every other program on the machine sees names). */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** IPv4 ranges no page is read from: [first address, prefix length, why]. */
const refusedV4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges no page is read from (IPv4 carried inside IPv6 is checked as IPv4). */
const refusedV6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address (with or without a dotted IPv4 tail or a zone). */
function v6ToBigInt(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToBigInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array.from({ length: tail === undefined ? 0 : missing }, () => '0'), ...tailParts];
  return parts.reduce((value, part) => (value << 16n) | BigInt(parseInt(part || '0', 16)), 0n);
}

function within(value: bigint, base: bigint, prefix: number, bits: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

function refusedV4Reason(address: string): string | null {
  const value = v4ToBigInt(address);
  for (const [base, prefix, why] of refusedV4) if (within(value, v4ToBigInt(base), prefix, 32)) return why;
  return null;
}

function v4FromBits(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/**
 * Why an address is refused as a page's host (loopback, private, link-local, multicast,
 * metadata, reserved), or null when it is an ordinary public address. IPv4 carried in
 * IPv6 (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address it carries.
 */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return refusedV4Reason(bare);
  if (family !== 6) return 'not an IP address';
  const value = v6ToBigInt(bare);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64) carry an IPv4 address.
  if (value >> 32n === 0xffffn || (value >> 32n === 0n && value > 1n) || value >> 32n === 0x64ff9b0000000000000000n) {
    return refusedV4Reason(v4FromBits(value & 0xffffffffn));
  }
  if (value >> 112n === 0x2002n) return refusedV4Reason(v4FromBits((value >> 80n) & 0xffffffffn));
  for (const [base, prefix, why] of refusedV6) if (within(value, v6ToBigInt(base), prefix, 128)) return why;
  return null;
}

/** Names that always mean this machine, whatever a resolver says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}

/** Options of the address guard. */
export interface GuardOptions {
  /** Let pages be read from private and loopback addresses (tests, an operator's own network). */
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Why an address is refused, or null; refusedAddressReason unless an embedder narrows or widens it. */
  refuse?: (address: string) => string | null;
}

/**
 * The address to connect to for a URL's host, checked. An IP literal is checked as is; a
 * name is resolved and every address it has must be public (one bad answer refuses it),
 * and the caller connects to the address returned, so a second, different answer (DNS
 * rebinding) never comes into play. Throws UnreadableError for a refused host.
 */
export async function checkedAddress(hostname: string, options: GuardOptions): Promise<ResolvedAddress> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host.replace(/%.*$/, ''));
  if (literal) {
    const reason = options.allowPrivate ? null : (options.refuse ?? refusedAddressReason)(host);
    if (reason) throw new UnreadableError(`The address ${host} is refused (${reason})`);
    return { address: host, family: literal === 6 ? 6 : 4 };
  }
  if (!options.allowPrivate && isLocalName(host)) throw new UnreadableError(`The host ${hostname} is refused (loopback)`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolver ?? systemResolver)(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A name that does not exist will not exist on the next try either; a resolver that timed out may answer later.
    const permanent = code === 'ENOTFOUND' || code === 'ENODATA';
    throw new UnreadableError(`The host ${hostname} could not be found`, { permanent, cause: error });
  }
  if (!addresses.length) throw new UnreadableError(`The host ${hostname} has no address`);
  if (!options.allowPrivate) {
    for (const entry of addresses) {
      const reason = (options.refuse ?? refusedAddressReason)(entry.address);
      if (reason) throw new UnreadableError(`The host ${hostname} resolves to ${entry.address}, which is refused (${reason})`);
    }
  }
  return addresses[0]!;
}
