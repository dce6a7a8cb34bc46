import { describe, expect, it } from 'vitest';
import { readMessages } from '../text/messages.js';
import { learnFromMessages } from './learn.js';

const at = '2026-04-14T09:00:00Z';

/** What Ana's message to Ben teaches, in a conversation of the two. */
function learnedFromAna(text: string): string[] {
  return learnFromMessages(
    readMessages([
      { role: 'user', name: 'Ben', content: 'I am off to Crete in June, any tips?', at },
      { role: 'user', name: 'Ana', content: text, at },
    ]),
    { writtenAt: new Date(at) },
  )
    .filter((fact) => fact.sentence.messageIndex === 1)
    .map((fact) => fact.text);
}

describe('advice between two people', () => {
  it('learns a command that says what to do as the speaker’s advice to the listener', () => {
    expect(learnedFromAna('Book the ferry to Chania a week ahead and pack light.')).toEqual([
      "Ana's advice to Ben: book the ferry to Chania a week ahead and pack light.",
    ]);
    // The listener's words are written as theirs; a command after a label keeps its own words.
    expect(learnedFromAna('Quick tip: rent a car at the airport and drive your own route.')).toEqual([
      "Ana's advice to Ben: rent a car at the airport and drive Ben's own route.",
    ]);
    expect(learnedFromAna('Look for a guesthouse that serves breakfast on the terrace.')).toEqual([
      "Ana's advice to Ben: look for a guesthouse that serves breakfast on the terrace.",
    ]);
  });

  it('knows the advice as about both people, from the sentence that gave it', () => {
    const [fact] = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Ben', content: 'Any tips for Crete?', at },
        { role: 'user', name: 'Ana', content: 'Thanks for asking! Bring sunscreen and good walking shoes.', at },
      ]),
      { writtenAt: new Date(at) },
    ).filter((candidate) => candidate.sentence.messageIndex === 1);
    expect(fact?.text).toBe("Ana's advice to Ben: bring sunscreen and good walking shoes.");
    expect(fact?.about).toEqual(['Ana', 'Ben']);
    expect(fact?.sentence.text).toBe('Bring sunscreen and good walking shoes.');
  });

  it('sets aside wishes, requests to the speaker, pointers, encouragement and remarks', () => {
    for (const talk of [
      'Have a wonderful time on the island!',
      'Enjoy the sunsets on the west coast!',
      'Keep me posted on how the trip goes.',
      "Let's plan a trip there together next year.",
      'Check out this photo from my last visit to Crete.',
      'Stay safe out there!',
      'Keep going and believe in yourself!',
      'Bet the beaches are packed in June.',
      'Feel free to call me any time.',
      'Sleep before a long drive is vital on a trip like that.',
      'Painted all weekend but finally finished the fence.',
    ]) {
      expect(
        learnedFromAna(talk).filter((fact) => fact.includes('advice')),
        talk,
      ).toEqual([]);
    }
  });

  it('learns no advice where "you" is not one known person: a user and the assistant, or three people', () => {
    const toAssistant = learnFromMessages(
      readMessages([{ role: 'user', content: 'Book the ferry to Chania a week ahead and pack light.', at }]),
      { writtenAt: new Date(at) },
    );
    expect(toAssistant.filter((fact) => fact.text.includes('advice'))).toEqual([]);
    const threeOfUs = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Ben', content: 'I am off to Crete in June.', at },
        { role: 'user', name: 'Cleo', content: 'Lucky you!', at },
        { role: 'user', name: 'Ana', content: 'Book the ferry to Chania a week ahead and pack light.', at },
      ]),
      { writtenAt: new Date(at) },
    );
    expect(threeOfUs.filter((fact) => fact.text.includes('advice'))).toEqual([]);
  });
});
