import { describe, expect, it } from 'vitest';
import { StatementNames } from './prepared.js';

describe('StatementNames', () => {
  it('names a text on its second use and keeps the name after', () => {
    const names = new StatementNames();
    const text = 'select name from spaces where account_id = $1';
    expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toBe('engram_0');
    expect(names.nameOf(text)).toBe(name);
    expect(names.nameOf('select id from sources where id = $1')).toBeUndefined();
    expect(names.nameOf('select id from sources where id = $1')).toBe('engram_1');
  });

  it('names at most its bound of texts; the rest run unnamed', () => {
    const names = new StatementNames(2);
    for (const text of ['a = $1', 'b = $1', 'c = $1']) {
      names.nameOf(text);
      names.nameOf(text);
    }
    expect(names.size).toBe(2);
    expect(names.nameOf('c = $1')).toBeUndefined();
    expect(names.nameOf('a = $1')).toBe('engram_0');
  });
});
