import { describe, expect, it } from 'vitest';
import { columnsOf } from '../store/hit-columns.js';
import { lexemeHit } from './lexeme-hit.fixture.js';
import { holdsAll, rareNames } from './rare-names.js';

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

describe('holdsAll', () => {
  it('tells whether a search already found every memory saying a name, so that searching again finds nothing more', () => {
    // Lexeme 1 ("zelda") is in the second memory, at the level of what it answers.
    const hits = columnsOf([lexemeHit(1, [3, 0]), lexemeHit(2, [3, 1])]);
    expect(holdsAll(hits, 1, 1)).toBe(true);
    expect(holdsAll(hits, 1, 2)).toBe(false);
    expect(holdsAll(hits, 5, 1)).toBe(false);
  });
});
