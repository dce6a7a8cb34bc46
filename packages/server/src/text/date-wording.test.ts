import { describe, expect, it } from 'vitest';
import { MONTH_NAMES, MONTH_WORDS, WEEKDAY_NAMES } from './calendar.js';
import { DATE_WORDING, DAY_OR_MONTH_WORDING, dateWordingIn, formatDay, formatMonth, writeDate } from './date-wording.js';
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
