import * as chrono from 'chrono-node';
import { MONTH_WORDS } from '../text/calendar.js';

/** Words that carry no meaning for recall, beyond Postgres's own English stop words. */
const QUESTION_WORDS = new Set([
  'what',
  'when',
  'where',
  'who',
  'whom',
  'whose',
  'which',
  'why',
  'how',
  'did',
  'does',
  'do',
  'is',
  'are',
  'was',
  'were',
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'on',
  'for',
  'and',
  'or',
  'me',
  'tell',
  'about',
  'know',
  'you',
  'your',
  'has',
  'have',
  'had',
  'can',
  'could',
  'would',
  'should',
  'will',
  'with',
  'at',
  'by',
  'from',
  'it',
  'its',
  'that',
  'this',
  'there',
  'any',
  'some',
  'kind',
  'kinds',
  'type',
  'types',
  's',
  'likely',
  'probably',
  'might',
  'been',
  'be',
  'being',
  'get',
  'got',
  'go',
  'went',
  'one',
  'ones',
  'thing',
  'things',
  'they',
  'their',
  'he',
  'she',
  'his',
  'her',
  'him',
  'them',
  'we',
  'our',
  'us',
  'i',
  'my',
  'was',
  'yet',
  'ever',
  'so',
  'not',
  'considered',
  'think',
  'say',
  'said',
  'mention',
  'mentioned',
  'happen',
  'happens',
  'happened',
  'happening',
  'done',
  'many',
]);

/** Whether the question asks for a time ("When did…", "What year…", "How long ago…"). */
export function asksWhen(question: string): boolean {
  return /\b(?:when|what (?:year|month|day|date|time)|which (?:year|month|day|date)|how long ago|since when)\b/i.test(question);
}

/** The meaningful words of a question, lower-cased, in order, without repeats. */
export function queryTerms(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => !QUESTION_WORDS.has(word) && word.length <= 60))];
}

/** A capitalised word of a question, possibly possessive ("Omar's"). */
const NAME_WORD = /\b\p{Lu}[\p{L}'’-]+/gu;

/** Capitalised words of the question: names the asker expects the memory to be about. */
export function questionNames(question: string): string[] {
  const names = question.match(NAME_WORD) ?? [];
  return [...new Set(names.map((name) => name.replace(/['’]s$/u, '').toLowerCase()))].filter((name) => !QUESTION_WORDS.has(name));
}

/** How the question spells a name it holds in lower case ("vivaldi" → "Vivaldi"). */
export function nameAsWritten(question: string, name: string): string {
  const found = question.match(NAME_WORD)?.find((word) => word.replace(/['’]s$/u, '').toLowerCase() === name);
  return found?.replace(/['’]s$/u, '') ?? name;
}

/** A time the question asks about, relative to when it is asked ("last week", "yesterday"). */
export interface QuestionTime {
  /** The words that said it, to be taken out of the question's words. */
  phrase: string;
  /** The span it means, UTC, end exclusive. */
  start: Date;
  end: Date;
  /** Month names and years the learner would have written for dates in the span ("november", "2026"). */
  words: string[];
}

const DAY_MS = 86_400_000;
/** Phrases that place a time against now; absolute dates ("in May 2023") already match the learner's words. */
const RELATIVE = /\b(?:last|this|next|past|coming|ago|yesterday|today|tonight|tomorrow)\b/i;

const utcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/**
 * The time a question asks about relative to `now`, read by chrono-node, as the span it
 * means: a day ("yesterday"), a week ("last week", "two weeks ago"), a weekend, a month ("next
 * month") or a year ("last year"). Null when the question names no relative time.
 */
export function questionTime(question: string, now: Date): QuestionTime | null {
  const found = chrono.parse(question, now).find((result) => RELATIVE.test(result.text));
  if (!found) return null;
  const text = found.text.toLowerCase();
  const at = found.start.date();
  let start: Date;
  let end: Date;
  if (/\bweekend\b/.test(text)) {
    // The Saturday and Sunday around the day chrono names.
    const day = utcDay(at);
    start = new Date(day.getTime() - ((day.getUTCDay() + 1) % 7) * DAY_MS);
    end = new Date(start.getTime() + 2 * DAY_MS);
  } else if (/\bweeks?\b/.test(text)) {
    // Monday to Sunday, the week of the day chrono names.
    const day = utcDay(at);
    start = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
    end = new Date(start.getTime() + 7 * DAY_MS);
  } else if (found.start.isCertain('day')) {
    start = utcDay(at);
    end = new Date(start.getTime() + DAY_MS);
  } else if (found.start.isCertain('month')) {
    start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
    end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  } else if (found.start.isCertain('year')) {
    start = new Date(Date.UTC(at.getUTCFullYear(), 0, 1));
    end = new Date(Date.UTC(at.getUTCFullYear() + 1, 0, 1));
  } else {
    return null;
  }
  const words = new Set<string>();
  const wholeYear = start.getUTCMonth() === 0 && start.getUTCDate() === 1 && end.getTime() - start.getTime() > 300 * DAY_MS;
  for (let day = start; day < end; day = new Date(day.getTime() + DAY_MS)) {
    if (!wholeYear) words.add(MONTH_WORDS[day.getUTCMonth()]!);
    words.add(String(day.getUTCFullYear()));
  }
  return { phrase: found.text, start, end, words: [...words] };
}
