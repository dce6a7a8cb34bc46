import { describe, expect, it } from 'vitest';
import { textVector } from './dense.js';
import { addKindCue, closestToKind, severalAsked, textStems } from './kind-cue.js';
import { lexemeHit } from './lexeme-hit.fixture.js';
import { listed, rankingOf } from './search.js';

describe('the kind cue (kind-cue.ts)', () => {
  it('reads the plural kind a question asks several of, and nothing else', () => {
    expect(severalAsked('What instruments does Ines play?')).toBe('instruments');
    expect(severalAsked('Which cities has Ines visited?')).toBe('cities');
    expect(severalAsked('What kinds of cakes has Ines baked?')).toBe('cakes');
    // One thing asked for, or no kind named: the ranking stays as it is.
    expect(severalAsked('What instrument does Ines play?')).toBeNull();
    expect(severalAsked('What is Ines’s favourite class?')).toBeNull();
    expect(severalAsked('What does Ines do on Sundays?')).toBeNull();
    expect(severalAsked('Where has Ines lived?')).toBeNull();
  });

  it('finds the word of a text closest to the kind asked for, the kind’s own word aside', () => {
    const kind = textVector(['instrument'])!;
    const cache = new Map<string, number>();
    // "Ines plays the cello on Sundays." against "Ines has no time for instruments now."
    const cello = closestToKind(kind, ['ine', 'play', 'cello', 'sunday'], ['instrument'], cache);
    const talk = closestToKind(kind, ['ine', 'time', 'instrument'], ['instrument'], cache);
    expect(cello).toBeGreaterThan(0.5);
    expect(talk).toBeLessThan(0.3);
  });

  it('stems a text as the vectors’ keys are made, a final "y" after a vowel kept', () => {
    // Porter alone gives "plai" and "enjoi", which have no vector; "happili" stays as Postgres makes it.
    expect(textStems('Ines’s kids enjoyed playing happily with toys')).toEqual(['in', 'kid', 'enjoy', 'play', 'happili', 'with', 'toy']);
  });

  it('lifts a memory naming one of the kind asked for above talk about the kind', () => {
    // "What instruments does Ines play?": the memory saying "instruments" covers more of the
    // question's words; the one naming an instrument answers it.
    const ranking = rankingOf([
      { hit: lexemeHit(1), score: 0.5, direct: 0.5 },
      { hit: lexemeHit(2), score: 0.45, direct: 0.3 },
      { hit: lexemeHit(3), score: 0.4, direct: 0.3 },
    ]);
    const stems = new Map<number, string[]>([
      [1, ['ine', 'time', 'instrument']],
      [2, ['ine', 'play', 'cello', 'sunday']],
      [3, ['ine', 'bake', 'bread', 'sunday']],
    ]);
    addKindCue(ranking, textVector(['instrument'])!, ['instrument'], stems, 30);
    ranking.order.subarray(0, ranking.length).sort((left, right) => ranking.score[right]! - ranking.score[left]!);
    expect(listed(ranking).map((item) => item.hit.id)).toEqual([2, 1, 3]);
    // The bread memory gains little or nothing: baking is no kind of instrument.
    expect(ranking.score[2]!).toBeLessThan(0.45);
  });

  it('looks only at the first memories listed', () => {
    const ranking = rankingOf([
      { hit: lexemeHit(1), score: 0.5, direct: 0.5 },
      { hit: lexemeHit(2), score: 0.45, direct: 0.3 },
    ]);
    addKindCue(ranking, textVector(['instrument'])!, ['instrument'], new Map([[2, ['cello']]]), 1);
    expect(ranking.score[1]).toBe(0.45);
  });
});
