import { describe, expect, it } from 'vitest';
import { decodePathPart, encodePathPart, normalisePrefix } from './path-part.js';

describe('path parts', () => {
  it('escapes what a file path part cannot hold and reads it back', () => {
    for (const name of ['plain', 'a/b', 'back\\slash', '.', '..', 'per%cent', 'ünï cödé', 'tab\there']) {
      const part = encodePathPart(name);
      expect(part).not.toMatch(/[/\\\t]/);
      expect(['.', '..']).not.toContain(part);
      expect(decodePathPart(part)).toBe(name);
    }
    expect(encodePathPart('..')).toBe('%2E%2E');
    expect(() => encodePathPart('')).toThrow(/empty/);
  });

  it('takes a prefix starting with "/" and drops its trailing slashes', () => {
    expect(normalisePrefix('/langchain/sessions/')).toBe('/langchain/sessions');
    expect(() => normalisePrefix('langchain')).toThrow(/starts with "\//);
  });
});
