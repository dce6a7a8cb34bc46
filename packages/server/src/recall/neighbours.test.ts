import { describe, expect, it } from 'vitest';
import { neighbourWords } from './neighbours.js';

describe('neighbourWords (GloVe nearest neighbours)', () => {
  it('gives the words used where a word is used, most alike first, with how alike they are', () => {
    const violin = neighbourWords('violin');
    expect(violin.map((neighbour) => neighbour.word)).toEqual(expect.arrayContaining(['cello', 'piano']));
    const similarities = violin.map((neighbour) => neighbour.similarity);
    expect(similarities).toEqual([...similarities].sort((left, right) => right - left));
    for (const similarity of similarities) {
      expect(similarity).toBeGreaterThanOrEqual(0.5);
      expect(similarity).toBeLessThanOrEqual(1);
    }
    expect(neighbourWords('desserts').map((neighbour) => neighbour.word)).toEqual(expect.arrayContaining(['pastries', 'cakes', 'pies']));
  });

  it('never gives the word itself or its own forms, which recall matches already', () => {
    const painting = neighbourWords('painting').map((neighbour) => neighbour.word);
    expect(painting).not.toContain('painting');
    expect(painting).not.toContain('paintings');
  });

  it('gives nothing for names, words with capitals or digits, stop words, calendar words and unknown words', () => {
    expect(neighbourWords('Violin')).toEqual([]);
    expect(neighbourWords('mp3')).toEqual([]);
    expect(neighbourWords('the')).toEqual([]);
    expect(neighbourWords('july')).toEqual([]);
    expect(neighbourWords('three')).toEqual([]);
    expect(neighbourWords('zzzqx')).toEqual([]);
  });
});
