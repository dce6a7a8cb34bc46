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

  it('reads a past auxiliary the tagger leaves untagged as past', () => {
    expect(tenseOf('We were renting a boat in March.')).toBe('past');
    expect(tenseOf("I didn't swim in March.")).toBe('past');
    expect(tenseOf('I used to swim in March.')).toBe('past');
  });

  it('reads a verb whose past is its bare form by its subject and the time named', () => {
    // After "she" or a singular noun the present takes an -s: without it, the verb is past.
    expect(tenseOf('She quit the choir.')).toBe('past');
    expect(tenseOf('My cousin set up her studio.')).toBe('past');
    // After "I", "we", "you" or "they", a single time that may be past tips it.
    expect(tenseOf('I quit the choir on Friday.')).toBe('past');
    expect(tenseOf('We put the flat up for sale in March.')).toBe('past');
    expect(tenseOf('They cut the ribbon yesterday.')).toBe('past');
    expect(tenseOf('You quit the band on Saturday.')).toBe('past');
    expect(tenseOf('We set up the tent this past weekend.')).toBe('past');
    expect(tenseOf('Everybody quit the choir.')).toBe('past');
    expect(tenseOf("I can't quit the choir on Friday.")).toBe('present');
    // A habit, no time named, or a future marker leaves it present or future.
    expect(tenseOf('I quit work early on Fridays.')).toBe('present');
    expect(tenseOf('We cut the hedge every Saturday.')).toBe('present');
    expect(tenseOf('I read before bed.')).toBe('present');
    expect(tenseOf('I want to quit the choir on Friday.')).toBe('present');
    expect(tenseOf('I will quit the choir on Friday.')).toBe('future');
    expect(tenseOf('I quit the choir this coming Friday.')).toBe('future');
  });

  it('reads a future marker first', () => {
    expect(tenseOf('I will fly to Oslo in March.')).toBe('future');
  });
});
