import { describe, expect, it } from 'vitest';
import {
  answerSpan,
  askedNoun,
  askedWord,
  clausesOf,
  namedInstance,
  nounPhrase,
  personNamed,
  titleAsked,
  withoutDates,
} from './answer-span.js';

const clauses = (text: string) => clausesOf(text).map(([start, end]) => text.slice(start, end));

describe('answerSpan', () => {
  it('keeps what the clause holding the question’s words says after the last of them', () => {
    expect(answerSpan('What did Ana bake?', 'Ana baked a plum tart, which sold out by noon.')).toBe('a plum tart');
    // The clause with most of the question's words, whether it comes first or last.
    expect(
      answerSpan('What did Ana bake for her aunt at the market?', 'Ana bought bread at the market - for her aunt she baked a plum tart.'),
    ).toBe('a plum tart');
    expect(
      answerSpan('What did Ana bake for her aunt at the market?', 'For her aunt Ana baked a plum tart - the market sold her bread.'),
    ).toBe('a plum tart');
  });

  it('takes the longest stretch between the question’s words when nothing follows them', () => {
    expect(answerSpan('What did Ana bake for the fair?', 'Ana baked a plum tart with walnuts for the fair.')).toBe(
      'a plum tart with walnuts',
    );
  });

  it('takes the thing named between the question’s verb and its next word over what follows (rule "object between the question’s words")', () => {
    expect(answerSpan('What did Ana donate to the library?', 'Ana donated her old atlas to the library and felt lighter.')).toBe(
      'old atlas',
    );
    // A stretch after a name, or one without a noun, is not taken for the thing asked for.
    expect(answerSpan('What did Ana give to the library?', 'Ana gave it to the library last spring.')).toBe('last spring');
  });

  it('takes what comes before the question’s words, without its names, when nothing else is left', () => {
    expect(answerSpan('Which hobby keeps Ana calm?', 'Pottery keeps Ana calm.')).toBe('Pottery');
  });

  it('leaves written dates out and trims small words from the ends', () => {
    expect(answerSpan('What did Ana bake?', 'Ana baked a plum tart on 3 May 2023.')).toBe('a plum tart');
    expect(answerSpan('What did Ana bake?', 'Ana baked a plum tart with the.')).toBe('a plum tart');
    expect(withoutDates('Ana baked a tart on 3 May 2023 and a pie in the week of 8 May 2023.')).toBe('Ana baked a tart and a pie.');
  });

  it('is null when only small words are left, or no clause holds a word of the question', () => {
    expect(answerSpan('What was Ana part of?', 'Ana was part of it.')).toBeNull();
    expect(answerSpan('What did Ana bake?', 'Ana went sailing.')).toBeNull();
  });

  it('breaks a memory into clauses at dashes, semicolons and commas before a new clause, not at a list’s commas', () => {
    expect(clauses('Ana sails - it calms her; she races too, but rarely.')).toEqual([
      'Ana sails',
      'it calms her',
      'she races too',
      'but rarely',
    ]);
    expect(clauses('Ana grows beans, leeks and kale.')).toEqual(['Ana grows beans, leeks and kale']);
  });
});

describe('what a "what X" question asks for', () => {
  it('reads the head of the question’s opening noun phrase (rule "the asked-for noun is the phrase’s head")', () => {
    expect(askedWord('What wild animal did Ana’s dog chase?')).toBe('animal');
    expect(askedWord('Which classical composers does Ana play?')).toBe('composers');
    expect(askedWord("Which film's song does Ana hum?")).toBe('song');
    expect(askedWord('What did Ana do?')).toBeNull();
    expect(nounPhrase('What wooden boat did Ana build?', 'Ana built a small rowing boat for the lake.')).toBe('small rowing boat');
  });

  it('answers a kind of thing known by its name with the names a memory gives (rule "a named kind is answered with a name")', () => {
    expect(namedInstance('Which city did Ana move to?', 'Ana moved to Lisbon with Omar in spring.')).toBe('Lisbon');
    expect(namedInstance('Which cities has Ana lived in?', 'Ana has lived in Lisbon and Porto.')).toBe('Lisbon, Porto');
    // Not a kind of thing known by its name.
    expect(namedInstance('What dish did Ana cook?', 'Ana cooked Omar a stew.')).toBeNull();
  });
});

describe('nounPhrase said with a quality', () => {
  it('adds what follows a noun said only with a quality (rule "a quality alone is followed by what says which")', () => {
    expect(nounPhrase('What deal did Ana get?', 'Ana got a great deal with a local bike shop.')).toBe('great deal with a local bike shop');
    // A describing word that says which stands alone.
    expect(nounPhrase('What deal did Ana get?', 'Ana got a bike deal with a local shop.')).toBe('bike deal');
  });
});

describe('titleAsked', () => {
  it('gives a quoted title for a question asking for a named work, unless the question names it', () => {
    expect(titleAsked('What film does Ana like?', 'Ana loves the old film "Paper Moon".')).toBe('Paper Moon');
    expect(titleAsked('What did Ana think of "Paper Moon"?', 'Ana loves the old film "Paper Moon".')).toBeNull();
    expect(titleAsked('What film did Ana see about "Paper Moon"?', 'Ana saw "Paper Moon".')).toBeNull();
    // Not a question for a named work.
    expect(titleAsked('What did Ana say?', 'Ana said "not today".')).toBeNull();
  });
});

describe('personNamed', () => {
  it('gives the names a memory holds that the question does not', () => {
    expect(personNamed('Who taught Ana to sail?', 'Ana learned to sail from her uncle Tomas Berg.')).toBe('Tomas Berg');
    expect(personNamed('Who moved to Lisbon?', 'Priya moved to Lisbon in May 2023.')).toBe('Priya');
  });

  it('skips an opening word that is not a name, months and weekdays', () => {
    expect(personNamed('Who built the boat?', "Here's the boat Tomas built on Sunday in June.")).toBe('Tomas');
    expect(personNamed('Who built the boat?', 'Thankfully the boat held.')).toBeNull();
  });
});

describe('nounPhrase', () => {
  it('reads the noun a "what X" question asks for', () => {
    expect(askedNoun('What workshop did Ana go to?')).toBe('workshop');
    expect(askedNoun('Which kind of dog does Ana have?')).toBe('dog');
    expect(askedNoun('What did Ana bake?')).toBeNull();
  });

  it('gives the words a memory describes that noun with', () => {
    expect(nounPhrase('What workshop did Ana go to?', 'Ana went to a pottery glazing workshop last week.')).toBe(
      'pottery glazing workshop',
    );
    expect(nounPhrase('What kind of dog does Ana have?', 'Ana has a shaggy sheep dog.')).toBe('shaggy sheep dog');
    // Nothing more than the noun itself, or the question's own words.
    expect(nounPhrase('What workshop did Ana go to?', 'Ana went to the workshop.')).toBeNull();
    expect(nounPhrase('What pottery workshop did Ana go to?', 'Ana went to the pottery workshop.')).toBeNull();
  });
});
