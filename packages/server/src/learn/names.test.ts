import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { findNames, normaliseName } from './names.js';

const names = (text: string): string[] => findNames(text, tokenize(text), 0);

describe('findNames', () => {
  it('finds people, places, organisations and capitalised things, in order', () => {
    expect(names('I went to a NASA open day with Dr. Okafor and saw Blade Runner at the Plaza Cinema in New Orleans.')).toEqual([
      'NASA',
      'Dr. Okafor',
      'Blade Runner',
      'Plaza Cinema',
      'New Orleans',
    ]);
  });

  it('strips possessives and deduplicates, and skips calendar words and a capitalised first word', () => {
    expect(names("Yesterday Maria's brother met Maria at Google on Friday.")).toEqual(['Maria', 'Google']);
    expect(names('Knitting is a calm way to unwind.')).toEqual([]);
  });

  it('keeps a first word that compromise knows as a name', () => {
    expect(names('Beatrice loves Pokémon.')).toEqual(['Beatrice', 'Pokémon']);
  });
});

describe('normaliseName', () => {
  it('removes possessives and surrounding punctuation', () => {
    expect(['Maria’s', '“Star Wars”,', "the Smiths'", 'Dr. Lee.'].map(normaliseName)).toEqual([
      'Maria',
      'Star Wars',
      'the Smiths',
      'Dr. Lee',
    ]);
  });

  it('keeps two people joined by "and" apart', () => {
    expect(names('Aisha and Boris went hiking near Porto with Ines and Tom.')).toEqual(['Aisha', 'Boris', 'Porto', 'Ines', 'Tom']);
    expect(names('They shop at Marks and Spencer.')).toEqual(['Marks and Spencer']);
  });
});
