import { describe, expect, it } from 'vitest';
import { answerKindAsked, holdsAnswerKind, namedWord } from './answer-kind.js';

describe('the kind of answer a question asks for (answerKindAsked)', () => {
  it('reads "how much" and "how old" as asking for an amount', () => {
    expect(answerKindAsked('How much did Tova pay for the kayak?')).toBe('amount');
    expect(answerKindAsked('How old is Tova?')).toBe('amount');
    // "How many…" may be counted across memories, none of which says the number.
    expect(answerKindAsked('How many times has Tova been sailing?')).toBeNull();
  });

  it('reads a question asking for a name, or for a kind of thing known by its name, as asking for a name', () => {
    expect(answerKindAsked("What is Tova's cat's name?")).toBe('name');
    expect(answerKindAsked('What is the name of the ferry?')).toBe('name');
    expect(answerKindAsked("What is Tova's brother called?")).toBe('name');
    expect(answerKindAsked('Which airline does Tova fly with?')).toBe('name');
    expect(answerKindAsked('Which city did Tova move to?')).toBe('name');
  });

  it('leaves other questions alone, kinds often said in plain words among them', () => {
    expect(answerKindAsked('What did Tova cook on Friday?')).toBeNull();
    expect(answerKindAsked('Which shop does Tova like?')).toBeNull();
    expect(answerKindAsked('What breed is the dog?')).toBeNull();
    expect(answerKindAsked('Where does Tova live?')).toBeNull();
  });
});

describe('whether a memory holds an answer of the kind asked (holdsAnswerKind)', () => {
  it('finds an amount in a number, not in a date or a year alone', () => {
    const asked = 'How much did Tova pay for the kayak?';
    expect(holdsAnswerKind('amount', asked, 'Tova paid 640 for the kayak.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'Tova bought the kayak for forty pounds.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'Tova bought a kayak on 3 May 2025.')).toBe(false);
    expect(holdsAnswerKind('amount', asked, 'Tova bought a 2019 kayak.')).toBe(false);
  });

  it('does not take a count of another unit for what something cost', () => {
    const asked = 'How much did Tova pay for the van?';
    expect(holdsAnswerKind('amount', asked, 'The van has 62,000 miles on it.')).toBe(false);
    expect(holdsAnswerKind('amount', asked, 'The van cost 8,500 in the end.')).toBe(true);
    // A question not about money keeps the unit ("How much weight…").
    expect(holdsAnswerKind('amount', 'How much weight has Tova lost?', 'Tova lost 6 kilos since March.')).toBe(true);
  });

  it('does not take a time of day for what something cost', () => {
    const asked = 'How much does a plum tart cost at the bakery?';
    expect(holdsAnswerKind('amount', asked, 'The plum tarts are all gone every day by 10.')).toBe(false);
    expect(holdsAnswerKind('amount', asked, 'The bakery opens at 7am and closes at 16:30.')).toBe(false);
    expect(holdsAnswerKind('amount', asked, 'The plum tarts are at 4 euros each.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'A plum tart is 3.50 at the bakery.')).toBe(true);
    // Not for other amounts: "by 10" may be how many.
    expect(holdsAnswerKind('amount', 'How much weight did Tova lose?', 'Tova lost weight by 10 kilos.')).toBe(true);
  });

  it('finds an age in a number a life reaches, told in years or months when a unit follows', () => {
    const asked = 'How old is Tova?';
    expect(holdsAnswerKind('amount', asked, 'Tova is 34 and runs a bakery.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'Tova is in her thirties.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'The puppy is nine months old.')).toBe(true);
    expect(holdsAnswerKind('amount', asked, 'Tova pays 980 in rent.')).toBe(false);
    expect(holdsAnswerKind('amount', asked, 'Tova walks 5 miles a day.')).toBe(false);
  });

  it("finds a name the question does not say, not a weekday, a month or the question's own name", () => {
    const asked = "What is Tova's cello teacher called?";
    expect(holdsAnswerKind('name', asked, "Tova's cello teacher is Mr Okafor.")).toBe(true);
    expect(holdsAnswerKind('name', asked, 'Tova started cello lessons on Thursdays.')).toBe(false);
    expect(holdsAnswerKind('name', asked, 'Tova loves her cello teacher.')).toBe(false);
  });

  it("does not take a person's first name for a thing's, nor a known city for a hotel's or a person's", () => {
    expect(holdsAnswerKind('name', 'Which airline is Tova flying with?', 'Tova is flying with Aer Lingus on Friday.')).toBe(true);
    expect(holdsAnswerKind('name', 'Which airline is Tova flying with?', 'Tova flies out for the wedding of her cousin Greta.')).toBe(
      false,
    );
    expect(holdsAnswerKind('name', 'Which hotel is Tova staying at?', 'Tova is staying in Lyon for a week.')).toBe(false);
    expect(holdsAnswerKind('name', 'Which city did Tova move to?', 'Tova moved to Lyon in May.')).toBe(true);
    expect(holdsAnswerKind('name', 'Which band does Tova play in?', 'Tova plays bass with her friend Greta.')).toBe(false);
    expect(holdsAnswerKind('name', "What is Tova's teacher called?", 'Tova has cello lessons in Lyon.')).toBe(false);
    expect(holdsAnswerKind('name', "What is Tova's teacher called?", 'Tova has cello lessons with Greta.')).toBe(true);
  });

  it('reads a name of two words the lexicon does not know as the learner reads it alone: a place by the word it ends with', () => {
    const asked = 'Which hotel is Tova staying at in Lyon?';
    expect(holdsAnswerKind('name', asked, 'Tova is going to Lyon and maybe the Brenne Valley.')).toBe(false);
    expect(holdsAnswerKind('name', asked, 'Tova is staying at the Maison Brenne in Lyon.')).toBe(true);
    // A town the lexicon does not know, but WordNet does, is no hotel's name.
    expect(holdsAnswerKind('name', asked, "Tova will stay with her aunt's friends in Spokane.")).toBe(false);
    // One word that is a town's name and a person's alike stays fit for either.
    expect(holdsAnswerKind('name', "What is Tova's aunt called?", "Tova's aunt Florence visits in May.")).toBe(true);
  });

  it('finds a result in a number, an ordinal or a grade the question does not say, not in a year or a vague number', () => {
    const asked = 'What score did Tova get in the K2 exam?';
    expect(answerKindAsked(asked)).toBe('score');
    expect(answerKindAsked('What grade is Tova in?')).toBe('score');
    expect(holdsAnswerKind('score', asked, 'Tova got 87 in the K2 exam.')).toBe(true);
    expect(holdsAnswerKind('score', asked, 'Tova passed the K2 exam with a B+.')).toBe(true);
    expect(holdsAnswerKind('score', 'What grade is Tova in?', 'Tova is in fourth grade now.')).toBe(true);
    expect(holdsAnswerKind('score', asked, 'Tova may take the K2 exam in 2026.')).toBe(false);
    expect(holdsAnswerKind('score', asked, 'Tova studied a few hours for the K2 exam.')).toBe(false);
    expect(holdsAnswerKind('score', asked, 'A friend helped Tova study for the K2 exam.')).toBe(false);
  });

  it("does not take a name the learner read as a place or an organisation for a person's, known by a relation or a role", () => {
    const asked = "What is Tova's boyfriend called?";
    const text = 'Tova is moving in with her boyfriend so Ines is moving out of Wexley.';
    // The learner read "Wexley" as a place ("out of …"), which the lexicon does not know.
    expect(holdsAnswerKind('name', asked, 'Tova is moving in with her boyfriend, out of Wexley.')).toBe(true);
    expect(holdsAnswerKind('name', asked, 'Tova is moving in with her boyfriend, out of Wexley.', new Map([['wexley', 'place']]))).toBe(
      false,
    );
    expect(holdsAnswerKind('name', asked, 'Tova is moving in with her boyfriend at Brightcore.', new Map([['brightcore', 'org']]))).toBe(
      false,
    );
    // Another name of the memory, a person's, answers.
    expect(
      holdsAnswerKind(
        'name',
        asked,
        text,
        new Map([
          ['ines', 'person'],
          ['wexley', 'place'],
        ]),
      ),
    ).toBe(true);
    // A name asked of a thing may be a place's ("the name of the café we went to").
    expect(
      holdsAnswerKind('name', 'What is the name of the café Tova likes?', 'Tova likes going to Wexley.', new Map([['wexley', 'place']])),
    ).toBe(true);
  });
});

describe('the noun whose name a question asks for (namedWord)', () => {
  it('reads it before "called", before "\'s name", and after "the name of"', () => {
    expect(namedWord("What is Tova's boyfriend called?")).toBe('boyfriend');
    expect(namedWord("What is my terrier's name?")).toBe('terrier');
    expect(namedWord("What are her kittens' names?")).toBe('kitten');
    expect(namedWord('What is the name of my cello teacher?')).toBe('teacher');
    expect(namedWord("What is the name of the greyhound's owner?")).toBe('owner');
    expect(namedWord('What is the name of the café my sister likes?')).toBe('café');
    expect(namedWord('Which airline is Tova flying with?')).toBeNull();
  });
});
