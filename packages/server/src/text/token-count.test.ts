import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countTextTokens } from './token-count.js';

describe('countTextTokens', () => {
  it('counts ordinary text exactly as the tokenizer does', () => {
    const text = 'Priya works as a marine biologist in Cork. She swims every morning before work.';
    expect(countTextTokens(text)).toBe(countTokens(text));
  });

  it('counts long text cut at spaces within a few tokens of the whole', () => {
    const text = 'The quick brown fox jumps over the lazy dog while Beatrice paints. '.repeat(2_000);
    const whole = countTokens(text);
    expect(Math.abs(countTextTokens(text) - whole)).toBeLessThanOrEqual(Math.ceil(text.length / 8_000) * 2);
  });

  it('counts one unbroken 2,000,000-character run', () => {
    // The tokenizer alone would take minutes on this; slices of 200 characters count it.
    const slice = countTokens('y'.repeat(200));
    expect(countTextTokens('y'.repeat(2_000_000))).toBe(slice * 10_000);
  });

  it('counts nothing in an empty text', () => {
    expect(countTextTokens('')).toBe(0);
  });
});
