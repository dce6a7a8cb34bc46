import { describe, expect, it } from 'vitest';
import { answerOffline, asksCount, countsAsked } from './ask.js';
import { memoryRow as row } from './memory-row.fixture.js';

describe('a count answers how many (answerOffline)', () => {
  it('tells count questions from others', () => {
    expect(asksCount('How many kites has Bruno flown?')).toBe(true);
    expect(asksCount('How long has Bruno kept bees?')).toBe(true);
    expect(asksCount('How often does Bruno swim?')).toBe(true);
    expect(asksCount('How did Bruno learn to swim?')).toBe(false);
    expect(asksCount('What did Bruno count?')).toBe(false);
  });

  it('answers with the duration the memory gives, its unit kept and the rest left out', () => {
    const reply = answerOffline(
      [{ row: row(1, 'Bruno has kept bees for nine years now, and they still surprise him.'), score: 0.8 }],
      false,
      'How long has Bruno kept bees?',
    );
    expect(reply.answer).toBe('Nine years.');
  });

  it('keeps how often a thing happens with its count ("a few times a week", "once or twice a year")', () => {
    const weekly = answerOffline(
      [{ row: row(1, 'Bruno swims in the lake a few times a week with his cousin.'), score: 0.8 }],
      false,
      'How often does Bruno swim in the lake?',
    );
    expect(weekly.answer).toBe('A few times a week.');
    const yearly = answerOffline(
      [{ row: row(1, 'Usually Bruno visits the coast once or twice a year.'), score: 0.8 }],
      false,
      'How often does Bruno visit the coast?',
    );
    expect(yearly.answer).toBe('Once or twice a year.');
  });

  it('answers from the next memory that gives a count when the best gives none, alone', () => {
    const reply = answerOffline(
      [
        { row: row(1, 'Bruno loves flying kites on the hill behind the farm.', { message_index: 1 }), score: 0.8 },
        { row: row(2, 'Bruno owns 4 kites, all of them handmade.', { message_index: 2 }), score: 0.78 },
      ],
      false,
      'How many kites does Bruno have?',
    );
    expect(reply.answer).toBe('4 kites.');
    expect(reply.message).toMatch(/1 memory/);
  });

  it('takes only a count of the kind asked, from any recalled memory', () => {
    const recalled = [
      { row: row(1, 'Bruno keeps 3 hives behind the barn.', { message_index: 1 }), score: 0.8 },
      { row: row(2, 'The hives came from his aunt.', { message_index: 2 }), score: 0.7 },
      { row: row(3, 'His aunt gave him two jars of honey.', { message_index: 3 }), score: 0.6 },
      { row: row(4, 'Bruno has kept bees for nine years.', { message_index: 4 }), score: 0.5 },
    ];
    // "3 hives" is not a time: the fourth memory's "nine years" answers "how long".
    expect(answerOffline(recalled, false, 'How long has Bruno kept bees?').answer).toBe('Nine years.');
    // "how many hives" is answered with the hives counted, not the jars.
    expect(answerOffline(recalled, false, 'How many hives does Bruno keep?').answer).toBe('3 hives.');
    expect(countsAsked('How many hives does Bruno keep?', 'two jars')).toBe(false);
    expect(countsAsked('How many times did Bruno move the hives?', 'twice')).toBe(true);
    expect(countsAsked('How often does Bruno check the hives?', 'two jars')).toBe(false);
  });

  it('does not read an ordinal or a written date as a count', () => {
    const reply = answerOffline(
      [{ row: row(1, 'Bruno entered his fourth kite contest on 3 May 2023.'), score: 0.8 }],
      false,
      'How many kite contests has Bruno entered?',
    );
    expect(reply.answer).not.toMatch(/^(?:Four|3)\b/u);
  });
});
