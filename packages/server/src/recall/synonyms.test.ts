import { describe, expect, it } from 'vitest';
import { broaderText, broaderWords, relatedWords } from './synonyms.js';

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

describe('broaderWords (WordNet hypernyms)', () => {
  it('names the classes a noun belongs to, by the head of each class name', () => {
    expect(broaderWords('swimming')).toEqual(expect.arrayContaining(['sport', 'recreation']));
    expect(broaderWords('violin')).toContain('instrument');
    expect(broaderWords('paintings')).toContain('art');
    expect(broaderWords('hamster')).toContain('rodent');
  });

  it('leaves out classes too general to say anything, and words WordNet does not know', () => {
    expect(broaderWords('dog')).not.toContain('entity');
    expect(broaderWords('dog')).not.toContain('organism');
    expect(broaderWords('qwzxv')).toEqual([]);
  });

  it('takes the broader words of a text from its lower-case words only (capitalised words are names)', () => {
    const text = broaderText('Rex plays the violin and goes swimming.').split(' ');
    expect(text).toEqual(expect.arrayContaining(['instrument', 'sport']));
    expect(broaderText('Violin')).toBe('');
  });
});
