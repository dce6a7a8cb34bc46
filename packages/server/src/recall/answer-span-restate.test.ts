import { describe, expect, it } from 'vitest';
import { restating } from './answer-span.js';
import { answerOffline } from './ask.js';
import { memoryRow } from './memory-row.fixture.js';

describe('restating (rule "a span that restates the answer")', () => {
  it('holds when a later span names every thing the earlier one names', () => {
    expect(restating('the cello lately')('the cello some evenings')).toBe(true);
    expect(restating('a bake sale')('the posters about the bake sale')).toBe(true);
  });

  it('does not hold when the later span misses a thing the earlier names, or adds a name', () => {
    expect(restating('the cello lately')('the flute')).toBe(false);
    expect(restating('a pale floor')('a Lindqvist floor')).toBe(false);
    // An earlier span that names nothing is restated by nothing.
    expect(restating('went')('went there')).toBe(false);
  });
});

describe('answerOffline: a restated span is not a second answer', () => {
  it('gives the best memory’s span alone when the next one only says it again', () => {
    const recalled = [
      { row: memoryRow(1, 'Odile is busy at the library getting ready for a bake sale.'), score: 0.9 },
      { row: memoryRow(2, 'Odile and friends need to get the posters up for the bake sale.'), score: 0.88 },
    ];
    expect(answerOffline(recalled, false, 'What is Odile getting ready for at the library?').answer).toBe('A bake sale.');
    const cello = [
      { row: memoryRow(1, 'Odile is learning how to play the cello now.'), score: 0.9 },
      { row: memoryRow(2, 'Bram hopes to hear Odile play the cello some evening.'), score: 0.88 },
    ];
    expect(answerOffline(cello, false, 'What instrument is Odile learning to play?').answer).toBe('The cello now.');
  });

  it('still joins a span from the next memory that adds a thing', () => {
    const recalled = [
      { row: memoryRow(1, 'Odile is busy at the library getting ready for a bake sale.'), score: 0.9 },
      { row: memoryRow(2, 'Odile is also getting ready for a poetry night at the library.'), score: 0.88 },
    ];
    expect(answerOffline(recalled, false, 'What is Odile getting ready for at the library?').answer).toBe('A bake sale; a poetry night.');
  });
});
