import * as chrono from 'chrono-node';
import { MONTH_ALTERNATION, MONTH_WORDS, WEEKDAY_ALTERNATION, WEEKDAY_WORDS } from '../text/calendar.js';
import { formatDay, formatMonth } from '../text/date-wording.js';
import type { Edit } from './types.js';

/** Which way a bare "Friday" or "in March" points: back in past-tense sentences, forward otherwise. */
export type Tense = 'past' | 'present' | 'future';

export interface ResolvedDates {
  /** Replacements of relative expressions by absolute ones, in the sentence's coordinates. */
  edits: Edit[];
  /** The first day of every date the sentence speaks of (relative or absolute), at 00:00 UTC. */
  days: Date[];
}

const dayInMilliseconds = 86_400_000;

/** Words that make a chrono match about time relative to when it was said. */
const relativeWords =
  /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|coming|past|previous|later|earlier|morning|afternoon|evening|night|weekend|weeks?|fortnights?|months?|years?|days?)\b/i;
const monthWord = new RegExp(`\\b(?:${MONTH_ALTERNATION})\\b`);
const weekdayWord = new RegExp(`\\b(?:${WEEKDAY_ALTERNATION})\\b`, 'i');
/** Prepositions our own wording replaces ("in March" -> "in March 2027", "on Friday" -> "on Friday 27 …"). */
const ownPrepositions = new Set(['on', 'in', 'at', 'during', 'over']);
/** Prepositions we keep in front of a bare date ("by Friday" -> "by Friday 27 November 2026"). */
const keptPrepositions = new Set(['by', 'until', 'till', 'since', 'before', 'after', 'from', 'to', 'through', 'of', 'between']);
/** A bare span of time ("three years", "a couple of weeks", "10 days"), no day named. */
const spanOnly =
  /^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|few|several|a couple of|a couple|couple of|some|many|\d+)\s+(?:more\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?|decades?)$/i;
/** Words before a date that make it a duration or a habit, not a point in time: never rewritten. */
const rejectingWords = new Set(['for', 'every', 'each', 'within']);

/** Counts said in words before "fortnight", "weekends ago". */
const COUNTS: Record<string, number> = { a: 1, one: 1, two: 2, 'a couple of': 2, three: 3, four: 4, '2': 2, '3': 3, '4': 4 };

/** The components of a day chrono takes as known. */
function dayComponents(day: Date): { year: number; month: number; day: number } {
  return { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
}

/**
 * chrono's casual English, taught two ways of counting back or ahead that it leaves out:
 * fortnights ("a fortnight ago", "in two fortnights") and a unit two away ("the week before
 * last", "the month after next", "the year before last").
 */
const casual = chrono.casual.clone();
casual.parsers.push(
  {
    pattern: () => /\b(?:(a|one|two|three)\s+fortnights?\s+ago|in\s+(a|one|two|three)\s+fortnights?)\b/i,
    extract: (context, match) => {
      const count = COUNTS[(match[1] ?? match[2])!.toLowerCase()]!;
      const day = addDays(startOfDay(context.refDate), (match[1] === undefined ? 14 : -14) * count);
      return dayComponents(day);
    },
  },
  {
    // "a couple of weeks back" is "a couple of weeks ago", which chrono reads.
    pattern: () =>
      /\b((?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|couple of|several|\d+)\s+(?:days?|weeks?|months?|years?))\s+back\b/i,
    extract: (context, match) => {
      const ago = agoFrom(match[1]!, context.refDate);
      if (ago === undefined) return null;
      const components = context.createParsingComponents();
      for (const unit of ['year', 'month', 'day', 'weekday', 'hour', 'minute'] as const) {
        const value = ago.start.get(unit);
        if (value === null) continue;
        if (ago.start.isCertain(unit)) components.assign(unit, value);
        else components.imply(unit, value);
      }
      return components;
    },
  },
  {
    // "a week on Monday", "two weeks from Friday", "a week from today": weeks after that day.
    pattern: () => new RegExp(`\\b(a|one|two|three)\\s+weeks?\\s+(?:on|from)\\s+(today|tomorrow|${WEEKDAY_ALTERNATION})\\b`, 'i'),
    extract: (context, match) => {
      const today = startOfDay(context.refDate);
      const named = match[2]!.toLowerCase();
      const weekday = WEEKDAY_WORDS.indexOf(named);
      const from = weekday === -1 ? addDays(today, named === 'tomorrow' ? 1 : 0) : pickWeekday(today, weekday, '', today, 'future');
      const day = addDays(from, 7 * COUNTS[match[1]!.toLowerCase()]!);
      return { ...dayComponents(day), ...(weekday === -1 ? {} : { weekday }) };
    },
  },
  {
    // "five years ago today", "three years ago this month": that day or month, so many years back.
    pattern: () => /\b((?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:years?|months?))\s+ago\s+(today|this\s+month)\b/i,
    extract: (context, match) => {
      const ago = agoFrom(match[1]!, context.refDate);
      if (ago === undefined) return null;
      const day = ago.start.date();
      const components = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1 };
      return /^today$/i.test(match[2]!)
        ? { ...components, day: day.getUTCDate() }
        : context.createParsingComponents(components).imply('day', 1);
    },
  },
  {
    // "in April next year": chrono reads the month and the year apart; the year places the month.
    pattern: () => new RegExp(`\\b(?:in\\s+)?(${MONTH_ALTERNATION})\\s+(next|last|this)\\s+year\\b`),
    extract: (context, match) => {
      const shift = match[2] === 'next' ? 1 : match[2] === 'last' ? -1 : 0;
      const month = MONTH_WORDS.indexOf(match[1]!.toLowerCase()) + 1;
      return context.createParsingComponents({ year: context.refDate.getUTCFullYear() + shift, month }).imply('day', 1);
    },
  },
  {
    pattern: () => /\bthe\s+(week|month|year|weekend(?=\s+before))\s+(before\s+last|after\s+next)\b/i,
    extract: (context, match) => {
      const sign = /^before/i.test(match[2]!) ? -1 : 1;
      const today = startOfDay(context.refDate);
      const unit = match[1]!.toLowerCase();
      if (unit === 'weekend') return dayComponents(addDays(lastWeekendOver(today), -7));
      if (unit === 'week') return dayComponents(addDays(today, sign * 14));
      if (unit === 'year') return { year: today.getUTCFullYear() + sign * 2 };
      const month = utcDay(today.getUTCFullYear(), today.getUTCMonth() + 1 + sign * 2, 1);
      return context.createParsingComponents({ year: month.getUTCFullYear(), month: month.getUTCMonth() + 1 }).imply('day', 1);
    },
  },
);

/**
 * Finds dates in a sentence with chrono-node and rewrites the relative ones against the
 * reference time (UTC), at the granularity chrono knows: "yesterday" -> "on 21 November 2026",
 * "next month" -> "in December 2026", "last year" -> "in 2025", "last week" -> "in the week of
 * 9 November 2026". Dates that carry their own year stay as written. chrono's casual parser reads
 * some ordinary words as dates ("Sun", "June" the name, "now", "at 5"), so a match is only kept
 * when it has a digit, a relative word, a full weekday name, or a capitalised month name after
 * a preposition.
 */
export function resolveDates(sentence: string, reference: Date, tenseOf: Tense | ((at: number) => Tense)): ResolvedDates {
  /** The tense that decides the direction of a date said at `at` (the sentence's, or its clause's). */
  const tenseAt = (at: number): Tense => (typeof tenseOf === 'function' ? tenseOf(at) : tenseOf);
  const edits: Edit[] = [];
  const days: Date[] = [];
  const referenceDay = startOfDay(reference);
  // chrono names no day in "the other day" (and reads "night" in "the other night" as tonight):
  // it is a few days before the day it was said.
  for (const match of sentence.matchAll(otherDay)) {
    const start = match.index + match[0].indexOf(match[1]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const weeks = match[2]!.toLowerCase() === 'week';
    days.push(addDays(referenceDay, weeks ? -14 : -3));
    edits.push({ start, end, text: openingAt(`a few ${weeks ? 'weeks' : 'days'} before ${formatDay(referenceDay, false)}`, start) });
  }
  for (const parsed of casual.parse(sentence, { instant: reference, timezone: 0 })) {
    if (partOfName(sentence, parsed) || everyWeek(sentence, parsed)) continue;
    const held = withoutHeldDayPart(sentence, parsed, reference);
    const result = held === null ? null : withoutCountAfterComma(sentence, held, reference);
    if (result === null || overlaps(edits, result.index, result.index + result.text.length)) continue;
    const [first, last] = splitRange(sentence, result, reference);
    const found = readResult(sentence, first, referenceDay, tenseAt(first.index));
    if (found === null) {
      // A habit up to a day ("every Saturday until March"): the habit names no day, its end does.
      const end = last === undefined ? null : readResult(sentence, last, referenceDay, tenseAt(last.index));
      if (end !== null) days.push(end.day);
      if (end?.edit) edits.push(end.edit);
      continue;
    }
    // "My birthday is March 14": a day that comes every year is written without a year, and names no day ahead.
    if (found.edit !== null && annualDay(sentence, first)) {
      edits.push({ ...found.edit, text: found.edit.text.replace(/ \d{4}\b/, '') });
      continue;
    }
    days.push(found.day);
    if (found.edit !== null) edits.push(found.edit);
    // The end of a span is the first such day from its start: "from Friday to Monday".
    const end = last === undefined ? null : readResult(sentence, last, found.day, 'future');
    if (end === null) continue;
    days.push(end.day);
    if (end.edit !== null) edits.push(end.edit);
  }
  // chrono knows no seasons: "last summer" is the summer before the one we are in or nearest.
  for (const match of sentence.matchAll(seasonPhrase)) {
    const start = match.index + match[0].indexOf(match[1]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const season = pickSeason(referenceDay, match[2]!.toLowerCase(), match[1]!.toLowerCase());
    days.push(season.day);
    const before = sentence.slice(0, start);
    // Bare after a preposition ("since summer 2026") or as a subject ("This winter was cold").
    const introduced =
      /\b(?:since|until|till|before|after|from|of|by|during|through)\s+$/i.test(before) ||
      /^\s+(?:will|is|was|has|had|seems|seemed|looks|looked|feels|felt)\b/i.test(sentence.slice(end));
    const text = introduced ? season.name : `in ${season.name}`;
    edits.push({ start, end, text: openingAt(text, start) });
  }
  // "over the summer", "by spring": told in the past, the last season of that name begun; ahead,
  // the next one not over (a deadline's "by" and "until" look ahead). Told in the present it is
  // a habit ("I swim in the summer"), which no date is added to.
  for (const match of sentence.matchAll(bareSeason)) {
    const start = match.index + match[0].indexOf(match[2]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const preposition = match[1]!.toLowerCase();
    // "inspired by autumn": "by" after a participle names what acts, not a deadline.
    if (preposition === 'by' && /[\p{L}](?:ed|en)\s*$/u.test(sentence.slice(0, match.index + match[0].indexOf(match[1]!)))) continue;
    let tense = tenseAt(match.index);
    if (tense === 'present' && /^(?:by|until|till|before)$/.test(preposition)) tense = 'future';
    if (preposition === 'since') tense = 'past';
    if (tense === 'present') continue;
    const season = pickSeason(referenceDay, match[3]!.toLowerCase(), tense === 'past' ? 'begun' : 'not over');
    days.push(season.day);
    edits.push({ start, end, text: season.name });
  }
  // chrono knows no holidays: "since Christmas", "last Halloween", "on New Year's Eve" name the
  // one before or ahead by the words before them or the tense; in the present, a habit ("I love Halloween").
  for (const match of sentence.matchAll(holiday)) {
    const start = match.index + match[0].indexOf(match[1] ?? match[2]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const which = match[1]?.toLowerCase();
    // A holiday as a time: after "last"/"next", a preposition or a verb of spending it, or as a subject;
    // not a word describing a thing ("the Christmas tree", "Halloween costumes").
    const asTime =
      which !== undefined ||
      holidayBefore.test(sentence.slice(0, start)) ||
      (/^\s+(?:was|is|were|will|has|had)\b|^\s*(?:[,.;:!?]|$)/.test(sentence.slice(end)) &&
        !/\b(?:a|an|the|my|our|your|his|her|their)\s+$/i.test(sentence.slice(0, start)));
    if (!asTime) continue;
    let tense = which === undefined ? tenseAt(match.index) : /^(?:last|past)$/.test(which) ? 'past' : 'future';
    if (/\bsince\s+$/i.test(sentence.slice(0, start))) tense = 'past';
    if (tense === 'present') continue;
    const name = match[2]!;
    const [month, dayNumber] = HOLIDAYS[name.toLowerCase().replace(/['’]/g, '').replace(/\s+/g, ' ')]!;
    let day = utcDay(referenceDay.getUTCFullYear(), month, dayNumber);
    if (tense === 'past' && day > referenceDay) day = utcDay(day.getUTCFullYear() - 1, month, dayNumber);
    if (tense !== 'past' && day < referenceDay) day = utcDay(day.getUTCFullYear() + 1, month, dayNumber);
    days.push(day);
    // Opening a clause as a time ("Last Christmas we went skiing"), it takes an "at"; as a subject it stays bare.
    const opening = /(?:^|[,;:])\s*$/.test(sentence.slice(0, start)) && !/^\s+(?:was|is|were|will|has|had)\b/i.test(sentence.slice(end));
    edits.push({ start, end, text: openingAt(`${opening ? 'at ' : ''}${name} ${day.getUTCFullYear()}`, start) });
  }
  // chrono reads no "two weekends ago": the weekend counted back from the last one.
  for (const match of sentence.matchAll(weekendsAgo)) {
    const start = match.index + match[0].indexOf(match[1]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const count = COUNTS[match[1]!.toLowerCase().replace(/\s+/g, ' ')];
    const day = addDays(lastWeekendOver(referenceDay), -7 * ((count ?? 3) - 1));
    days.push(day);
    // "a few weekends ago" names no weekend: it is said against the day it was said, as "a few days ago" is.
    const text =
      count === undefined
        ? `${match[1]!.toLowerCase()} weekends before ${formatDay(referenceDay, false)}`
        : `on the weekend of ${formatDay(day, false)}`;
    edits.push({ start, end, text: openingAt(text, start) });
  }
  // chrono reads no "the start of the month": the early part of the month or year it was said in.
  for (const match of sentence.matchAll(startOfPeriod)) {
    const start = match.index + match[0].indexOf(match[1]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const year = match[3]!.toLowerCase() === 'year';
    const day = year
      ? utcDay(referenceDay.getUTCFullYear(), 1, 1)
      : utcDay(referenceDay.getUTCFullYear(), referenceDay.getUTCMonth() + 1, 1);
    days.push(day);
    const period = year ? String(day.getUTCFullYear()) : formatMonth(day);
    const preposition = match[2]?.toLowerCase();
    const text = preposition === undefined || ownPrepositions.has(preposition) ? `in early ${period}` : `${preposition} early ${period}`;
    edits.push({ start, end, text: openingAt(text, start) });
  }
  // chrono leaves "on the 15th" alone; it means that day of the nearest month in the sentence's direction.
  let previous: { end: number; day: Date } | null = null;
  for (const match of sentence.matchAll(dayOfMonth)) {
    const start = match.index + match[0].indexOf(match[1]!);
    const end = match.index + match[0].length;
    if (overlaps(edits, start, end)) continue;
    const preposition = match[1]!.toLowerCase();
    // What is booked for a day, or moved to one, is ahead of it whatever the tense ("I booked the cabin for the 12th").
    const ahead = preposition === 'for' || movedTo(sentence, preposition, start);
    // The end of a span ("for the 12th through the 15th") is the first such day from its start.
    const spanStart: Date | null =
      previous !== null && /^\s*$/.test(sentence.slice(previous.end, start)) && rangeEnd.has(preposition) ? previous.day : null;
    const day: Date | null =
      spanStart !== null
        ? pickMonth(spanStart, Number(match[2]), 'future')
        : pickMonth(referenceDay, Number(match[2]), ahead ? 'future' : tenseAt(match.index));
    if (day === null) continue;
    previous = { end, day };
    days.push(day);
    const text = preposition === 'on' ? `on ${formatDay(day, false)}` : `${match[1]} ${formatDay(day, false)}`;
    edits.push({ start, end, text: openingAt(text, start) });
  }
  return { edits, days };
}

/** A time of day in a date's words: "at 7pm", "at 6", "around 10:30", "7 pm", "at noon". */
const CLOCK =
  /\b(?:at|around|by)\s+(?:noon|midnight)\b|(?:\b(?:at|around|by|from)\s+)?\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)?(?![\d/.:-]|\s*(?:st|nd|rd|th)\b)(?=\s|$)/i;

const weekendsAgo = /(?:^|\s)(a|one|two|a couple of|three|four|[234]|a few|several)\s+weekends?\s+ago\b/gi;

/** The Saturday of the last weekend over: the one before this week's (Monday to Friday), the one before this weekend's on one. */
function lastWeekendOver(referenceDay: Date): Date {
  const weekday = referenceDay.getUTCDay();
  return addDays(referenceDay, weekday === 6 ? -7 : weekday === 0 ? -8 : -(weekday + 1));
}

/** A part of a day after an article or a possessive and up to two words ("an awesome night", "our long morning"). */
const heldDayPart = /^(?:morning|afternoon|evening|night)\b\s*/i;
const heldBefore = /\b(?:a|an|my|our|his|her|their|your)\s+(?:[\p{L}-]+\s+){0,2}$/iu;

/** A day said as the one a yearly thing falls on: "birthday is", "anniversary's", "birthday falls on". */
const annualBefore = /\b(?:birthday|bday|b-day|anniversary|name day)(?:['’]s| is| falls| falls on| is on)\s+(?:on\s+)?(?:the\s+)?$/i;

/** Whether chrono's date is the day and month of something every year ("My birthday is March 14"), said without a year. */
function annualDay(sentence: string, result: chrono.ParsedResult): boolean {
  const components = result.start;
  if (!components.isCertain('day') || !components.isCertain('month') || components.isCertain('year')) return false;
  return annualBefore.test(sentence.slice(0, result.index));
}

/**
 * Casual words of time that ordinary prose writes in lower case mid-sentence: capitalised there
 * ("The Night Ferries", "Morning Glory Cafe", "the Tonight Show") they are part of a name.
 */
export const NAME_TIME_WORDS = [
  'Morning',
  'Afternoon',
  'Evening',
  'Night',
  'Tonight',
  'Weekend',
  'Today',
  'Tomorrow',
  'Yesterday',
] as const;
const capitalTimeWord = new RegExp(`\\b(?:${NAME_TIME_WORDS.join('|')})\\b`, 'u');
/** A weekday or month named as a place: "at Saturday Club", "the Monday Bar" (a capitalised word of a name follows). */
const placeBefore = /\b(?:at|the)\s+$/i;
const nameAfter = new RegExp(`^\\s+(?!(?:${WEEKDAY_ALTERNATION}|${MONTH_ALTERNATION}|I)\\b)\\p{Lu}\\p{Ll}`, 'u');

/**
 * Whether chrono's date is a weekday that comes every week: "on Thursday evenings", "Monday
 * mornings" (a weekday before a plural part of the day). No one day is meant, so none is written.
 */
function everyWeek(sentence: string, result: chrono.ParsedResult): boolean {
  return endsInWeekday.test(result.text) && pluralDayPart.test(sentence.slice(result.index + result.text.length));
}
const endsInWeekday = new RegExp(`(?:${WEEKDAY_ALTERNATION})$`, 'iu');
const pluralDayPart = /^\s+(?:mornings|afternoons|evenings|nights|lunchtimes)\b/iu;

/**
 * Whether chrono's date is part of a capitalised name instead ("Sad news, The Night Ferries broke
 * up", "dinner at Saturday Club"). A sentence in capitals throughout says nothing by its capitals.
 */
function partOfName(sentence: string, result: chrono.ParsedResult): boolean {
  if (!/\p{Ll}/u.test(sentence)) return false;
  const before = sentence.slice(0, result.index);
  const end = result.index + result.text.length;
  const time = capitalTimeWord.exec(result.text);
  if (time !== null) {
    // Not the sentence's first word ("Tonight we fly"), and a name's word: after a capitalised
    // "The" or before another capitalised word ("Monday Morning" is a time, "Friday Night Lights" a name).
    const at = result.index + time.index;
    const opening = !/\S/.test(sentence.slice(0, at).replace(/^\s*["'“‘(]+/u, ''));
    if (!opening && (/\bThe\s+$/.test(sentence.slice(0, at)) || nameAfter.test(sentence.slice(at + time[0].length)))) return true;
  }
  return placeBefore.test(before) && /^\p{Lu}/u.test(result.text) && nameAfter.test(sentence.slice(end));
}

/**
 * "an awesome night", "a lovely morning": a part of a day had, not a time placed (chrono reads
 * "night" as tonight). Null when that is all the match holds; when words after it place a day
 * ("… night yesterday", "… morning on Friday"), chrono's reading of those words alone.
 */
function withoutHeldDayPart(sentence: string, result: chrono.ParsedResult, reference: Date): chrono.ParsedResult | null {
  const part = heldDayPart.exec(result.text);
  if (part === null || !heldBefore.test(sentence.slice(0, result.index))) return result;
  return readAgain(sentence, result.index + part[0].length, result.index + result.text.length, reference);
}

/**
 * chrono reads a number after a comma as the day of the date before it ("hosting Christmas this
 * year, 11 people" → the 11th): the match is read again without it. Null when nothing is left.
 */
function withoutCountAfterComma(sentence: string, result: chrono.ParsedResult, reference: Date): chrono.ParsedResult | null {
  const counted = /,\s*\d{1,3}$/.exec(result.text);
  if (counted === null) return result;
  return readAgain(sentence, result.index, result.index + counted.index, reference);
}

/**
 * A span chrono reads as one result ("from Monday to Thursday") as its two ends, each read on
 * its own, so that both are written; the result alone when an end names no day ("from 3pm to
 * 5pm on Friday").
 */
function splitRange(sentence: string, result: chrono.ParsedResult, reference: Date): [chrono.ParsedResult, chrono.ParsedResult?] {
  if (result.end === null || result.end === undefined) return [result];
  const connector = /\s+(?:to|until|till|through|thru)\s+|\s*[-–]\s*/i.exec(result.text);
  if (connector === null || connector.index === 0) return [result];
  const first = readAgain(sentence, result.index, result.index + connector.index, reference);
  const last = readAgain(sentence, result.index + connector.index + connector[0].length, result.index + result.text.length, reference);
  const namesDay = (part: chrono.ParsedResult | null): part is chrono.ParsedResult =>
    part !== null && ['day', 'weekday', 'month'].some((unit) => part.start.isCertain(unit as chrono.Component));
  return namesDay(first) && namesDay(last) ? [first, last] : [result];
}

/** chrono's first reading of sentence[from, to), its `index` counted from the whole sentence; null when it finds none. */
function readAgain(sentence: string, from: number, to: number, reference: Date): chrono.ParsedResult | null {
  const result = casual.parse(sentence.slice(from, to), { instant: reference, timezone: 0 })[0];
  if (result === undefined) return null;
  // The result's `index` is a plain field (read-only only in chrono's types).
  (result as { index: number }).index = result.index + from;
  return result;
}

/** Whether sentence[start, end) overlaps a part an earlier reading already rewrites. */
function overlaps(edits: readonly Edit[], start: number, end: number): boolean {
  return edits.some((edit) => edit.start < end && start < edit.end);
}

/** chrono's reading of "<span> ago" ("five years", "a couple of weeks") from `reference`. */
function agoFrom(span: string, reference: Date): chrono.ParsedResult | undefined {
  return chrono.casual.parse(`${span} ago`, { instant: reference, timezone: 0 })[0];
}

/** `text` with a capital when it opens the sentence (`start` 0). */
function openingAt(text: string, start: number): string {
  return start === 0 ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

const seasonPhrase = /(?:^|\s)(this|last|next|past|coming)\s+(spring|summer|fall|autumn|winter)\b/gi;
/** Holidays on the same day every year: month and day. */
const HOLIDAYS: Record<string, [number, number]> = {
  christmas: [12, 25],
  'christmas day': [12, 25],
  'christmas eve': [12, 24],
  'boxing day': [12, 26],
  'new years eve': [12, 31],
  'new years day': [1, 1],
  halloween: [10, 31],
  'valentines day': [2, 14],
};
const holidayBefore =
  /(?:^|\s)(?:on|at|for|since|until|till|before|after|over|during|by|from|through|around|spent|spend|spending|celebrated|celebrate|celebrating|hosted|host|hosting)\s+$/i;
const holiday =
  /(?:^|\s)(?:([Ll]ast|[Tt]his|[Nn]ext|[Pp]ast|[Cc]oming)\s+)?(Christmas(?:\s+(?:Eve|Day))?|Boxing\s+Day|New\s+Year['’]?s\s+(?:Eve|Day)|Halloween|Valentine['’]?s\s+Day)\b(?!['’]s|\s+\d)/g;

/** A season named after a preposition with no "this" or "last" ("over the summer"), not a name ("the summer holidays"). */
const bareSeason =
  /(?:^|\s)(over|during|in|through|throughout|since|by|until|till|before|after)\s+((?:the\s+)?(spring|summer|fall|autumn|winter))\b(?!\s*(?:of\b|\d|['’]s|[-–]?\s*(?:semester|term|break|holidays?|vacation|camp|school|job|season|collection|sale|olympics|games|solstice|months?|time|sun|heat|clothes|wardrobe|tyres|tires|coat|jacket|league|programme|program|course|intern\w*)\b))/gi;
/** First month of each season (northern hemisphere; winter starts in December). */
const seasonStart: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 };

/** The season `which` ("last", "next", "this", or for a bare season "begun" and "not over") names, from the day it was said. */
function pickSeason(referenceDay: Date, season: string, which: string): { day: Date; name: string } {
  // seasonPhrase captures only the seasons named here.
  const first = seasonStart[season]!;
  const month = referenceDay.getUTCMonth() + 1;
  // The year in which the season we are in, or the coming one, starts.
  let year = referenceDay.getUTCFullYear();
  if (season === 'winter' && month <= 2) year -= 1;
  const current = utcDay(year, first, 1);
  const currentEnd = utcDay(year, first + 3, 1);
  let start = current;
  if (which === 'last' || which === 'past') start = currentEnd <= referenceDay ? current : utcDay(year - 1, first, 1);
  else if (which === 'next' || which === 'coming') start = current > referenceDay ? current : utcDay(year + 1, first, 1);
  else if (which === 'begun') start = current <= referenceDay ? current : utcDay(year - 1, first, 1);
  else if (which === 'not over') start = currentEnd > referenceDay ? current : utcDay(year + 1, first, 1);
  const startYear = start.getUTCFullYear();
  const name =
    season === 'winter' ? `the winter of ${startYear}–${startYear + 1}` : `${season === 'autumn' ? 'autumn' : season} ${startYear}`;
  return { day: start, name };
}

/**
 * Whether `preposition` at `at` is a "to" (or "from") after a verb that moves something in time: "My exam got
 * postponed to the 30th", "They moved the party from Friday to Sunday". Both days are ahead of
 * the day it was said.
 */
function movedTo(sentence: string, preposition: string | null, at: number): boolean {
  return (preposition === 'to' || preposition === 'from') && rescheduling.test(sentence.slice(0, at));
}
const rescheduling =
  /\b(?:mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|postpon(?:e|es|ed|ing)|reschedul(?:e|es|ed|ing)|delay(?:s|ed|ing)?|bump(?:s|ed|ing)?|chang(?:e|es|ed|ing)|switch(?:es|ed|ing)?|shift(?:s|ed|ing)?|put (?:off|back)|brought forward)\b(?:\s+[\p{L}'’]+){0,4}?\s+$/iu;

const dayOfMonth =
  /(?:^|\s)(on|by|since|until|till|before|after|from|to|for|through)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of|time|century|floor|place|anniversary|birthday|grade|row)\b)/gi;

/** Prepositions that end a span of days begun just before ("from the 3rd to the 6th"). */
const rangeEnd = new Set(['to', 'through', 'until', 'till']);

const otherDay = /(?:^|\s)(the other (day|night|evening|morning|week))\b/gi;
const startOfPeriod =
  /(?:^|\s)((?:(at|in|by|from|since|until|around|towards?)\s+)?the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+(month|year))\b/gi;

/** Day `dayNumber` of this month, or of the month before (past) or after (otherwise) when that is nearer in the sentence's direction. */
function pickMonth(referenceDay: Date, dayNumber: number, tense: Tense): Date | null {
  if (dayNumber < 1 || dayNumber > 31) return null;
  const year = referenceDay.getUTCFullYear();
  const month = referenceDay.getUTCMonth() + 1;
  const today = referenceDay.getUTCDate();
  let offset = 0;
  if (tense === 'past' && dayNumber > today) offset = -1;
  if (tense !== 'past' && dayNumber < today) offset = 1;
  const day = utcDay(year, month + offset, dayNumber);
  // Day 31 of a 30-day month rolls over; such a date was not meant.
  return day.getUTCDate() === dayNumber ? day : null;
}

interface Found {
  day: Date;
  edit: Edit | null;
}

function readResult(sentence: string, result: chrono.ParsedResult, referenceDay: Date, tense: Tense): Found | null {
  let start = result.index;
  // chrono takes a comma after some dates into the match ("over the weekend, she…"): it stays in the sentence.
  const matched = result.text.replace(/[\s,;:]+$/u, '');
  const end = result.index + matched.length;
  let phrase = matched;
  let preposition: string | null = null;
  let prepositionStart = start;

  const inner = /^(on|in|at|during|by|until|till|since|before|after|from|for|within|through)\s+/i.exec(phrase);
  if (inner !== null) {
    preposition = inner[1]!.toLowerCase();
    start += inner[0].length;
    phrase = phrase.slice(inner[0].length);
  } else {
    // "on the 5th of May": the article goes with the date we write.
    // "this past weekend": "this" adds nothing once the weekend is named.
    const redundantThis = /(?:^|\s)this\s+$/i.exec(sentence.slice(0, start));
    if (redundantThis !== null && /^past\b/i.test(phrase)) start = redundantThis.index + redundantThis[0].search(/this/i);
    // chrono reads "this coming Friday" as "Friday": the words before it go with the date, which is ahead.
    const coming = /(?:^|\s)((?:this\s+)?coming)\s+$/i.exec(sentence.slice(0, start));
    if (coming !== null && weekdayWord.test(phrase)) {
      start = coming.index + coming[0].indexOf(coming[1]!);
      tense = 'future';
    }
    const article = /(?:^|\s)the\s+$/i.exec(sentence.slice(0, start));
    if (article !== null) {
      // Without a day number, "the March for Science" is a name, not a date ("the end of March" is one).
      if (!/\d/.test(phrase) && monthWord.test(phrase) && !/^(?:end|start|beginning|middle)\s+of\b/i.test(phrase)) return null;
      // "the next day" counts from something the sentence told, not from when it was said.
      if (/^(?:next|following|previous|prior)\b/i.test(phrase)) return null;
      start = article.index + article[0].search(/the/i);
    }
    const outer = /(?:^|[^\p{L}])(\p{L}+)\s+$/u.exec(sentence.slice(0, start));
    const outerWord = outer?.[1];
    const word = outerWord?.toLowerCase();
    if (
      outer !== null &&
      outerWord !== undefined &&
      word !== undefined &&
      (ownPrepositions.has(word) || keptPrepositions.has(word) || rejectingWords.has(word))
    ) {
      preposition = word;
      prepositionStart = start - outer[0].length + outer[0].indexOf(outerWord);
    }
  }
  // "for three days" is a span, but "for the 3rd of May" and "for Friday" name a day (a booking's, a deadline's).
  const forADay =
    preposition === 'for' &&
    !spanOnly.test(phrase) &&
    !/\b(?:past|last|next|few|couple|several|days|weeks|months|years)\b/i.test(phrase) &&
    (result.start.isCertain('day') || result.start.isCertain('weekday'));
  if (preposition !== null && rejectingWords.has(preposition) && !forADay) return null;
  // What is booked or bought for a day, or moved to one, is ahead of it whatever the tense
  // ("I booked flights for the 3rd of May", "My flight was changed to Thursday").
  if (forADay || movedTo(sentence, preposition, prepositionStart)) tense = 'future';
  // "after three years", "after two months of searching": a span counted from something the
  // sentence tells (being vegetarian, the search), not a date counted from when it was said.
  if (preposition === 'after' && spanOnly.test(phrase)) return null;

  const lower = phrase.toLowerCase();
  // "my last day", "the last night of the trip": the final one of something, not the one before today.
  if (/^last\s+(?:day|night)\b/.test(lower) && /\b(?:my|our|his|her|their|your|its|the)\s+$/i.test(sentence.slice(0, start))) return null;
  // "a quiet weekend", "my weekend" name no weekend in particular; "the weekend" does.
  if (lower === 'weekend' && !/\bthe\s+$/i.test(sentence.slice(0, end - phrase.length))) return null;

  const tags = result.tags();
  if (tags.has('casualReference/now') || /^(?:right )?now$/.test(lower)) return null;
  if (!/\d/.test(phrase) && !relativeWords.test(phrase) && !weekdayWord.test(phrase)) {
    // A bare month name is a date only when capitalised and introduced like one ("in May", not "I may").
    const monthIntroduced = preposition !== null || /\b(?:early|late|mid|end of|beginning of)\s*-?\s*$/i.test(sentence.slice(0, start));
    if (!monthWord.test(phrase) || !monthIntroduced) return null;
  }

  const components = result.start;
  const certainDate = ['year', 'month', 'day', 'weekday'].some((unit) => components.isCertain(unit as chrono.Component));
  const partOfDay = /\b(morning|afternoon|evening|night|tonight)\b/.exec(lower);
  // A time alone ("at 3pm") names no day we could add.
  if (!certainDate && partOfDay === null && !/\b(?:week|weekend)\b/.test(lower)) return null;
  // In the present tense, a part of the day tied to no day is a habit, not a date: "I swim in the
  // morning" ("this morning" is today; chrono knows the day of "last night", "tomorrow evening").
  if (partOfDay !== null && !certainDate && tense === 'present' && !/\bthis\b/.test(lower)) return null;

  const chronoDay = utcDay(
    components.get('year') ?? referenceDay.getUTCFullYear(),
    components.get('month') ?? 1,
    components.get('day') ?? 1,
  );

  // A date with its own year is already absolute: keep the writer's words.
  const fullyWritten = components.isCertain('year') && components.isCertain('month') && components.isCertain('day');
  if (/\b\d{4}\b/.test(phrase) || (fullyWritten && !relativeWords.test(phrase))) {
    return { day: chronoDay, edit: null };
  }

  let bare: string;
  let own: string | null;
  let day: Date;
  const vague = /\b(few|several|couple|some)\b/.test(lower) && /\b(?:days?|weeks?|months?|years?)\b/.exec(lower);
  // "I haven't swum in a few weeks" is a span up to now, not a time ahead.
  if (vague && /^in\b/i.test(result.text) && /\b(?:haven['’]t|hasn['’]t|not|never)\b/i.test(sentence)) return null;
  if (vague) {
    // "a few days ago" names no day; saying so against the reference day is the honest rewrite.
    const direction = /\b(?:ago|back|past|last|previous)\b/.test(lower) ? 'before' : 'after';
    const amount = lower
      .replace(/\b(?:ago|back|in|the|past|last|next|previous)\b/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    bare = `${amount} ${direction} ${formatDay(referenceDay, false)}`;
    own = null;
    day = chronoDay;
  } else if (partOfDay !== null) {
    const part = partOfDay[1] === 'tonight' ? 'night' : partOfDay[1];
    // "on Monday morning" told in the past is the Monday before, as "on Monday" is (chrono looks ahead).
    day =
      components.isCertain('weekday') && !components.isCertain('day')
        ? pickWeekday(referenceDay, components.get('weekday') ?? 0, lower, chronoDay, tense)
        : chronoDay;
    bare = `the ${part} of ${formatDay(day, weekdayWord.test(phrase))}`;
    own = 'on';
  } else if (/\bweekend\b/.test(lower)) {
    // chrono points "last weekend" at its Sunday and "this weekend" at its Saturday; name the Saturday.
    const weekday = chronoDay.getUTCDay();
    day = addDays(chronoDay, weekday === 0 ? -1 : weekday === 6 ? 0 : 6 - weekday);
    // Told in the past ("We went sailing over the weekend", "I painted this weekend" said on a
    // Monday), a weekend chrono places ahead of the day it was said is the one before it.
    if (tense === 'past' && day > referenceDay && !/\b(?:next|coming)\b/.test(lower)) day = addDays(day, -7);
    bare = `the weekend of ${formatDay(day, false)}`;
    own = 'on';
  } else if (/\b(?:weeks?|fortnights?)\b/.test(lower) && !/\bweeks?\s+(?:on|from)\b/.test(lower)) {
    // Weeks start on Monday (ISO 8601).
    const base = components.isCertain('day') ? chronoDay : referenceDay;
    day = addDays(base, -((base.getUTCDay() + 6) % 7));
    bare = `the week of ${formatDay(day, false)}`;
    own = 'in';
  } else if (components.isCertain('day') || components.isCertain('weekday')) {
    day = chronoDay;
    if (!components.isCertain('day')) day = pickWeekday(referenceDay, components.get('weekday') ?? 0, lower, chronoDay, tense);
    else if (!components.isCertain('year')) day = pickYear(referenceDay, day, tense, 'day');
    bare = formatDay(day, weekdayWord.test(phrase));
    own = 'on';
  } else if (components.isCertain('month')) {
    day = components.isCertain('year')
      ? utcDay(chronoDay.getUTCFullYear(), chronoDay.getUTCMonth() + 1, 1)
      : pickYear(referenceDay, utcDay(referenceDay.getUTCFullYear(), components.get('month') ?? 1, 1), tense, 'month');
    bare = formatMonth(day);
    own = 'in';
  } else if (components.isCertain('year')) {
    day = utcDay(components.get('year') ?? referenceDay.getUTCFullYear(), 1, 1);
    bare = String(day.getUTCFullYear());
    own = 'in';
  } else {
    return null;
  }

  // A time of day said with the day stays with it ("on Friday at 7pm" → "on Friday 5 December 2025 at 7pm").
  const clock = components.isCertain('hour') ? CLOCK.exec(phrase) : null;
  // (chrono may take the "at" in front of the day: "at 7am the day after tomorrow".)
  if (clock !== null && partOfDay === null) bare += ` ${/^\d/.test(clock[0].trim()) ? 'at ' : ''}${clock[0].trim()}`;
  // A possessive ("last year's trip"), a subject ("Yesterday was crazy"), a month already placed
  // ("in late January", "mid-December") or the second of a pair ("between Monday and Tuesday") takes the date bare.
  const possessive =
    /^['’]s\b/.test(sentence.slice(end)) ||
    /\b(?:early|mid|late)\s*-?\s*$/i.test(sentence.slice(0, start)) ||
    /\bbetween\s[^,;.!?]*\s(?:and|or)\s+$/i.test(sentence.slice(0, start)) ||
    (preposition === null &&
      /(?:^|[,.;:!?])\s*$/.test(sentence.slice(0, start)) &&
      /^\s+(?:was|is|were|will|has|had|seems|seemed|felt|feels)\b/i.test(sentence.slice(end)));
  // "Tomorrow's going to be a blast": the "'s" is "is" (or "has"), which a written date cannot take.
  const contracted =
    /^['’]s(?=\s+(?:(been|got|gotten)|going|gonna|not|so|really|just|definitely|finally|the|a|an|my|our|here|when)\b)/i.exec(
      sentence.slice(end),
    );
  // "at yesterday's market": the preposition belongs to the market, so it stays before the date.
  const ownsNoun = contracted === null && /^['’]s\b/.test(sentence.slice(end));
  let text: string;
  let editStart: number;
  if (preposition !== null && ownPrepositions.has(preposition) && !ownsNoun) {
    editStart = inner !== null ? result.index : prepositionStart;
    text = own === null || possessive ? bare : `${own} ${bare}`;
  } else {
    editStart = start;
    text = own === null || possessive || preposition !== null ? bare : `${own} ${bare}`;
  }
  let editEnd = end;
  if (contracted !== null) {
    text += contracted[1] === undefined ? ' is' : ' has';
    editEnd = end + contracted[0].length;
  }
  return { day, edit: { start: editStart, end: editEnd, text: openingAt(text, editStart) } };
}

/**
 * A bare weekday points to the nearest one in the sentence's direction, never the day it was
 * said (that day is "today"): "I saw her on Friday" said on a Friday is the Friday before.
 * "last"/"next"/"this" are chrono's.
 */
function pickWeekday(referenceDay: Date, weekday: number, lower: string, chronoDay: Date, tense: Tense): Date {
  if (/\b(?:last|past|previous|next|coming|this)\b/.test(lower)) return chronoDay;
  const current = referenceDay.getUTCDay();
  if (tense === 'past') return addDays(referenceDay, -((current - weekday + 7) % 7 || 7));
  const ahead = (weekday - current + 7) % 7;
  return addDays(referenceDay, ahead === 0 ? 7 : ahead);
}

/** A day or month without a year is the nearest one in the sentence's direction. */
function pickYear(referenceDay: Date, candidate: Date, tense: Tense, unit: 'day' | 'month'): Date {
  const reference = unit === 'day' ? referenceDay : utcDay(referenceDay.getUTCFullYear(), referenceDay.getUTCMonth() + 1, 1);
  const year = candidate.getUTCFullYear();
  const month = candidate.getUTCMonth() + 1;
  const dayOfMonth = candidate.getUTCDate();
  if (tense === 'past' && candidate > reference) return utcDay(year - 1, month, dayOfMonth);
  if (tense !== 'past' && candidate < reference) return utcDay(year + 1, month, dayOfMonth);
  return candidate;
}

export function startOfDay(time: Date): Date {
  return utcDay(time.getUTCFullYear(), time.getUTCMonth() + 1, time.getUTCDate());
}

function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

function addDays(day: Date, count: number): Date {
  return new Date(day.getTime() + count * dayInMilliseconds);
}
