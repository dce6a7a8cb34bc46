import { describe, expect, it } from 'vitest';
import { learnFromMessages, readMessages } from './index.js';
import { tidyRepeatedPossessives } from './wording.js';

describe('tidyRepeatedPossessives', () => {
  it('writes "their" for a repeated possessive of the one person a fact names', () => {
    expect(tidyRepeatedPossessives("Bashir lost Bashir's job.", ['Bashir'])).toBe('Bashir lost their job.');
    expect(tidyRepeatedPossessives("Wendell is lucky to have Wendell's husband and kids.", ['Wendell'])).toBe(
      'Wendell is lucky to have their husband and kids.',
    );
    expect(tidyRepeatedPossessives("Wendell's kids love Wendell's dog.", ['Wendell'])).toBe("Wendell's kids love their dog.");
  });

  it('keeps the name when the fact names two people, or names the person once', () => {
    expect(tidyRepeatedPossessives("Priya told Wendell about Priya's trip.", ['Priya', 'Wendell'])).toBe(
      "Priya told Wendell about Priya's trip.",
    );
    expect(tidyRepeatedPossessives("Priya's sister is a nurse.", ['Priya'])).toBe("Priya's sister is a nurse.");
  });

  it('is used by the learner on what a speaker says', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Bashir', content: 'I lost my job last week.', at: '2023-01-20T10:00:00Z' },
        { role: 'user', name: 'Ines', content: 'Oh no.', at: '2023-01-20T10:01:00Z' },
      ]),
      { writtenAt: new Date('2023-01-20T10:00:00Z') },
    );
    expect(facts.map((fact) => fact.text)).toEqual(['Bashir lost their job in the week of 9 January 2023.']);
  });
});
