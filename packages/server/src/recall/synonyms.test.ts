import { describe, expect, it } from 'vitest';
import { relatedWords } from './synonyms.js';

describe('relatedWords (WordNet)', () => {
  it('finds synonyms and related forms from the most common senses', () => {
    expect(relatedWords('wedding')).toContain('marriage');
    expect(relatedWords('painted')).toEqual(expect.arrayContaining(['painter', 'painting']));
    expect(relatedWords('kids')).toContain('child');
  });

  it('returns nothing for words WordNet does not know, and never the word itself', () => {
    expect(relatedWords('qwzxv')).toEqual([]);
    expect(relatedWords('Caroline2')).toEqual([]);
    expect(relatedWords('job')).not.toContain('job');
    expect(relatedWords('job').length).toBeLessThanOrEqual(6);
  });
});
