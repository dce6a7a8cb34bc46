import { describe, expect, it } from 'vitest';
import { factFingerprint } from './fingerprint.js';

describe('factFingerprint', () => {
  it('ignores case, punctuation, apostrophes, accents and extra spaces', () => {
    expect(factFingerprint("  Priya's   café trip — in MARCH 2027! ")).toBe('priyas cafe trip in march 2027');
    expect(factFingerprint('Priya’s cafe trip in March 2027.')).toBe(factFingerprint("Priya's café trip, in march 2027"));
  });

  it('tells different facts apart', () => {
    expect(factFingerprint('Priya loves hiking.')).not.toBe(factFingerprint('Priya loved hiking.'));
  });
});
