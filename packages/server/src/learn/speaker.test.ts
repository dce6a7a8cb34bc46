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
const resolve = (sentence: string, persons: Persons = { self: 'Caroline', other: 'Melanie' }, past = false): string =>
  applyEdits(sentence, resolvePersons(sentence, persons, context(sentence, past)).edits);

describe('resolvePersons', () => {
  it('names the speaker and puts the verb in the third person', () => {
    expect(resolve('I love hiking')).toBe('Caroline loves hiking');
    expect(resolve("I'm going to Paris")).toBe('Caroline is going to Paris');
    expect(resolve("I've got two cats and I'd love a third")).toBe('Caroline has got two cats and Caroline would love a third');
    expect(resolve("I'll be there and I do not mind")).toBe('Caroline will be there and Caroline does not mind');
    expect(resolve('I really try to study')).toBe('Caroline really tries to study');
    expect(resolve("I'd gone home")).toBe('Caroline had gone home');
  });

  it('leaves modal verbs and past tenses alone', () => {
    expect(resolve('I can swim and I went home')).toBe('Caroline can swim and Caroline went home');
    expect(resolve('I read it yesterday', undefined, true)).toBe('Caroline read it yesterday');
  });

  it('turns possessives and objects into the name', () => {
    expect(resolve('My sister is a nurse')).toBe("Caroline's sister is a nurse");
    expect(resolve('The group made me feel accepted and the book is mine')).toBe(
      "The group made Caroline feel accepted and the book is Caroline's",
    );
    expect(resolve('I did it myself')).toBe('Caroline did it themselves');
  });

  it('keeps the plural verb for a shared subject', () => {
    expect(resolve('My husband and I love camping')).toBe("Caroline's husband and Caroline love camping");
    expect(resolve('I bought a car and I love it')).toBe('Caroline bought a car and Caroline loves it');
  });

  it('names the other speaker for "you", as subject, object or in a question', () => {
    expect(resolve('You have such a kind heart')).toBe('Melanie has such a kind heart');
    expect(resolve('I think you are right')).toBe('Caroline thinks Melanie is right');
    expect(resolve('I told you about your trip')).toBe("Caroline told Melanie about Melanie's trip");
    expect(resolve('Have you seen my puppy?')).toBe("Has Melanie seen Caroline's puppy?");
    expect(resolve('Your family is lucky to have you')).toBe("Melanie's family is lucky to have Melanie");
    expect(resolve("You're great and you've done well")).toBe('Melanie is great and Melanie has done well');
  });

  it('leaves "you" alone without exactly one other speaker, and in fillers', () => {
    expect(resolve('I think you are right', { self: 'Caroline', other: null })).toBe('Caroline thinks you are right');
    expect(resolve('It was, you know, fine and thank you', { self: 'Caroline', other: 'Melanie' })).toBe(
      'It was, you know, fine and thank you',
    );
    expect(resolve('See you guys later')).toBe('See you guys later');
    // Letting someone know is no filler.
    expect(resolve("I'll let you know.", { self: 'Caroline', other: 'Melanie' })).toMatch(/let Melanie know\.$/);
  });

  it('reads "we" as family, team or friends, and "our" as the speaker’s', () => {
    expect(resolve('We went camping with the kids')).toBe("Caroline's family went camping with the kids");
    expect(resolve('We finished the project at work')).toBe("Caroline's team finished the project at work");
    expect(resolve('We went dancing')).toBe('Caroline and friends went dancing');
    // "company" as companionship makes no team.
    expect(resolve("We just enjoy each other's company")).toBe("Caroline and friends just enjoy each other's company");
    expect(resolve('Since we last talked, our dog got sick')).toBe("Since Caroline and Melanie last talked, Caroline's dog got sick");
  });

  it('writes "the user" inside a sentence for an owner without a name', () => {
    expect(resolve('The group made me happy', { self: 'The user', other: null })).toBe('The group made the user happy');
    expect(resolve('I love tea', { self: 'The user', other: null })).toBe('The user loves tea');
  });

  it('reports which people it named', () => {
    const sentence = 'I love your garden';
    expect(resolvePersons(sentence, { self: 'Caroline', other: 'Melanie' }, context(sentence))).toMatchObject({ self: true, other: true });
    const plain = 'The garden is big';
    expect(resolvePersons(plain, { self: 'Caroline', other: 'Melanie' }, context(plain))).toEqual({ edits: [], self: false, other: false });
  });
});

describe('fillDroppedSubject', () => {
  const fill = (sentence: string): string | null => {
    const edits = fillDroppedSubject(sentence, 0, sentence.length, 'Caroline', context(sentence));
    return edits === null ? null : applyEdits(sentence, edits);
  };

  it('writes in the speaker where chat leaves "I" out', () => {
    expect(fill('Gonna continue my studies')).toBe('Caroline is going to continue my studies');
    expect(fill('Love that painting!')).toBe('Caroline loves that painting!');
    expect(fill('Went hiking with Jon')).toBe('Caroline went hiking with Jon');
    expect(fill('So excited for the trip')).toBe('Caroline is so excited for the trip');
    expect(fill('Still following my passion for dance')).toBe('Caroline is still following my passion for dance');
    expect(fill('Been busy volunteering at the shelter')).toBe('Caroline has been busy volunteering at the shelter');
    expect(fill('Been so swamped with work')).toBe('Caroline has been so swamped with work');
    expect(fill('Just been helping some friends')).toBe('Caroline has just been helping some friends');
    expect(fill('Still gonna go to the parade')).toBe('Caroline is still going to go to the parade');
    expect(fill('Just gotta find a way to tough it out')).toBe('Caroline just has to find a way to tough it out');
    expect(fill("Haven't seen the new studio yet")).toBe("Caroline hasn't seen the new studio yet");
    expect(fill("Haven't talked to you in a bit")).toBe("Caroline hasn't talked to you in a bit");
    expect(fill('Can’t wait to see your pottery')).toBe('Caroline can’t wait to see your pottery');
    expect(fill("Just didn't know that")).toBe("Caroline just didn't know that");
    expect(fill("So proud of the progress you've made")).toBe("Caroline is so proud of the progress you've made");
    expect(fill('Glad to have you')).toBe('Caroline is glad to have you');
  });

  it('leaves a negated auxiliary that asks or advises alone', () => {
    expect(fill("Haven't you been there?")).toBeNull();
    expect(fill("Don't forget to rest")).toBeNull();
    expect(fill('Lucky you to have such a family')).toBeNull();
  });

  it('leaves commands, gerund subjects and sentences about someone else alone', () => {
    expect(fill('Take a look at this')).toBeNull();
    expect(fill('Taking care of ourselves is vital')).toBeNull();
    expect(fill('Made me think about it')).toBeNull();
    expect(fill("Taking in kids - you're so kind")).toBeNull();
    expect(fill('Making a switch could open up new opportunities')).toBeNull();
    expect(fill('Love sure does bring us joy')).toBeNull();
    expect(fill('Been quite a ride')).toBeNull();
  });
});
