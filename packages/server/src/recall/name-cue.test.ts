import { describe, expect, it } from 'vitest';
import { answerKindAsked } from './answer-kind.js';
import { lexemeHit } from './lexeme-hit.fixture.js';
import { memoryRow } from './memory-row.fixture.js';
import { addNameCue, NAME_CUE } from './name-cue.js';
import { listed, rankingOf } from './search.js';

describe('the name cue (name-cue.ts)', () => {
  const rows = new Map([
    [1, memoryRow(1, 'Ana is excited about her new team and the season starts soon.', { about: ['Ana'] })],
    [2, memoryRow(2, 'Ana said the Harbour Gulls.', { about: ['Ana', 'Harbour Gulls'], name_types: ['person', 'org'] })],
    [3, memoryRow(3, 'Ana trains with the team on Mondays.', { about: ['Ana'] })],
  ]);
  const scored = () =>
    rankingOf([
      { hit: lexemeHit(1), score: 0.75, direct: 0.6 },
      { hit: lexemeHit(3), score: 0.72, direct: 0.5 },
      { hit: lexemeHit(2), score: 0.7, direct: 0.2 },
    ]);
  const resort = (ranking: ReturnType<typeof scored>) =>
    ranking.order.subarray(0, ranking.length).sort((left, right) => ranking.score[right]! - ranking.score[left]!);

  it('lifts a memory naming a thing of the kind asked above memories that only repeat the question', () => {
    const ranking = scored();
    addNameCue(ranking, 'Which team did Ana sign with?', rows, 30);
    resort(ranking);
    expect(listed(ranking).map((item) => item.hit.id)).toEqual([2, 1, 3]);
    expect(ranking.score[2]).toBeCloseTo(0.7 + NAME_CUE * 0.3);
    // The memories naming nothing of the kind keep their scores.
    expect(ranking.score[0]).toBe(0.75);
  });

  it('leaves a ranking alone for a question asking no name, and memories past the ones it reads', () => {
    // search.ts applies the cue only where answer-kind.ts reads a name asked for.
    expect(answerKindAsked('How does Ana feel about the new team?')).toBeNull();
    expect(answerKindAsked('Which team did Ana sign with?')).toBe('name');
    const short = scored();
    addNameCue(short, 'Which team did Ana sign with?', rows, 2);
    expect(Array.from(short.score)).toEqual([0.75, 0.72, 0.7]);
  });
});
