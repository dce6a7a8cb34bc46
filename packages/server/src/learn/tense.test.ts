import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { detectTense } from './tense.js';

const tenseOf = (sentence: string) => detectTense(sentence, tokenize(sentence));

describe('detectTense', () => {
  it('reads a participle after a present "be" or "get" as no past', () => {
    expect(tenseOf('We are getting married in September.')).toBe('present');
    expect(tenseOf("I'm booked on the early ferry in August.")).toBe('present');
  });

  it('still reads a past verb, a past "be" or "got", and a perfect as past', () => {
    expect(tenseOf('We got married in May.')).toBe('past');
    expect(tenseOf('I was married in June.')).toBe('past');
    expect(tenseOf("I've finished the book on Friday.")).toBe('past');
    expect(tenseOf('Odile painted the fence in March.')).toBe('past');
  });

  it('reads a future marker first', () => {
    expect(tenseOf('I will fly to Oslo in March.')).toBe('future');
  });
});
