import { describe, expect, it } from 'vitest';
import { factFingerprint } from './fingerprint.js';

describe('factFingerprint', () => {
  it('ignores case, punctuation, apostrophes, accents and extra spaces', () => {
    expect(factFingerprint("  Caroline's   café trip — in MARCH 2027! ")).toBe('carolines cafe trip in march 2027');
    expect(factFingerprint('Caroline’s cafe trip in March 2027.')).toBe(factFingerprint("Caroline's café trip, in march 2027"));
  });

  it('tells different facts apart', () => {
    expect(factFingerprint('Caroline loves hiking.')).not.toBe(factFingerprint('Caroline loved hiking.'));
  });
});
