import { describe, expect, it } from 'vitest';
import type { ContrastCandidate } from '../store/memory-repository.js';
import { updatedBy, withRelationsOf } from './contrast-updates.js';

/** A candidate as the store gives it (lexemes written out as PostgreSQL's English configuration makes them). */
function candidate(text: string, lexemes: string[], fact: string[], value: string[], subject = ['user']): ContrastCandidate {
  return { id: 1, text, lexemes, fact, value, subject };
}

describe('updatedBy: the memory a contrasting fact updates', () => {
  it('shares the relation with the fact beside the old value', () => {
    const going = candidate(
      'The user is going to Riga in June.',
      ['user', 'go', 'riga', 'june'],
      ['user', 'go', 'tallinn', 'instead', 'riga'],
      ['riga'],
    );
    expect(updatedBy(going, 'The user', 'The user is going to Tallinn instead of Riga.')).toBe(true);
  });

  it('or both say what their subject is', () => {
    const vegetarian = candidate('The user is vegetarian.', ['user', 'vegetarian'], ['user', 'flexitarian', 'vegetarian'], ['vegetarian']);
    expect(updatedBy(vegetarian, 'The user', 'The user is flexitarian now, not vegetarian.')).toBe(true);
  });

  it('not when only the old value and the subject are shared', () => {
    const pizza = candidate('The user loves pizza.', ['user', 'love', 'pizza'], ['user', 'cook', 'pasta', 'instead', 'pizza'], ['pizza']);
    expect(updatedBy(pizza, 'The user', 'The user cooked pasta instead of pizza.')).toBe(false);
  });

  it('not a memory that itself tells a change', () => {
    const change = candidate(
      'The user is going to Riga instead of Vilnius.',
      ['user', 'go', 'riga', 'instead', 'vilnius'],
      ['user', 'go', 'tallinn', 'instead', 'riga'],
      ['riga'],
    );
    expect(updatedBy(change, 'The user', 'The user is going to Tallinn instead of Riga.')).toBe(false);
  });

  it('reads what the subject is said to be at its mention nearest before the contrast', () => {
    const vegetarian = candidate(
      'The user has been vegetarian.',
      ['user', 'vegetarian'],
      ['user', 'doctor', 'decid', 'eat', 'fish', 'flexitarian', 'vegetarian'],
      ['vegetarian'],
    );
    const fact = "After a talk with the user's doctor the user decided to eat fish, so the user is flexitarian now, not vegetarian.";
    expect(updatedBy(vegetarian, 'The user', fact)).toBe(true);
    expect(updatedBy(vegetarian, 'The user', "The user's doctor says fish, so flexitarian now, not vegetarian.")).toBe(false);
  });

  it('reads the subject wherever it stands in either text', () => {
    const plain = candidate(
      'Edda is vegetarian.',
      ['edda', 'vegetarian'],
      ['visit', 'edda', 'flexitarian', 'vegetarian'],
      ['vegetarian'],
      ['edda'],
    );
    expect(updatedBy(plain, 'Edda', 'After the visit Edda is flexitarian now, not vegetarian.')).toBe(true);
  });
});

describe('who the people of a replaced memory are (withRelationsOf)', () => {
  it('names a person the replacing fact names bare with the relation the replaced memory gave', () => {
    expect(
      withRelationsOf(
        "The user's partner Tomas and the user are planning a week in Riga in May.",
        'The user is going to Tallinn instead of Riga, Tomas found a cheap ferry.',
      ),
    ).toBe("The user is going to Tallinn instead of Riga, the user's partner Tomas found a cheap ferry.");
    expect(withRelationsOf("Edda's little sister Ines is moving to Riga.", 'Ines is moving to Tallinn instead of Riga.')).toBe(
      "Edda's little sister Ines is moving to Tallinn instead of Riga.",
    );
  });

  it('leaves a fact that names the relation already, or does not name the person, as it is', () => {
    const fact = "The user's partner Tomas is going to Tallinn instead of Riga.";
    expect(withRelationsOf("The user's partner Tomas is going to Riga.", fact)).toBe(fact);
    expect(withRelationsOf("The user's partner Tomas is going to Riga.", 'The user is going to Tallinn instead of Riga.')).toBe(
      'The user is going to Tallinn instead of Riga.',
    );
    // A relation the replaced memory did not give a name is nobody's to carry.
    expect(withRelationsOf("The user's partner is going to Riga.", 'Tomas is going to Tallinn instead of Riga.')).toBe(
      'Tomas is going to Tallinn instead of Riga.',
    );
  });
});
