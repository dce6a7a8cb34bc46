import { describe, expect, it } from 'vitest';
import { CONTRASTS, subjectOf, supersededWords } from './contrast.js';

describe('supersededWords: the old value a fact says no longer holds', () => {
  const cases: [rule: string, text: string, old: string][] = [
    ['instead-of', 'The user and friends are going to Tallinn instead of Riga.', 'Riga'],
    ['instead-of', 'Edda chose a cedar frame rather than the pine one.', 'pine'],
    ['now-not', 'The user is a night-shift nurse now, not a paramedic.', 'paramedic'],
    ['not-anymore', "Edda doesn't eat dairy anymore.", 'dairy'],
    ['not-anymore', 'The user is not a smoker any more.', 'smoker'],
    ['no-longer', 'Edda no longer works at Brightwell Foods.', 'Brightwell Foods'],
    ['no-longer', 'The user is no longer in the choir.', 'choir'],
    ['from-to', 'The user switched from Figma to Penpot.', 'Figma'],
    ['from-to', 'Edda moved from Tartu to Pärnu last spring.', 'Tartu'],
    ['stopped', 'The user stopped drinking energy drinks.', 'drinking energy drinks'],
    ['stopped', 'Edda gave up smoking in March.', 'smoking'],
    ['used-to', 'The user used to live in Paris but now the user lives in Rome.', 'Paris'],
    ['used-to', 'Edda used to drink coffee, now only green tea.', 'coffee'],
  ];

  it.each(cases)('%s: "%s" → %s', (rule, text, old) => {
    expect(supersededWords(text)).toBe(old);
    // The named rule is the one that reads it: without it, nothing else does.
    const others = CONTRASTS.filter((contrast) => contrast.name !== rule);
    expect(others.some(({ pattern }) => pattern.exec(text)?.[1])).toBe(false);
  });

  it('every rule has a case', () => {
    expect(new Set(cases.map(([rule]) => rule))).toEqual(new Set(CONTRASTS.map((contrast) => contrast.name)));
  });

  it('stops the old value at a clause word and leaves empty words out', () => {
    expect(supersededWords('The user and friends are going to Tallinn instead of Riga now because of the flights.')).toBe('Riga');
    expect(supersededWords('The user uses a tablet instead of it.')).toBeNull();
  });

  it('reads nothing in facts that change nothing, or in questions', () => {
    expect(supersededWords('The user is going to Riga in June.')).toBeNull();
    expect(supersededWords('Edda has not been to Tartu.')).toBeNull();
    expect(supersededWords('Edda used to live in Tartu.')).toBeNull();
    expect(supersededWords('Should the user go to Tallinn instead of Riga?')).toBeNull();
  });
});

describe('subjectOf: whom a fact is about', () => {
  it('is the user, or the first name of about the fact says, wherever it stands', () => {
    expect(subjectOf('The user is vegan now, not vegetarian.')).toBe('The user');
    expect(subjectOf('After the visit Edda is flexitarian now, not vegan.', ['Tartu', 'Edda'])).toBe('Edda');
    expect(subjectOf('Change of plan: Edda is going to Tallinn instead of Riga.', ['Edda', 'Tallinn', 'Riga'])).toBe('Edda');
  });

  it('needs the whole name, not a part of a longer word', () => {
    expect(subjectOf('Eddard is no longer in the choir.', ['Edda'])).toBeNull();
  });
});
