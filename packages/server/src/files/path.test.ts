import { describe, expect, it } from 'vitest';
import { countCharacters, pathProblem, prefixProblem, textProblem } from './path.js';

describe('file paths', () => {
  it.each([
    ['starts with "/"', '/notes/a.md', 'notes/a.md'],
    ['at most 255 characters', `/${'a'.repeat(254)}`, `/${'a'.repeat(255)}`],
    ['does not end with "/"', '/notes/a', '/notes/'],
    ['no empty part', '/notes/a', '/notes//a'],
    ['no "." part', '/notes/.hidden', '/notes/./a'],
    ['no ".." part', '/notes/..a', '/notes/../a'],
    ['no backslash', '/notes/a-b', '/notes\\a'],
    ['no control character', '/notes/a b', '/notes/a\u0007b'],
    ['no line break', '/notes/ab', '/notes/a\nb'],
  ])('%s', (_rule, valid, invalid) => {
    expect(pathProblem(valid)).toBeNull();
    expect(pathProblem(invalid)).toEqual(expect.any(String));
  });

  it('counts a path in characters, so an emoji is one', () => {
    expect(pathProblem(`/${'😀'.repeat(254)}`)).toBeNull();
    expect(pathProblem(`/${'😀'.repeat(255)}`)).toMatch(/255/);
  });

  it('refuses "/" as a path but takes it as the prefix of every file', () => {
    expect(pathProblem('/')).toMatch(/end/);
    expect(prefixProblem('/')).toBeNull();
    expect(prefixProblem('/notes/')).toBeNull();
    expect(prefixProblem('notes')).toMatch(/start/);
  });
});

describe('file text', () => {
  it('counts Unicode code points', () => {
    expect(countCharacters('')).toBe(0);
    expect(countCharacters('a\r\nb')).toBe(4);
    expect(countCharacters('héllo 👋🏽')).toBe(8);
  });

  it('refuses what PostgreSQL cannot keep exactly', () => {
    expect(textProblem('tabs\tand\r\nline ends  ')).toBeNull();
    expect(textProblem('emoji 👋')).toBeNull();
    expect(textProblem('nul \u0000')).toMatch(/NUL/);
    expect(textProblem('lone \ud800 surrogate')).toMatch(/surrogate/);
    expect(textProblem('lone \udc00')).toMatch(/surrogate/);
  });
});
