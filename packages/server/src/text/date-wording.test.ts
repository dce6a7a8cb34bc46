import { describe, expect, it } from 'vitest';
import { MONTH_NAMES, MONTH_WORDS, WEEKDAY_NAMES } from './calendar.js';
import { DATE_WORDING, DAY_OR_MONTH_WORDING, dateWordingIn, formatDay, formatMonth, withSaidRelation, writeDate } from './date-wording.js';
import { levelOfWeights } from './index-levels.js';

const day = new Date(Date.UTC(2031, 2, 9)); // a Sunday

describe('calendar words', () => {
  it('names twelve months and seven weekdays, in the order Date counts them', () => {
    expect(MONTH_NAMES).toHaveLength(12);
    expect(MONTH_NAMES[day.getUTCMonth()]).toBe('March');
    expect(MONTH_WORDS[11]).toBe('december');
    expect(WEEKDAY_NAMES[day.getUTCDay()]).toBe('Sunday');
  });
});

describe('date wording', () => {
  it('writes each declared shape', () => {
    expect(formatDay(day, false)).toBe('9 March 2031');
    expect(formatDay(day, true)).toBe('Sunday 9 March 2031');
    expect(formatMonth(day)).toBe('March 2031');
    expect(writeDate({ shape: 'year', year: 2031 })).toBe('2031');
    expect(writeDate({ shape: 'around', qualifier: 'the week of', day })).toBe('the week of 9 March 2031');
  });

  it('reads back what it writes, with what qualifies it', () => {
    const written = [
      writeDate({ shape: 'day', day, weekday: false }),
      writeDate({ shape: 'day', day, weekday: true }),
      writeDate({ shape: 'month', day }),
      writeDate({ shape: 'around', qualifier: 'the weekend of', day }),
      writeDate({ shape: 'around', qualifier: 'two weeks before', day }),
    ];
    for (const date of written) expect(dateWordingIn(`Pilar moved to Lyon on ${date}.`)).toBe(date);
    expect(dateWordingIn('The kiln was fired in 2029 for the first time.')).toBe('in 2029');
    expect(dateWordingIn('Nothing dated here.')).toBeNull();
    expect(DATE_WORDING.test('the morning of 9 march 2031')).toBe(true);
  });

  it('finds a day or month after its preposition, the date alone in group 1', () => {
    expect(DAY_OR_MONTH_WORDING.exec('Bo visits on Sunday 9 March 2031.')?.[1]).toBe('Sunday 9 March 2031');
    expect(DAY_OR_MONTH_WORDING.exec('Bo visits in March 2031.')?.[1]).toBe('March 2031');
  });
});

describe('index levels', () => {
  it('maps tsvector weights to where a word was found', () => {
    expect(levelOfWeights(undefined)).toBe(3);
    expect(levelOfWeights('A')).toBe(3);
    expect(levelOfWeights('BC')).toBe(3);
    expect(levelOfWeights('CD')).toBe(2);
    expect(levelOfWeights('D')).toBe(1);
  });
});

describe('withSaidRelation', () => {
  // Said on Saturday 12 April 2031.
  const said = '2031-04-12';

  it('writes a weekday said relative to its day as said, anchored to that day, the resolved day after it', () => {
    expect(withSaidRelation('On Friday 11 April 2031 Ines fixed the boat.', 'Last Friday I fixed the boat.', said)).toBe(
      'On the Friday before 12 April 2031 (11 April) Ines fixed the boat.',
    );
    // A shortened weekday, resolved to a day without its name.
    expect(withSaidRelation('Ines fixed the boat on 8 April 2031.', 'I fixed the boat last Tues.', said)).toBe(
      'Ines fixed the boat on the Tuesday before 12 April 2031 (8 April).',
    );
    // A weekday the learner left as said.
    expect(withSaidRelation('Ines joined a rowing club last Weds.', 'I joined a rowing club last Weds.', said)).toBe(
      'Ines joined a rowing club the Wednesday before 12 April 2031 (9 April).',
    );
    expect(withSaidRelation('Ines sails on Monday 14 April 2031.', 'I sail next Monday.', said)).toBe(
      'Ines sails on the Monday after 12 April 2031 (14 April).',
    );
  });

  it('names a week or weekend by its relation to the day it was said, the resolved week after it', () => {
    expect(withSaidRelation('Ines painted the hull in the week of 31 March 2031.', 'I painted the hull last week.', said)).toBe(
      'Ines painted the hull in the week before 12 April 2031 (week of 31 March).',
    );
    expect(withSaidRelation('On the weekend of 5 April 2031 Ines sailed.', 'This past weekend I sailed.', said)).toBe(
      'On the weekend before 12 April 2031 (weekend of 5 April) Ines sailed.',
    );
  });

  it('counts a time from the day it was said, keeping the resolved date', () => {
    expect(withSaidRelation('Ines bought a dinghy in the week of 24 March 2031.', 'I bought a dinghy two weeks ago.', said)).toBe(
      'Ines bought a dinghy two weeks before 12 April 2031 (week of 24 March).',
    );
    expect(withSaidRelation('In January 2031 Ines moved.', 'Three months ago I moved.', said)).toBe(
      'Three months before 12 April 2031 (January) Ines moved.',
    );
    expect(withSaidRelation('Ines learned to sail in 2027.', 'I learned to sail four years ago.', said)).toBe(
      'Ines learned to sail four years before 12 April 2031 (2027).',
    );
  });

  it('leaves a text alone when the sentence said no relative time or the text already says it', () => {
    expect(withSaidRelation('Ines fixed the boat on 3 March 2031.', 'I fixed the boat on 3 March.', said)).toBe(
      'Ines fixed the boat on 3 March 2031.',
    );
    expect(withSaidRelation('Ines got it a few years before 12 April 2031.', 'I got it a few years ago.', said)).toBe(
      'Ines got it a few years before 12 April 2031.',
    );
    // A date on the other side of the day it was said was not resolved from the time said.
    expect(withSaidRelation('Ines will launch the boat on 3 May 2031.', 'Two weeks ago I bought paint for the launch.', said)).toBe(
      'Ines will launch the boat on 3 May 2031.',
    );
    // "Later" counts from what the sentence tells.
    expect(withSaidRelation('Ines sold it on 20 March 2031.', 'Three days later I sold it.', said)).toBe('Ines sold it on 20 March 2031.');
    // A weekday that is not the one said, or too far from the day it was said, was not resolved from it.
    expect(withSaidRelation('Ines fixed the boat on Friday 7 March 2031.', 'Last Friday I fixed the boat.', said)).toBe(
      'Ines fixed the boat on Friday 7 March 2031.',
    );
  });
});
