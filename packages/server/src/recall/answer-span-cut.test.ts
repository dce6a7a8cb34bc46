import { describe, expect, it } from 'vitest';
import { answerSpan, personNamed, trimSpan } from './answer-span.js';
import { shortAnswer } from './ask.js';

describe('answerSpan: which part answers', () => {
  it('does not count a memory’s small word as one of the question’s words (rule "a small word is not the question’s")', () => {
    // "On" stems as "one" does; read as the question's word it made "another note" the answer.
    expect(
      answerSpan(
        'What did Ines make for one of the girls at her choir?',
        'On another note, Ines just finished a little felt bookmark for one of the girls at her choir.',
      ),
    ).toBe('finished a little felt bookmark');
  });

  it('takes the first of what follows, lies between or comes before the question’s words that names a thing (rule "the span names a thing")', () => {
    // What follows the question's words ("lately") names nothing; what comes before does.
    expect(
      answerSpan('What hobby does Ines share with her son besides fishing?', 'Pottery is the hobby Ines shares with her son lately.'),
    ).toBe('Pottery');
  });

  it('takes a clause saying something after the question’s words over one giving only its subject and verb (rule "what follows the question’s words before the subject")', () => {
    const memory = "Ines's family are thinking about adopting a rescue goat - for fun and to teach their kids patience and kindness.";
    expect(answerSpan('What values does Ines want to teach her kids by adopting a rescue goat?', memory)).toBe('patience and kindness');
    // With no other clause, the subject and verb are still the answer.
    expect(answerSpan('Which hobby keeps Ines calm?', 'Pottery keeps Ines calm.')).toBe('Pottery');
  });
});

describe('trimSpan', () => {
  it('leaves out a preposition opening the span, not for "why" or "how" (rule "a preposition is not the answer")', () => {
    expect(trimSpan('What is Ines getting ready for?', 'for a bake sale')).toBe('a bake sale');
    expect(shortAnswer('What is Ines getting ready for at the school?', 'Ines is busy at the school getting ready for a bake sale.')).toBe(
      'a bake sale',
    );
    expect(trimSpan('Why did Ines take the train?', 'to relax')).toBe('to relax');
    expect(trimSpan('How did Ines get to the coast?', 'by bike')).toBe('by bike');
  });

  it('ends the span where a new clause begins, for "what / which / who", when what is left names a thing (rule "the span ends where a new clause begins")', () => {
    expect(trimSpan('What did the fair raise money for?', 'animal rescue is so rewarding')).toBe('animal rescue');
    expect(trimSpan('What did Ines fly at the beach?', 'a blue kite and it flew for hours')).toBe('a blue kite');
    expect(
      shortAnswer('What did the fair raise money for?', 'Raising money for animal rescue is so rewarding - Ines is proud of the team.'),
    ).toBe('animal rescue');
    // "How did it feel?" is answered by what is said of the noun.
    expect(trimSpan('How did the crowd feel at the final?', 'the arena was electric')).toBe('the arena was electric');
    // Nothing naming a thing would be left: the span stays whole.
    expect(trimSpan('What did Ines say?', 'their plan is great')).toBe('their plan is great');
  });
});

describe('personNamed', () => {
  it('gives a name said twice once', () => {
    expect(personNamed('Who helps Ines at the stall?', 'Tomas sets up the stall and Tomas packs it away.')).toBe('Tomas');
  });
});
