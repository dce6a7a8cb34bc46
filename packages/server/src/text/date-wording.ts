import { MONTH_ALTERNATION, MONTH_NAMES, WEEKDAY_ALTERNATION, WEEKDAY_NAMES } from './calendar.js';

/**
 * How an absolute date is written into a memory's text: the learner writes every date it
 * resolves in one of these shapes, and recall and the health check read them back. This is
 * the contract between them; a new shape is added here, on both sides at once.
 *
 * - `day`: "7 May 2023", or with its weekday "Sunday 7 May 2023";
 * - `month`: "May 2023";
 * - `year`: "2023" (after "in", "since", "before" or "after");
 * - `around`: a day with what places the date near it: "the week of 7 May 2023", "the weekend
 *   of …", "the morning of …", "two weeks before …", "early May 2023".
 */
export type DateWording =
  | { shape: 'day'; day: Date; weekday: boolean }
  | { shape: 'month'; day: Date }
  | { shape: 'year'; year: number }
  | { shape: 'around'; qualifier: string; day: Date };

/** A day as the learner writes it: "7 May 2023", with its weekday "Sunday 7 May 2023" (UTC). */
export function formatDay(day: Date, withWeekday: boolean): string {
  const text = `${day.getUTCDate()} ${MONTH_NAMES[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
  return withWeekday ? `${WEEKDAY_NAMES[day.getUTCDay()]} ${text}` : text;
}

/** A month as the learner writes it: "May 2023" (UTC). */
export function formatMonth(day: Date): string {
  return `${MONTH_NAMES[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}

/** Writes a date in its declared shape. */
export function writeDate(wording: DateWording): string {
  switch (wording.shape) {
    case 'day':
      return formatDay(wording.day, wording.weekday);
    case 'month':
      return formatMonth(wording.day);
    case 'year':
      return String(wording.year);
    case 'around':
      return `${wording.qualifier} ${formatDay(wording.day, false)}`;
  }
}

/** What may stand before a written day or month and belongs to the date ("the week of", "two weeks before", "early", "Monday,"). */
const QUALIFIER = `(?:the (?:week|weekend|month|day|year)s? (?:before|after|of) |(?:a few|two|three|several) (?:days|weeks|months|years) (?:before|after) |(?:early|mid|late) |the (?:night|morning|evening|afternoon) of |(?:${WEEKDAY_ALTERNATION}),? )`;

/**
 * Any date written in a `DateWording` shape, with what qualifies it ("the week of 7 May 2023",
 * "May 2023", "in 2023"); case-insensitive, so a memory's own capitalised words match.
 */
export const DATE_WORDING = new RegExp(
  `\\b(?:${QUALIFIER}?(?:\\d{1,2} )?(?:${MONTH_ALTERNATION}) \\d{4}|(?:in |since |before |after )?(?:19|20)\\d{2})\\b`,
  'i',
);

/** The first written date of a text (see DATE_WORDING), or null. */
export function dateWordingIn(text: string): string | null {
  return DATE_WORDING.exec(text)?.[0] ?? null;
}

/**
 * A day or month written as the learner writes them, after an optional preposition
 * ("on Sunday 7 May 2023", "in May 2023"); group 1 is the date alone. Case-sensitive.
 */
export const DAY_OR_MONTH_WORDING = new RegExp(
  `\\s*\\b(?:on |in |by |since |until |before |after )?((?:(?:${WEEKDAY_ALTERNATION}) )?(?:\\d{1,2} )?(?:${MONTH_ALTERNATION}) \\d{4})\\b`,
  'u',
);
