import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { findNames, normaliseName } from './names.js';

const names = (text: string): string[] => findNames(text, tokenize(text), 0);

describe('findNames', () => {
  it('finds people, places, organisations and capitalised things, in order', () => {
    expect(names('I went to a LGBTQ support group with Dr. Smith and saw Star Wars at the Grand Hotel in New York.')).toEqual([
      'LGBTQ',
      'Dr. Smith',
      'Star Wars',
      'Grand Hotel',
      'New York',
    ]);
  });

  it('strips possessives and deduplicates, and skips calendar words and a capitalised first word', () => {
    expect(names("Yesterday Maria's brother met Maria at Google on Friday.")).toEqual(['Maria', 'Google']);
    expect(names('Painting is a fun way to relax.')).toEqual([]);
  });

  it('keeps a first word that compromise knows as a name', () => {
    expect(names('Melanie loves Pokémon.')).toEqual(['Melanie', 'Pokémon']);
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
