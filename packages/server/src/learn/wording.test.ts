import { describe, expect, it } from 'vitest';
import { learnFromMessages, readMessages } from './index.js';
import { tidyRepeatedPossessives } from './wording.js';

describe('tidyRepeatedPossessives', () => {
  it('writes "their" for a repeated possessive of the one person a fact names', () => {
    expect(tidyRepeatedPossessives("Jon lost Jon's job.", ['Jon'])).toBe('Jon lost their job.');
    expect(tidyRepeatedPossessives("Melanie is lucky to have Melanie's husband and kids.", ['Melanie'])).toBe(
      'Melanie is lucky to have their husband and kids.',
    );
    expect(tidyRepeatedPossessives("Melanie's kids love Melanie's dog.", ['Melanie'])).toBe("Melanie's kids love their dog.");
  });

  it('keeps the name when the fact names two people, or names the person once', () => {
    expect(tidyRepeatedPossessives("Caroline told Melanie about Caroline's trip.", ['Caroline', 'Melanie'])).toBe(
      "Caroline told Melanie about Caroline's trip.",
    );
    expect(tidyRepeatedPossessives("Caroline's sister is a nurse.", ['Caroline'])).toBe("Caroline's sister is a nurse.");
  });

  it('is used by the learner on what a speaker says', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Jon', content: 'I lost my job last week.', at: '2023-01-20T10:00:00Z' },
        { role: 'user', name: 'Gina', content: 'Oh no.', at: '2023-01-20T10:01:00Z' },
      ]),
      { writtenAt: new Date('2023-01-20T10:00:00Z') },
    );
    expect(facts.map((fact) => fact.text)).toEqual(['Jon lost their job in the week of 9 January 2023.']);
  });
});
