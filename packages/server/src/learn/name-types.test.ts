import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { nameTypes, typeOfName } from './name-types.js';

const typesIn = (sentence: string, names: string[], people: string[] = []) =>
  nameTypes(names, { text: sentence, tokens: tokenize(sentence), start: 0, end: sentence.length, people });

describe('nameTypes', () => {
  it('tells people, places and organisations apart by the sentence around them', () => {
    expect(typesIn('Maria moved to Lisbon with her husband Tom.', ['Maria', 'Lisbon', 'Tom'])).toEqual(['person', 'place', 'person']);
    expect(typesIn('Priya works for Acme Robotics in Berlin.', ['Priya', 'Acme Robotics', 'Berlin'], ['Priya'])).toEqual([
      'person',
      'org',
      'place',
    ]);
    expect(typesIn('Leo plays chess with Ravi at the Elm Street Club.', ['Leo', 'Ravi', 'Elm Street Club'])).toEqual([
      'person',
      'person',
      'org',
    ]);
    expect(typesIn('Jonas started a new job at Google.', ['Jonas', 'Google'])).toEqual(['person', 'org']);
    expect(typesIn('Ana watched Star Wars again.', ['Ana', 'Star Wars'])).toEqual(['person', 'thing']);
  });

  it('types a bare name from the lexicon and WordNet, else as a thing', () => {
    expect(typeOfName('Portugal')).toBe('place');
    expect(typeOfName('Riverside Bakery')).toBe('org');
    expect(typeOfName('Maria')).toBe('person');
    expect(typeOfName('Pokémon')).toBe('thing');
  });
});
