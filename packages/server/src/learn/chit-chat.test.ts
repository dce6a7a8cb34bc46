import { describe, expect, it } from 'vitest';
import { findContent, isChitChat, isQuestion, questionCarriesFact } from './chit-chat.js';

const content = (sentence: string, names: string[] = ['Caroline', 'Melanie']): string => {
  const found = findContent(sentence, names);
  return sentence.slice(found.start, found.end);
};

describe('chit-chat', () => {
  it('finds greetings, thanks and bare acknowledgements', () => {
    for (const sentence of ['Hi!', 'Hey Mel, good to see you', 'Wow, that’s great!', 'Sounds fun', 'Thanks so much, Caroline!', 'Talk to you soon!', 'That charity race sounds great', 'So cool!', 'I totally agree', 'Good luck!']) {
      expect(isChitChat(content(sentence)), sentence).toBe(true);
    }
  });

  it('keeps sentences that carry a fact', () => {
    for (const sentence of ['I love hiking', 'My sister is a nurse', 'The event was really thought-provoking.', 'Thanks to my therapist I sleep better.', "I'm vegan."]) {
      expect(isChitChat(content(sentence)), sentence).toBe(false);
    }
  });

  it('sets aside openers, names used to address someone and trailing emoji', () => {
    expect(content('Hey Caroline, I ran a race! 😀')).toBe('I ran a race!');
    expect(content('Yeah, I painted that lake sunrise last year, Mel!')).toBe('I painted that lake sunrise last year');
    expect(content('So cool you found such a helpful group.')).toBe('you found such a helpful group.');
    expect(content('And here is the agency.')).toBe('here is the agency.');
  });

  it('tells questions that only ask from questions that show something of the speaker', () => {
    expect(isQuestion('How are you? 😀')).toBe(true);
    expect(isQuestion('I am fine.')).toBe(false);
    expect(questionCarriesFact('How are you?')).toBe(false);
    expect(questionCarriesFact('What did you do?')).toBe(false);
    expect(questionCarriesFact('Can I ask you something?')).toBe(false);
    expect(questionCarriesFact('Have you seen my new puppy, Rex?')).toBe(true);
    expect(questionCarriesFact('Did I tell you I got a new job?')).toBe(true);
  });
});
