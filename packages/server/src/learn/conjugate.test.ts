import { describe, expect, it } from 'vitest';
import { addS, thirdPerson } from './conjugate.js';

describe('thirdPerson', () => {
  it('puts present verbs in the third person singular', () => {
    expect(['am', 'have', 'do', "don't", 'love', 'watch', 'try', 'go', 'miss'].map((verb) => thirdPerson(verb))).toEqual([
      'is',
      'has',
      'does',
      "doesn't",
      'loves',
      'watches',
      'tries',
      'goes',
      'misses',
    ]);
  });

  it('puts present verbs ending in "ed" in the third person too, not taking them for past tenses', () => {
    expect(['need', 'feed', 'succeed'].map((verb) => thirdPerson(verb))).toEqual(['needs', 'feeds', 'succeeds']);
    expect(thirdPerson('painted')).toBeNull();
  });

  it('leaves modal verbs and past tenses as they are', () => {
    expect(['can', 'would', 'must', 'was', 'went', 'loved', 'had'].map((verb) => thirdPerson(verb))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('follows the tags: no change for a word compromise does not see as a present verb', () => {
    expect(thirdPerson('painted', { tags: new Set(['Verb', 'PastTense']) })).toBeNull();
    expect(thirdPerson('paint', { tags: new Set(['Verb', 'Infinitive']) })).toBe('paints');
    expect(thirdPerson('really', { tags: new Set(['Adverb']) })).toBeNull();
  });

  it('keeps verbs that look alike in the past when the sentence is past', () => {
    expect(thirdPerson('read', { past: true })).toBeNull();
    expect(thirdPerson('read', { past: false })).toBe('reads');
  });

  it('spells the -s form regularly and keeps a capital', () => {
    expect([addS('fix'), addS('study'), addS('play'), thirdPerson('Have')]).toEqual(['fixes', 'studies', 'plays', 'Has']);
  });
});
