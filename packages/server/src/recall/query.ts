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

/**
 * Words of a question asking what someone says, thinks or feels of something ("What did Omar
 * say about the move?", "How does Ana describe the cabin?"). Its answer is a remark, which the
 * learner writes as what its speaker said ("Ana said it looks cosy.") and ranking otherwise
 * weighs a little lower (REPORTED_WEIGHT).
 */
const VIEW_WORDS =
  /\b(?:think|thinks|thought|say|says|said|describe|describes|described|feel|feels|felt|react|reacted|opinion|attitude|view|views)\b/i;

/** Whether the question asks what someone says, thinks or feels of something (see VIEW_WORDS). */
export function asksView(question: string): boolean {
  return VIEW_WORDS.test(question);
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

/** A time the question asks about: relative to when it is asked ("last week"), or named ("in July 2022"). */
export interface QuestionTime {
  /** The words that said it, to be taken out of the question's words ("" for a named time: its words stay). */
  phrase: string;
  /** The span it means, UTC, end exclusive. */
  start: Date;
  end: Date;
  /** Month names and years the learner would have written for dates in the span ("november", "2026"). */
  words: string[];
}

const DAY_MS = 86_400_000;
/** Phrases that place a time against now. */
const RELATIVE = /\b(?:last|this|next|past|coming|ago|yesterday|today|tonight|tomorrow)\b/i;
/** What a question holds when it may name a time questionTime reads: RELATIVE's words anywhere, or a digit. */
const MAY_NAME_TIME = /\d|last|this|next|past|coming|ago|yesterday|today|tonight|tomorrow/i;

const utcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/**
 * The time a question asks about, read by chrono-node, as the span it means. Relative to `now`:
 * a day ("yesterday"), a week ("last week", "two weeks ago"), a weekend, a month ("next month")
 * or a year ("last year"); its words are taken out of the question. Named with its year: a day
 * ("on 8 May 2023"), a month ("in July 2022"), a year ("in 2021") or a range ("between 11 and 15
 * August 2023"); its words stay in the question (the learner writes them into dated memories),
 * and the span also finds what was said then without saying when. Null when it names neither.
 */
export function questionTime(question: string, now: Date): QuestionTime | null {
  // Every time read below says one of RELATIVE's words or a digit (a year): without either there
  // is none, and chrono's parsers (some 0.6 ms a question) need not run.
  if (!MAY_NAME_TIME.test(question)) return null;
  const results = chrono.parse(question, now);
  const found = results.find((result) => RELATIVE.test(result.text));
  if (!found) return namedTime(results) ?? namedYear(question);
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
  } else {
    const span = spanOf(found.start, at);
    if (span === null) return null;
    ({ start, end } = span);
  }
  return { phrase: found.text, start, end, words: spanWords(start, end) };
}

/**
 * The span of a time chrono read with its year ("July 2022", "8 May 2023"), or of the dates a
 * question names around one ("between August 11 and August 15 2023": the first date takes the
 * year the second says); null when no date has its year.
 */
function namedTime(results: chrono.ParsedResult[]): QuestionTime | null {
  const dated = results.find((result) => result.start.isCertain('year'));
  if (!dated) return null;
  const year = dated.start.get('year')!;
  const spans = results.flatMap((result) =>
    [result.start, result.end].flatMap((components) => {
      if (!components || !(components.isCertain('month') || components.isCertain('year'))) return [];
      const at = components.date();
      const inYear = components.isCertain('year') ? at : new Date(Date.UTC(year, at.getUTCMonth(), at.getUTCDate()));
      const span = spanOf(components, inYear);
      return span ? [span] : [];
    }),
  );
  if (!spans.length) return null;
  const start = new Date(Math.min(...spans.map((span) => span.start.getTime())));
  const end = new Date(Math.max(...spans.map((span) => span.end.getTime())));
  return { phrase: '', start, end, words: spanWords(start, end) };
}

/** A year alone ("in 2021", "during 2019"), which chrono does not read as a date. */
function namedYear(question: string): QuestionTime | null {
  const year = /\b(?:in|during|throughout)\s+((?:19|20)\d{2})\b/i.exec(question)?.[1];
  if (year === undefined) return null;
  const { start, end } = yearSpan(Number(year));
  return { phrase: '', start, end, words: spanWords(start, end) };
}

/** The day, month or year a chrono date names, as far as it is certain. */
function spanOf(components: chrono.ParsedComponents, at: Date): { start: Date; end: Date } | null {
  if (components.isCertain('day')) {
    const start = utcDay(at);
    return { start, end: new Date(start.getTime() + DAY_MS) };
  }
  if (components.isCertain('month')) {
    return {
      start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
      end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
    };
  }
  if (components.isCertain('year')) return yearSpan(at.getUTCFullYear());
  return null;
}

const yearSpan = (year: number) => ({ start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) });

/** Month names and years the learner would have written for dates in a span. */
function spanWords(start: Date, end: Date): string[] {
  const words = new Set<string>();
  const wholeYear = start.getUTCMonth() === 0 && start.getUTCDate() === 1 && end.getTime() - start.getTime() > 300 * DAY_MS;
  for (let day = start; day < end; day = new Date(day.getTime() + DAY_MS)) {
    if (!wholeYear) words.add(MONTH_WORDS[day.getUTCMonth()]!);
    words.add(String(day.getUTCFullYear()));
  }
  return [...words];
}
