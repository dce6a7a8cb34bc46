import { describe, expect, it } from 'vitest';
import type { Resolver } from './address-guard.js';
import { checkedAddress, refusedAddressReason } from './address-guard.js';
import { parsePageUrl } from './fetch-page.js';
import { UnreadableError } from './unreadable.js';

/** A resolver that must not be asked: IP literals are judged without DNS. */
const noDns: Resolver = async (hostname) => {
  throw new Error(`DNS was asked for ${hostname}`);
};

/** A seeded generator, so that a failure can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

/** The many ways an IPv4 address can be written in a URL host (browsers and WHATWG URL accept all of them). */
function v4Forms(parts: number[], pick: (below: number) => number): string[] {
  const [a, b, c, d] = parts as [number, number, number, number];
  const value = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
  const radix = (part: number) => [String(part), `0${part.toString(8)}`, `0x${part.toString(16)}`][pick(3)]!;
  return [
    `${a}.${b}.${c}.${d}`,
    String(value),
    `0x${value.toString(16)}`,
    `0${value.toString(8)}`,
    `${radix(a)}.${radix(b)}.${radix(c)}.${radix(d)}`,
    `0${a.toString(8)}.${b}.${c}.${d}`,
    `${a}.${b}.${(c << 8) + d}`,
    `${a}.${(b << 16) + (c << 8) + d}`,
    `0x${a.toString(16)}.${(b << 16) + (c << 8) + d}`,
    `${a}.${b}.${c}.${d}.`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${((a << 8) + b).toString(16)}:${((c << 8) + d).toString(16)}]`,
    `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${a}.${b}.${c}.${d}]`,
    `[2002:${((a << 8) + b).toString(16)}:${((c << 8) + d).toString(16)}::1]`,
  ];
}

async function refused(host: string, resolver: Resolver = noDns): Promise<string> {
  const hostname = parsePageUrl(`http://${host}:8080/path`).hostname;
  const error = await checkedAddress(hostname, { allowPrivate: false, resolver }).then(
    (address) => new Error(`${host} (${hostname}) was allowed as ${address.address}`),
    (error: unknown) => error,
  );
  if (!(error instanceof UnreadableError)) throw error;
  expect(error.permanent).toBe(true);
  return error.message;
}

describe('the address guard', () => {
  it('refuses the well-known tricky forms of local and metadata addresses', async () => {
    const hosts = [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '0x7f.0.0.1',
      '0x7f000001',
      '017700000001',
      '127.1',
      '127.0.1',
      '0x7f.1',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[::]',
      '0.0.0.0',
      '0',
      '169.254.169.254',
      '[::ffff:169.254.169.254]',
      '[fd00:ec2::254]',
      '100.64.0.1',
      '100.100.100.200',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '224.0.0.1',
      '[ff02::1]',
      '[fe80::1]',
      '[fc00::1]',
      '255.255.255.255',
      '198.18.0.1',
    ];
    for (const host of hosts) expect(await refused(host), host).toMatch(/refused/);
  });

  it('refuses localhost by name, with or without the final dot, without asking DNS', async () => {
    for (const host of ['localhost', 'localhost.', 'LOCALHOST', 'api.localhost', 'api.localhost.']) {
      expect(await refused(host), host).toMatch(/refused \(loopback\)/);
    }
  });

  it('refuses names whose DNS answer holds any private address (the resolver is injected)', async () => {
    const zone: Record<string, string[]> = {
      'metadata.google.internal': ['169.254.169.254'],
      'intranet.example': ['10.1.2.3'],
      'cgnat.example': ['100.64.3.4'],
      'split.example': ['93.184.215.14', '192.168.0.10'],
      'six.example': ['2606:4700::1', '::1'],
      'mapped.example': ['::ffff:10.0.0.1'],
    };
    const resolver: Resolver = async (name) => (zone[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const name of Object.keys(zone)) expect(await refused(name, resolver), name).toMatch(/resolves to .* refused/);
    const publicName = await checkedAddress('www.example', {
      allowPrivate: false,
      resolver: async () => [{ address: '93.184.215.14', family: 4 }],
    });
    expect(publicName).toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('refuses every written form of random private addresses and allows the same forms of public ones (fuzz)', async () => {
    const pick = random(20_260_512);
    const privateRanges: [number[], number[]][] = [
      [
        [127, 0, 0, 0],
        [1, 256, 256, 256],
      ],
      [
        [10, 0, 0, 0],
        [1, 256, 256, 256],
      ],
      [
        [172, 16, 0, 0],
        [1, 16, 256, 256],
      ],
      [
        [192, 168, 0, 0],
        [1, 1, 256, 256],
      ],
      [
        [169, 254, 0, 0],
        [1, 1, 256, 256],
      ],
      [
        [100, 64, 0, 0],
        [1, 64, 256, 256],
      ],
      [
        [0, 0, 0, 0],
        [1, 256, 256, 256],
      ],
      [
        [224, 0, 0, 0],
        [16, 256, 256, 256],
      ],
    ];
    const publicFirst = [1, 8, 23, 52, 93, 151, 185, 203 - 4];
    let checked = 0;
    for (let round = 0; round < 40; round++) {
      const [base, span] = privateRanges[round % privateRanges.length]!;
      const parts = base.map((part, index) => part + pick(span[index]!));
      for (const form of v4Forms(parts, pick)) {
        expect(await refused(form), form).toMatch(/refused/);
        checked++;
      }
      const open = [publicFirst[pick(publicFirst.length)]!, pick(256), pick(256), 1 + pick(254)];
      for (const form of v4Forms(open, pick)) {
        const hostname = parsePageUrl(`http://${form}/`).hostname;
        const allowed = await checkedAddress(hostname, { allowPrivate: false, resolver: noDns });
        expect(allowed.address, form).toMatch(/^[\d.]+$|:/);
        if (/^[\d.x]+$/i.test(form.replace(/\.$/, ''))) expect(allowed.address).toBe(open.join('.'));
        checked++;
      }
    }
    expect(checked).toBe(40 * 15 * 2);
  });

  it('lets everything through when the operator allows private addresses', async () => {
    expect(await checkedAddress('127.0.0.1', { allowPrivate: true })).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await checkedAddress('[::1]', { allowPrivate: true })).toEqual({ address: '::1', family: 6 });
  });

  it('names the kind of each refused address', () => {
    expect(refusedAddressReason('169.254.169.254')).toMatch(/link-local/);
    expect(refusedAddressReason('::ffff:127.0.0.1')).toBe('loopback');
    expect(refusedAddressReason('fe80::1%eth0')).toMatch(/link-local/);
    expect(refusedAddressReason('8.8.8.8')).toBeNull();
    expect(refusedAddressReason('2606:4700:4700::1111')).toBeNull();
    expect(refusedAddressReason('not-an-ip')).toBe('not an IP address');
  });
});
