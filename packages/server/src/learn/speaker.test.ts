import { describe, expect, it } from 'vitest';
import type { Token } from '../text/tokens.js';
import { tokenize } from '../text/tokens.js';
import { applyEdits } from './edit.js';
import type { Persons } from './speaker.js';
import { fillDroppedSubject, resolvePersons } from './speaker.js';

const context = (sentence: string, past = false) => {
  const byStart = new Map<number, Token>();
  for (const token of tokenize(sentence)) if (token.text !== '' && !byStart.has(token.start)) byStart.set(token.start, token);
  return { tokenAt: (start: number) => byStart.get(start), past };
};
const resolve = (sentence: string, persons: Persons = { self: 'Priya', other: 'Tomas' }, past = false): string =>
  applyEdits(sentence, resolvePersons(sentence, persons, context(sentence, past)).edits);

describe('resolvePersons', () => {
  it('names the speaker and puts the verb in the third person', () => {
    expect(resolve('I love hiking')).toBe('Priya loves hiking');
    expect(resolve("I'm going to Paris")).toBe('Priya is going to Paris');
    expect(resolve("I've got two cats and I'd love a third")).toBe('Priya has got two cats and Priya would love a third');
    expect(resolve("I'll be there and I do not mind")).toBe('Priya will be there and Priya does not mind');
    expect(resolve('I really try to study')).toBe('Priya really tries to study');
    expect(resolve('I no longer teach at the college')).toBe('Priya no longer teaches at the college');
    expect(resolve("I'd gone home")).toBe('Priya had gone home');
  });

  it('leaves modal verbs and past tenses alone', () => {
    expect(resolve('I can swim and I went home')).toBe('Priya can swim and Priya went home');
    expect(resolve('I read it yesterday', undefined, true)).toBe('Priya read it yesterday');
  });

  it('turns possessives and objects into the name', () => {
    expect(resolve('My sister is a nurse')).toBe("Priya's sister is a nurse");
    expect(resolve('The group made me feel accepted and the book is mine')).toBe(
      "The group made Priya feel accepted and the book is Priya's",
    );
    expect(resolve('I did it myself')).toBe('Priya did it themselves');
  });

  it('keeps the plural verb for a shared subject', () => {
    expect(resolve('My husband and I love camping')).toBe("Priya's husband and Priya love camping");
    expect(resolve('I bought a car and I love it')).toBe('Priya bought a car and Priya loves it');
    expect(resolve('Sam and I love camping')).toBe('Sam and Priya love camping');
    // An interjection before "and" shares nothing: "Oh and I love rowing".
    expect(resolve('Oh and I love rowing')).toBe('Oh and Priya loves rowing');
  });

  it('names the other speaker for "you", as subject, object or in a question', () => {
    expect(resolve('You have such a kind heart')).toBe('Tomas has such a kind heart');
    expect(resolve('I think you are right')).toBe('Priya thinks Tomas is right');
    expect(resolve('I told you about your trip')).toBe("Priya told Tomas about Tomas's trip");
    expect(resolve('Have you seen my puppy?')).toBe("Has Tomas seen Priya's puppy?");
    expect(resolve('Your family is lucky to have you')).toBe("Tomas's family is lucky to have Tomas");
    expect(resolve("You're great and you've done well")).toBe('Tomas is great and Tomas has done well');
  });

  it('leaves "you" alone without exactly one other speaker, and in fillers', () => {
    expect(resolve('I think you are right', { self: 'Priya', other: null })).toBe('Priya thinks you are right');
    expect(resolve('It was, you know, fine and thank you', { self: 'Priya', other: 'Tomas' })).toBe('It was, you know, fine and thank you');
    expect(resolve('See you guys later')).toBe('See you guys later');
    // Letting someone know is no filler.
    expect(resolve("I'll let you know.", { self: 'Priya', other: 'Tomas' })).toMatch(/let Tomas know\.$/);
  });

  it('reads "we" as family, team or friends, and "our" as the speaker’s', () => {
    expect(resolve('We went sledding with the kids')).toBe("Priya's family went sledding with the kids");
    expect(resolve('We finished the project at work')).toBe("Priya's team finished the project at work");
    expect(resolve('We went dancing')).toBe('Priya and friends went dancing');
    // "company" as companionship makes no team.
    expect(resolve("We just enjoy each other's company")).toBe("Priya and friends just enjoy each other's company");
    expect(resolve('Since we last talked, our dog got sick')).toBe("Since Priya and Tomas last talked, Priya's dog got sick");
  });

  it('writes "the user" inside a sentence for an owner without a name', () => {
    expect(resolve('The group made me happy', { self: 'The user', other: null })).toBe('The group made the user happy');
    expect(resolve('I love tea', { self: 'The user', other: null })).toBe('The user loves tea');
  });

  it('reports which people it named', () => {
    const sentence = 'I love your garden';
    expect(resolvePersons(sentence, { self: 'Priya', other: 'Tomas' }, context(sentence))).toMatchObject({ self: true, other: true });
    const plain = 'The garden is big';
    expect(resolvePersons(plain, { self: 'Priya', other: 'Tomas' }, context(plain))).toEqual({ edits: [], self: false, other: false });
  });
});

describe('fillDroppedSubject', () => {
  const fill = (sentence: string): string | null => {
    const edits = fillDroppedSubject(sentence, 0, sentence.length, 'Priya', context(sentence));
    return edits === null ? null : applyEdits(sentence, edits);
  };

  it('writes in the speaker where chat leaves "I" out', () => {
    expect(fill('Gonna continue my studies')).toBe('Priya is going to continue my studies');
    expect(fill('Love that painting!')).toBe('Priya loves that painting!');
    expect(fill('Went hiking with Bashir')).toBe('Priya went hiking with Bashir');
    expect(fill('So excited for the trip')).toBe('Priya is so excited for the trip');
    expect(fill('Still following my passion for chess')).toBe('Priya is still following my passion for chess');
    expect(fill('Been busy volunteering at the shelter')).toBe('Priya has been busy volunteering at the shelter');
    expect(fill('Been so swamped with work')).toBe('Priya has been so swamped with work');
    expect(fill('Just been helping some friends')).toBe('Priya has just been helping some friends');
    expect(fill('Still gonna go to the parade')).toBe('Priya is still going to go to the parade');
    expect(fill('Just gotta figure out how to fix the roof')).toBe('Priya just has to figure out how to fix the roof');
    expect(fill("Haven't seen the new studio yet")).toBe("Priya hasn't seen the new studio yet");
    expect(fill("Haven't written to you in a while")).toBe("Priya hasn't written to you in a while");
    expect(fill('Can’t wait to hear your new song')).toBe('Priya can’t wait to hear your new song');
    expect(fill("Just didn't know that")).toBe("Priya just didn't know that");
    expect(fill("So proud of the garden you've planted")).toBe("Priya is so proud of the garden you've planted");
    expect(fill('Glad to have you')).toBe('Priya is glad to have you');
  });

  it('leaves a negated auxiliary that asks or advises alone', () => {
    expect(fill("Haven't you been there?")).toBeNull();
    expect(fill("Don't forget to rest")).toBeNull();
    expect(fill('Lucky you to own such a garden')).toBeNull();
  });

  it('leaves commands, gerund subjects and sentences about someone else alone', () => {
    expect(fill('Take a look at this')).toBeNull();
    expect(fill('Taking breaks from screens is healthy')).toBeNull();
    expect(fill('Made me think about it')).toBeNull();
    expect(fill("Taking in kids - you're so kind")).toBeNull();
    expect(fill('Making a plan could save us some time')).toBeNull();
    expect(fill('Love sure does make us brave')).toBeNull();
    expect(fill('Been quite a ride')).toBeNull();
  });
});
