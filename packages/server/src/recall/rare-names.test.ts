import { describe, expect, it } from 'vitest';
import { rareNames } from './rare-names.js';

describe('rareNames', () => {
  it('picks the names few memories say, never the names everyone in the space says, nor a month', () => {
    // "When did Omar meet Zelda in July?" in a space of 1,000 memories.
    const terms = ['omar', 'meet', 'zelda', 'july'];
    const lexemes = [['omar'], ['meet'], ['zelda'], ['juli']];
    const counts = new Map([
      ['omar', 940],
      ['zelda', 6],
      ['juli', 4],
    ]);
    expect(rareNames(['omar', 'zelda', 'july'], terms, lexemes, counts, 1_000)).toEqual(['zelda']);
    // Said by more than 2% of the memories, Zelda only scores what the other words bring in.
    expect(rareNames(['omar', 'zelda'], terms, lexemes, new Map([['zelda', 21]]), 1_000)).toEqual([]);
  });
});
