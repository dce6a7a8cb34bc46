import { describe, expect, it } from 'vitest';
import {
  broaderText,
  broaderWords,
  nameKinds,
  personClasses,
  placeClasses,
  placesAround,
  relatedWords,
  surroundingPlaces,
} from './synonyms.js';

describe('relatedWords (WordNet)', () => {
  it('finds synonyms and related forms from the most common senses', () => {
    expect(relatedWords('wedding')).toContain('marriage');
    expect(relatedWords('painted')).toEqual(expect.arrayContaining(['painter', 'painting']));
    expect(relatedWords('kids')).toContain('child');
  });

  it('returns nothing for words WordNet does not know, and never the word itself', () => {
    expect(relatedWords('qwzxv')).toEqual([]);
    expect(relatedWords('Priya2')).toEqual([]);
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

  it('takes the broader words of a text from its lower-case words, and of its names only places', () => {
    const text = broaderText('Rex plays the violin and goes swimming.').split(' ');
    expect(text).toEqual(expect.arrayContaining(['instrument', 'sport']));
    expect(broaderText('Violin')).toBe('');
    const trip = broaderText('Maria took a solo trip to Spain and then flew to New York.').split(' ');
    expect(trip).toEqual(expect.arrayContaining(['country', 'city']));
    // "Maria" and "John" are people here, not WordNet's lunar plains or apostle.
    expect(broaderText('Maria met John.')).toBe('');
  });
});

describe('relatedWords: the members of a group', () => {
  it('gives the members WordNet lists for a group noun, after its synonyms', () => {
    expect(relatedWords('family')).toEqual(expect.arrayContaining(['household', 'child', 'kid', 'parent']));
    expect(relatedWords('family').indexOf('kid')).toBeGreaterThan(relatedWords('family').indexOf('household'));
    expect(relatedWords('painting')).not.toContain('kid');
  });
});

describe('broaderWords: the nearest class in both its words', () => {
  it('gives the first of two words of the nearest class, and only the head further up', () => {
    expect(broaderWords('taekwondo')).toEqual(expect.arrayContaining(['martial', 'art']));
    expect(broaderWords('swimming')).toEqual(expect.arrayContaining(['water', 'sport']));
    expect(placeClasses('Spain', 2)).toContain('european');
    // Higher up, a class of two words gives its head alone.
    expect(broaderWords('painting')).not.toContain('creative');
  });
});

describe('placeClasses (WordNet places)', () => {
  it('names what a place is, from its instance classes and a few steps up', () => {
    expect(placeClasses('Spain')).toEqual(expect.arrayContaining(['country', 'nation']));
    expect(placeClasses('Oregon')).toContain('state');
    expect(placeClasses('Rome')).toEqual(expect.arrayContaining(['capital', 'city']));
    expect(placeClasses('New York')).toContain('city');
  });

  it('gives the kinds of the places a text names, a short way up: said as much as its own words', () => {
    const kinds = nameKinds('Maria took this pic in Spain and then flew to Rome.').split(' ');
    expect(kinds).toEqual(expect.arrayContaining(['country', 'capital', 'city', 'place', 'location']));
    // Further up is only broader (see broaderText), not what the place is.
    expect(kinds).not.toContain('district');
    expect(broaderText('Maria took this pic in Spain.').split(' ')).toContain('district');
    expect(nameKinds('John met Maria at the studio.')).toBe('');
  });

  it('names the places a place lies in, and what they are', () => {
    expect(placesAround('Tampa')).toEqual(expect.arrayContaining(['florida', 'state', 'country']));
    expect(placesAround('Paris')).toEqual(expect.arrayContaining(['france', 'country']));
    expect(placesAround('Edinburgh')).toContain('scotland');
    // A name of several words would put its common words in the memory ("united").
    expect(placesAround('Seattle')).not.toContain('united');
    expect(placesAround('Odile')).toEqual([]);
    // Indexed beside the memory, below its own kinds: Tampa is a city, in a state.
    const text = 'Tomas rode his bike to the pier in Tampa.';
    expect(surroundingPlaces(text).split(' ')).toEqual(expect.arrayContaining(['florida', 'state']));
    expect(nameKinds(text).split(' ')).toEqual(expect.arrayContaining(['city', 'place']));
    expect(nameKinds(text).split(' ')).not.toContain('state');
  });

  it('knows only places spelled as names: not people, not common words, not unknown names', () => {
    expect(placeClasses('John')).toEqual([]);
    expect(placeClasses('Bach')).toEqual([]);
    expect(placeClasses('Beatrice')).toEqual([]);
    expect(placeClasses('spain')).toEqual([]);
    expect(placeClasses('Painting')).toEqual([]);
  });
});

describe('personClasses (WordNet people)', () => {
  it('names what a well-known person named by surname is', () => {
    expect(personClasses('Bach')).toEqual(expect.arrayContaining(['composer', 'musician']));
    expect(personClasses('Vivaldi')).toContain('composer');
    expect(personClasses('Tolkien')).toContain('writer');
    expect(nameKinds('Ines is a fan of baroque like Bach and Mozart.').split(' ')).toEqual(
      expect.arrayContaining(['composer', 'musician']),
    );
    // People are not places: no "place" kind for a composer.
    expect(nameKinds('Ines loves Mozart.').split(' ')).not.toContain('place');
  });

  it('counts a name compromise knows as an organisation as saying organization and company', () => {
    expect(nameKinds('Omar signed a sponsorship deal with Nike.', ['Omar', 'Nike']).split(' ')).toEqual(
      expect.arrayContaining(['organization', 'company']),
    );
    expect(nameKinds('John met Maria.', ['John', 'Maria'])).toBe('');
  });

  it('leaves first names, places and unknown names alone', () => {
    // WordNet files John, Andrew and Calvin as an apostle, a saint and a theologian.
    expect(personClasses('John')).toEqual([]);
    expect(personClasses('Andrew')).toEqual([]);
    expect(personClasses('Calvin')).toEqual([]);
    expect(personClasses('Washington')).toEqual([]);
    expect(personClasses('Beatrice')).toEqual([]);
    expect(personClasses('bach')).toEqual([]);
  });
});
