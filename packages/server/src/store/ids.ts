import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

function randomString(length: number, alphabet: string): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new source id, e.g. `src_3k9m2x7q1w5e8r4t`. */
export const newSourceId = (): string => `src_${randomString(16, BASE32)}`;

/** A new request id, e.g. `req_…`. */
export const newRequestId = (): string => `req_${randomString(20, BASE32)}`;

/** A new key's secret text after its prefix. */
export const newKeySecret = (): string => randomString(40, BASE62);
