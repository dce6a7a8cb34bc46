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

/** Weekdays as people shorten them ("last Fri", "last Tues"), Sunday first as `Date.getUTCDay` counts. */
const WEEKDAY_SHORT = [['sun'], ['mon'], ['tue', 'tues'], ['wed', 'weds'], ['thu', 'thur', 'thurs'], ['fri'], ['sat']];
/** How many, in a time counted from the day it was said ("two weeks ago"). */
const SAID_COUNT = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|couple of|several|\\d+)';
/**
 * A time said relative to the day it was said: "last Friday", "this past weekend", "next week"
 * (group 1 which way, group 2 the unit), or "two weeks ago", "in three days from now" (group 3 how
 * many, group 4 the unit, group 5 which way). ("Three days later" counts from what the sentence
 * tells, not from the day it was said.)
 */
const SAID_RELATIVE = new RegExp(
  `\\b(?:(last|this past|past|previous|next|this coming|coming) (weekend|week|${WEEKDAY_ALTERNATION}|${WEEKDAY_SHORT.flat().join('|')})` +
    `|(${SAID_COUNT}) (days?|weeks?|weekends?|months?|years?) (ago|from now))\\b`,
  'gi',
);
const WRITTEN_DAY = `(?:(${WEEKDAY_ALTERNATION}) )?(\\d{1,2}) (${MONTH_ALTERNATION}) (\\d{4})`;
const dayInMilliseconds = 86_400_000;

/** The day a WRITTEN_DAY match names from its day, month and year groups. */
function writtenDay(day: string, month: string, year: string): Date {
  return new Date(Date.UTC(Number(year), MONTH_NAMES.indexOf(month as (typeof MONTH_NAMES)[number]), Number(day)));
}

/** The first day of the month or year a counted date's match names when it names no day, else the day itself. */
function startOfPeriod(said: Date, candidate: RegExpMatchArray): Date {
  if (candidate[9] !== undefined) return new Date(Date.UTC(said.getUTCFullYear(), said.getUTCMonth(), 1));
  if (candidate[11] !== undefined) return new Date(Date.UTC(said.getUTCFullYear(), 0, 1));
  return said;
}

/** The weekday (0 = Sunday) a word names, full or shortened, or -1. */
function weekdayNamed(word: string): number {
  const lower = word.toLowerCase();
  return WEEKDAY_NAMES.findIndex((name, index) => name.toLowerCase() === lower || WEEKDAY_SHORT[index]!.includes(lower));
}

/**
 * A memory's text with each date the learner resolved from a time said relative to the day it
 * was said (`sentence` said on `saidDay`, YYYY-MM-DD) written as said and anchored to that day,
 * the resolved day kept after it: "On Friday 14 July 2023" from "last Friday" said on 15 July
 * 2023 → "On the Friday before 15 July 2023 (14 July)"; "in the week of 29 May 2023" from "last
 * week" said on 9 June → "in the week before 9 June 2023 (week of 29 May)"; "in April 2023" from "three months
 * ago" → "three months before 15 July 2023 (April)". A reader then has both what the speaker
 * meant and the learner's reading of it, which may be wrong ("last Friday" said on a Saturday
 * may mean the day before or the week before). The text is returned unchanged when the sentence
 * says no such time or the text holds no date resolved from it.
 */
export function withSaidRelation(text: string, sentence: string, saidDay: string): string {
  const said = new Date(`${saidDay}T00:00:00Z`);
  if (Number.isNaN(said.getTime())) return text;
  const anchor = formatDay(said, false);
  const edits: { start: number; end: number; text: string }[] = [];
  const free = (start: number, end: number) => edits.every((edit) => end <= edit.start || edit.end <= start);
  const shortened = (day: Date) =>
    day.getUTCFullYear() === said.getUTCFullYear() ? formatDay(day, false).replace(/ \d{4}$/, '') : formatDay(day, false);
  for (const match of sentence.matchAll(SAID_RELATIVE)) {
    const [, which, unit, count, counted, way] = match;
    const relation = (which ? /next|coming/i.test(which) : !/ago/i.test(way!)) ? 'after' : 'before';
    /** Whether a written day lies on the relation's side of the day it was said, at most `days` from it (a week's Monday may be the day itself). */
    const inDirection = (day: Date, days: number) => {
      const distance = (day.getTime() - said.getTime()) / dayInMilliseconds;
      return relation === 'before' ? distance <= 0 && distance >= -days : distance >= 0 && distance <= days;
    };
    if (unit !== undefined) {
      const weekday = weekdayNamed(unit);
      if (weekday === -1) {
        // "last week" → "the week of 29 May 2023": the week or weekend is named by the relation,
        // the resolved week after it ("the week before 9 June 2023 (week of 29 May)"): a "when"
        // question may be answered with either ("The week before 9 June", "May 2023").
        const named = unit.toLowerCase();
        const written = new RegExp(`\\bthe ${named} of ${WRITTEN_DAY}`, 'giu');
        const found = [...text.matchAll(written)].find(
          (candidate) =>
            inDirection(writtenDay(candidate[2]!, candidate[3]!, candidate[4]!), 14) &&
            free(candidate.index, candidate.index + candidate[0].length),
        );
        if (found) {
          const day = writtenDay(found[2]!, found[3]!, found[4]!);
          edits.push({
            start: found.index,
            end: found.index + found[0].length,
            text: `the ${named} ${relation} ${anchor} (${named} of ${shortened(day)})`,
          });
        }
        continue;
      }
      // "last Friday" → a written day that is that weekday, within two weeks of the day it was said in its direction.
      const found = [...text.matchAll(new RegExp(WRITTEN_DAY, 'gu'))].find((candidate) => {
        const day = writtenDay(candidate[2]!, candidate[3]!, candidate[4]!);
        return day.getUTCDay() === weekday && inDirection(day, 14) && free(candidate.index, candidate.index + candidate[0].length);
      });
      if (found) {
        const day = writtenDay(found[2]!, found[3]!, found[4]!);
        edits.push({
          start: found.index,
          end: found.index + found[0].length,
          text: `the ${WEEKDAY_NAMES[weekday]} ${relation} ${anchor} (${shortened(day)})`,
        });
        continue;
      }
      // Left as said ("last Tues", which the learner does not read): the nearest such weekday in its direction.
      const kept = new RegExp(`\\b${match[0].replace(/\s+/g, '\\s+')}\\b`, 'i').exec(text);
      if (kept && free(kept.index, kept.index + kept[0].length)) {
        const away = relation === 'before' ? (said.getUTCDay() - weekday + 7) % 7 || 7 : -((weekday - said.getUTCDay() + 7) % 7 || 7);
        const day = new Date(said.getTime() - away * dayInMilliseconds);
        edits.push({
          start: kept.index,
          end: kept.index + kept[0].length,
          text: `the ${WEEKDAY_NAMES[weekday]} ${relation} ${anchor} (${shortened(day)})`,
        });
      }
      continue;
    }
    const amount = `${count!.toLowerCase()} ${counted!.toLowerCase()}`;
    // Already written against the day it was said ("a few years before 8 May 2023").
    if (new RegExp(`\\b${amount} (?:before|after)\\b`, 'i').test(text)) continue;
    const written = new RegExp(
      `\\b(?:(?:in|on) )?(?:the (?:week|weekend) of ${WRITTEN_DAY}|${WRITTEN_DAY}|(${MONTH_ALTERNATION}) (\\d{4})|((?:19|20)\\d{2})\\b)`,
      'giu',
    );
    // Only a date on the relation's side of the day it was said (its month or year may hold that day).
    const found = [...text.matchAll(written)].find((candidate) => {
      const day =
        candidate[2] !== undefined
          ? writtenDay(candidate[2], candidate[3]!, candidate[4]!)
          : candidate[6] !== undefined
            ? writtenDay(candidate[6], candidate[7]!, candidate[8]!)
            : candidate[9] !== undefined
              ? writtenDay('1', candidate[9], candidate[10]!)
              : writtenDay('1', 'January', candidate[11]!);
      const side = relation === 'before' ? day <= said : day >= startOfPeriod(said, candidate);
      return side && free(candidate.index, candidate.index + candidate[0].length);
    });
    if (!found) continue;
    const [whole] = found;
    let resolved: string | null = null;
    if (found[2] !== undefined)
      resolved = `${/weekend/i.test(whole) ? 'weekend' : 'week'} of ${shortened(writtenDay(found[2], found[3]!, found[4]!))}`;
    else if (found[6] !== undefined) resolved = shortened(writtenDay(found[6], found[7]!, found[8]!));
    else if (found[9] !== undefined) resolved = found[10] === String(said.getUTCFullYear()) ? found[9] : `${found[9]} ${found[10]}`;
    else if (found[11] !== undefined) resolved = found[11];
    const phrase = `${amount} ${relation} ${anchor}${resolved === null ? '' : ` (${resolved})`}`;
    // "in the week of …", "on 26 June 2023" give way to the counted time, capitalised where the text starts.
    const capital = found.index === 0 && /^\p{Lu}/u.test(whole);
    edits.push({
      start: found.index,
      end: found.index + whole.length,
      text: capital ? phrase.charAt(0).toUpperCase() + phrase.slice(1) : phrase,
    });
  }
  return edits
    .sort((left, right) => right.start - left.start)
    .reduce((result, edit) => result.slice(0, edit.start) + edit.text + result.slice(edit.end), text);
}
