import { stemmer } from 'stemmer';
import type { MemoryRow } from '../store/memory-repository.js';
import { MONTH_NAMES, WEEKDAY_NAMES, WEEKDAY_WORDS } from '../text/calendar.js';
import { DATE_WORDING, formatDay } from '../text/date-wording.js';
import { DIETS } from '../text/diets.js';
import {
  answerSpan,
  askedWord,
  namedInstance,
  nounPhrase,
  personNamed,
  pointedThing,
  questionKeys,
  restating,
  titleAsked,
  trimSpan,
  withoutDates,
} from './answer-span.js';
import { asksWhen } from './query.js';
import { ATTRIBUTE_WORDS, type Recalled } from './search.js';
import { SUPPORT_SHARE } from './weights.js';

/** What the offline ask answers. */
export interface OfflineAnswer {
  answer: string | null;
  message: string;
  clash: boolean;
}

/** How the offline answer is written. */
export interface OfflineOptions {
  /**
   * A time said relative to its day is answered as said ("the week before 14 March 2024"; the
   * default); false answers with the date the memory's text gives ("the week of 4 March 2024"),
   * as the memory health check, which looks for that date's words, wants.
   */
  asSaid?: boolean;
}

/** At most this many memories make the written answer. */
const MAX_SENTENCES = 2;
/** At most this many make the answer to a question asking for several things ("What activities…"). */
const MAX_LISTED = 4;
/** How far down the recalled memories a question asking for several things looks for answers of the kind asked. */
const LIST_REACH = 6;

const NEGATION =
  /\b(?:not|no|never|none|nothing|nobody|n't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|won't|can't|cannot|stopped|quit)\b/gi;

/** Words that may stand between a memory's subject and what it says of it ("Ana is…", "Ana has…"). */
const LINKING = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'does', 'do', 'did', 'be', 'been', 'being', 's', 'and']);
const NUMBER =
  /\b(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|several|a couple of|twice|once|thrice)\b(?:\s+(?!and\b|or\b)[\p{L}-]+){0,2}/iu;
const COUNT_WORD = String.raw`(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|several|a couple of|twice|once|thrice)\b`;
/**
 * A count or a duration as a memory says it, with its unit and how often ("seven years", "once or
 * twice a year", "a few times a week"); the words after the number stop at a small word.
 */
const COUNT = new RegExp(
  String.raw`\b${COUNT_WORD}(?:\s*(?:or|to|-)\s*${COUNT_WORD})?(?:\s+(?!(?:a|an|the|and|or|that|which|who|now|already|ago|so|but|to|of|in|on|at|for|with|by|from|into|about|after|before|behind|during|over|under|since|until|around|near|this|last|next|is|was|are|were)\b)[\p{L}-]+){0,2}(?:\s+(?:a|per|every|each)\s+(?:day|night|week|weekend|month|year))?`,
  'iu',
);
const PLACE = /\b(?:in|at|to|from|near|around|into)\s+((?:the\s+)?(?:\p{Lu}[\p{L}'-]*)(?:\s+(?:of\s+)?\p{Lu}[\p{L}'-]*)*)/u;
const PLACE_WORDS =
  /\b(?:in|at|to|from|near|around|into)\s+((?:a|an|the|their|her|his|my)(?:\s+(?!(?:on|in|at|with|for|and|to|from|of|by|when|while|last|this|next)\b)[\p{L}-]+){1,3})/u;

/** A time said relative to the day it was said: "last week", "this past weekend", "last Friday", "two weeks ago". */
const RELATIVE_TIME = new RegExp(
  `\\b(?:(?:last|this past|past) (week|weekend|${WEEKDAY_WORDS.join('|')})|(a few|a couple of|two|three|four|five|six|several|\\d+) (days|weeks|weekends|months|years) ago)\\b`,
  'i',
);

/**
 * When a memory's date was said relative to the day it was said, that time as said and anchored to
 * that day ("last week" said on 14 March 2024 → "the week before 14 March 2024", "last Friday" → "the
 * Friday before 14 March 2024"): it keeps what the speaker said rather than the learner's guess at
 * which week or day was meant. Null unless the memory's own date (`written`) was resolved from it
 * ("the week of …" from "last week", a weekday from "last Friday", "… before …", the week, weekend, month
 * or year meant from "… ago").
 */
export function anchoredTime(row: Pick<MemoryRow, 'sentence_text' | 'date'>, written: string): string | null {
  const said = RELATIVE_TIME.exec(row.sentence_text);
  const day = new Date(`${row.date}T00:00:00Z`);
  if (!said || Number.isNaN(day.getTime())) return null;
  const anchor = formatDay(day, false);
  const resolved = written.toLowerCase();
  const [, unit, count, counted] = said;
  if (unit) {
    const weekday = WEEKDAY_WORDS.indexOf(unit.toLowerCase());
    if (weekday === -1) return resolved.includes(`the ${unit.toLowerCase()} of `) ? `the ${unit.toLowerCase()} before ${anchor}` : null;
    return resolved.includes(WEEKDAY_WORDS[weekday]!) ? `the ${WEEKDAY_NAMES[weekday]} before ${anchor}` : null;
  }
  // "two weeks ago" was written as the week it means ("the week of …"), "three months ago" as the month, "a few days ago" as "… before …".
  const single = counted!.toLowerCase().replace(/s$/, '');
  const fromIt = resolved.includes(' before ') || resolved.includes(`the ${single} of `) || single === 'month' || single === 'year';
  return fromIt ? `${count!.toLowerCase()} ${counted!.toLowerCase()} before ${anchor}` : null;
}

/**
 * The date a memory answers "when" with: the time as said when it was relative (see anchoredTime)
 * unless `asSaid` is false, else its written date ("in 2022" → "2022").
 */
export function whenAnswer(row: Pick<MemoryRow, 'text' | 'sentence_text' | 'date'>, asSaid = true): string | null {
  const written = DATE_WORDING.exec(row.text)?.[0];
  if (!written) return null;
  return (asSaid ? anchoredTime(row, written) : null) ?? written.replace(/^in\s+/i, '');
}

/** The question's words as stems, for telling what a memory adds to it. */
function questionStems(question: string): Set<string> {
  return new Set((question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => stemmer(word)));
}

/**
 * What a memory says that the question does not: the memory's words after its opening run of
 * words the question already holds ("What did Ana paint?" and "Ana painted a harbour
 * at dusk." give "a harbour at dusk"). Null when that opening holds no more of the
 * question than a name, when the memory opens with something else (then the whole memory
 * answers), or when it leaves nothing.
 */
export function newPart(question: string, text: string): string | null {
  const stems = questionStems(question);
  const words = [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)];
  let index = 0;
  // Only a run that holds what the question asks about, not just whom ("Ana painted", not "Ana").
  let skippedQuestionWord = false;
  for (; index < words.length; index++) {
    const spelled = words[index]![0];
    const word = spelled.toLowerCase().replace(/['’]s$/u, '');
    if (stems.has(stemmer(word))) skippedQuestionWord ||= !/^\p{Lu}/u.test(spelled);
    else if (!LINKING.has(word)) break;
  }
  if (!skippedQuestionWord || index >= words.length) return null;
  const rest = text
    .slice(words[index]!.index)
    .replace(/\s*[.!?]+$/u, '')
    .trim();
  return rest.length ? rest : null;
}

/** "Ana said (that) …" at the start of a memory: who said it, not what was said. */
const SAID = /^(?:\p{Lu}[\p{L}'’-]*\s+){1,3}said\s+(?:that\s+)?(?=\S)/u;

/**
 * A memory without the speaker's "Ana said (that)" before what was said ("Ana said the tart
 * sold out." → "the tart sold out."): the answer is what was said. Rule "what was said".
 */
export function withoutSaid(text: string): string {
  return text.replace(SAID, '');
}

/** How far down the recalled memories a count of the kind asked is looked for (ask recalls 12). */
const COUNT_REACH = 12;

/** How far down the recalled memories an answer of the kind asked is looked for when the best gives none. */
const TYPED_REACH = 3;

/**
 * How far down a name of the kind asked (a place for "where", a person for "who", a title, a named
 * city) is looked for when none of the first TYPED_REACH gives an answer of the kind asked: a name
 * is seldom a wrong answer of the right kind, a phrase naming the asked noun often is ("same values").
 */
const NAMED_REACH = 5;

/**
 * The answer of the kind the question asks for, when a memory gives one: a name for "who" and
 * for "what is the name of…", a named place for "where", and for "what / which X" a quoted
 * title, a name for a kind of thing known by its name, or the phrase naming X. The answer of this kind from the best memory is not
 * joined by another memory's span of another kind (rule "a typed answer stands alone"); when the
 * best memory gives none, the first of the next two that gives one answers alone (rule "the
 * memory with the kind of answer asked leads").
 */
export function typedAnswer(question: string, memory: string): string | null {
  if (/^\s*(?:who|whom|where)\b/i.test(question)) return namedAnswer(question, memory);
  return namedAnswer(question, memory) ?? nounPhrase(question, withoutSaid(memory));
}

/**
 * The answer of the kind asked when it is a name (see typedAnswer): a person for "who" and "what is
 * the name of…", a named place for "where", a quoted title, a name for a kind of thing known by its
 * name ("Which city…"); not the phrase naming the asked noun.
 */
export function namedAnswer(question: string, memory: string): string | null {
  const text = withoutSaid(memory);
  if (/^\s*(?:who|whom)\b/i.test(question)) return personNamed(question, text);
  if (/^\s*where\b/i.test(question)) return PLACE.exec(withoutDates(text))?.[1] ?? null;
  if (asksName(question)) {
    const named = titleAsked(question, text) ?? personNamed(question, text);
    if (named) return named;
  }
  return titleAsked(question, text) ?? namedInstance(question, text);
}

/**
 * Whether a "what / which" question asks for a name ("What is the name of Ana's dog?", "What are
 * the names of her cats?"): it is answered with the names a memory gives, as "who" is (rule "a
 * name asked for is answered with a name").
 */
export function asksName(question: string): boolean {
  return /^\s*(?:what|which)\b.*\bnames?\b/i.test(question);
}

/**
 * Whether a memory's subject is a person the question names: the first name the memory is about,
 * which is the speaker the learner wrote it of ("Ana said Ben's kite flew well" is Ana's remark,
 * not a memory of Ben).
 */
export function subjectAsked(question: string): (row: Pick<MemoryRow, 'about'>) => boolean {
  const { names } = questionKeys(question);
  return (row) => {
    // Rows built by hand (tests, callers outside the store) may carry no `about`.
    const first = row.about?.[0]?.split(/\s+/u)[0];
    return first !== undefined && names.has(stemmer(first.toLowerCase()));
  };
}

/** The short answer one memory gives to the kind of question asked, or null to answer with the memory. */
export function shortAnswer(question: string, memory: string): string | null {
  const text = withoutSaid(memory);
  const asked = question.toLowerCase();
  if (asksDate(question)) return DATE_WORDING.exec(text)?.[0] ?? null;
  // A written date's day or year is not a count ("3 March 2024" does not answer "how many").
  if (/\bhow (?:many|much|long|old)\b/.test(asked)) return NUMBER.exec(withoutDates(text))?.[0] ?? newPart(question, text);
  if (/^\s*where\b/.test(asked)) {
    // A written date is not a place ("in October 2023").
    const placed = withoutDates(text);
    const place = PLACE.exec(placed)?.[1] ?? PLACE_WORDS.exec(placed)?.[1];
    if (place) return place;
  }
  if (/^\s*(?:who|whom)\b/.test(asked) || asksName(question)) {
    const person = personNamed(question, text);
    if (person) return person;
  }
  return (
    titleAsked(question, text) ??
    namedInstance(question, text) ??
    nounPhrase(question, text) ??
    pointedThing(question, text) ??
    trimSpan(question, answerSpan(question, text)) ??
    newPart(question, text)
  );
}

/**
 * The offline written answer, in the service's words, from the best memories: what the best
 * one says that the question does not (the date for "when", the number for "how many", the
 * place for "where"), joined by what one from another message scoring almost as well adds;
 * for "when", a time said relative to its day as said ("the week before 14 March 2024"), and the
 * day the best memory was said when no memory gives a date;
 * the whole memory where it cannot be cut shorter. Null when nothing stored bears on the
 * question (the same judgement as context). `clash` is true when the memories behind the
 * answer disagree: one says what the other denies, or two current memories give different
 * values to the same slot; then both memories are given whole.
 */
export function answerOffline(recalled: Recalled[], empty: boolean, question: string, options: OfflineOptions = {}): OfflineAnswer {
  if (empty || !recalled.length) {
    return { answer: null, message: 'Nothing stored bears on this question.', clash: false };
  }
  const best = recalled[0]!.score;
  const support = recalled.filter((item) => item.score >= best * SUPPORT_SHARE).slice(0, 5);
  const clash = findClash(support);
  // Each memory's answer of the kind asked, worked out once (it parses the question and the memory).
  const typedAnswers = new Map<Recalled, string | null>();
  const typedOf = (item: Recalled) => {
    if (!typedAnswers.has(item)) typedAnswers.set(item, typedAnswer(question, item.row.text));
    return typedAnswers.get(item)!;
  };

  // When the best memory is of the person asked about, another person's memories (their remarks on
  // it, their own news) give no part of the answer (rule "the asked person's memories answer").
  const ofAsked = subjectAsked(question);
  const keepsToAsked = ofAsked(recalled[0]!.row);
  const mayAnswer = (item: Recalled) => !keepsToAsked || ofAsked(item.row);

  let answer: string | null = null;
  let used: Recalled[] = [];
  if (asksDate(question)) {
    const dated =
      support.find((item) => DATE_WORDING.test(item.row.text)) ?? recalled.slice(0, 3).find((item) => DATE_WORDING.test(item.row.text));
    const said = new Date(`${recalled[0]!.row.date}T00:00:00Z`);
    const yearly = dated ? undefined : [...support, ...recalled.slice(0, 3)].find((item) => DAY_OF_YEAR.test(item.row.text));
    if (dated) {
      // "What year…?" and "Which month…?" name the unit they want: the written date gives it.
      const namesUnit = /\b(?:what|which)\s+(?:year|month|date|day)\b/i.test(question);
      answer = sentence(capitalise(whenAnswer(dated.row, !namesUnit && (options.asSaid ?? true))!));
      used = [dated];
    } else if (yearly) {
      // A day that comes every year, written without one ("The user's birthday is on 14 March").
      answer = sentence(`On ${DAY_OF_YEAR.exec(yearly.row.text)![0]}`);
      used = [yearly];
    } else if (!/^\s*how\b/i.test(question) && !Number.isNaN(said.getTime())) {
      // No memory dates it: the best one's own day (when it was said or written) is the nearest
      // date known, and the answer says that is what it is ("Mentioned on 16 March 2023.").
      answer = sentence(`Mentioned on ${formatDay(said, false)}`);
      used = [recalled[0]!];
    }
  }
  if (answer === null && asksCount(question)) {
    // A count of the kind asked (a time for "how long", how often for "how often", the thing
    // counted for "how many X"): the first recalled memory that gives one answers with it alone
    // (rule "a count answers how many").
    const countOf = (item: Recalled) => COUNT.exec(withoutDates(withoutSaid(item.row.text)))?.[0] ?? null;
    const counted = recalled.slice(0, COUNT_REACH).find((item) => {
      const count = countOf(item);
      return count !== null && countsAsked(question, count);
    });
    if (counted) {
      used = [counted];
      answer = sentence(capitalise(countOf(counted)!));
    }
  }
  if (answer === null && asksYesOrNo(question)) {
    // The best memory says it, or says it did not: yes or no (the memory is in `memories`).
    used = [recalled[0]!];
    answer = negated(recalled[0]!.row.text) ? 'No.' : 'Yes.';
  }
  if (answer === null) {
    // "Where do I work?": the memory that holds the slot's value now answers, the latest said
    // of those recalled, whatever ranks above it (rule "a slot asked is answered by its latest memory").
    const filled = latestInSlot(recalled, question);
    if (filled) {
      used = [filled];
      const value = filled.row.slot?.endsWith('|diet') ? dietKept(filled.row.text) : null;
      answer = sentence(capitalise(value ?? shortAnswer(question, filled.row.text) ?? withoutSaid(filled.row.text)));
    }
  }
  if (answer === null && asksSeveral(question)) {
    // Several things asked for, and several memories give one of the kind asked: each is listed
    // once (rule "a list from the memories that each give one").
    const typed = recalled.slice(0, LIST_REACH).filter((item) => mayAnswer(item) && typedOf(item) !== null);
    if (typed.length >= 2) {
      const seen = new Set<string>();
      const items: string[] = [];
      for (const item of typed) {
        for (const one of typedOf(item)!.split(/,\s*/u)) {
          if (seen.has(one.toLowerCase())) continue;
          seen.add(one.toLowerCase());
          items.push(one);
        }
      }
      used = typed;
      answer = sentence(capitalise(items.join(', ')));
    }
  }
  if (answer === null && typedOf(recalled[0]!) === null) {
    // The best memory gives no answer of the kind asked; one of the next two that does answers alone,
    // else one of the two after them that gives a name of the kind asked (rule "a name asked for is looked for further").
    const typed = recalled.slice(1, TYPED_REACH).find((item) => mayAnswer(item) && typedOf(item) !== null);
    const named = typed
      ? undefined
      : recalled.slice(TYPED_REACH, NAMED_REACH).find((item) => mayAnswer(item) && namedAnswer(question, item.row.text) !== null);
    if (typed) {
      used = [typed];
      answer = sentence(capitalise(typedOf(typed)!));
    } else if (named) {
      used = [named];
      answer = sentence(capitalise(namedAnswer(question, named.row.text)!));
    }
  }
  if (answer === null) {
    used = [recalled[0]!];
    // A question asking for several things is answered from more of the memories that bear on it.
    const most = asksSeveral(question) ? MAX_LISTED : MAX_SENTENCES;
    for (const item of support.slice(1)) {
      if (used.length >= most) break;
      const passage = (row: Recalled['row']) => `${row.source_id}:${row.message_index}`;
      if (!mayAnswer(item) || used.some((chosen) => passage(chosen.row) === passage(item.row))) continue;
      used.push(item);
    }
    let parts = used.map((item) => shortAnswer(question, item.row.text));
    // A typed answer from the best memory (a title, a named thing) is not joined by an untyped span of another.
    if (typedOf(used[0]!) !== null) {
      const keep = used.map((item, index) => index === 0 || typedOf(item) !== null);
      used = used.filter((_, index) => keep[index]);
      parts = parts.filter((_, index) => keep[index]);
    }
    // A short answer from the best memory is not padded with a whole memory that could not be cut.
    if (parts[0] !== null && parts.some((part) => part === null)) {
      used = used.filter((_, index) => parts[index] !== null);
      parts = parts.filter((part) => part !== null);
    }
    // The same short answer from two memories is given once (rule "an answer is not repeated"),
    // and a later span that names only what the best one's names adds nothing (rule "a span that
    // restates the answer").
    const given = new Set<string>();
    // The best span is read once, and only when a later span is to be compared with it.
    let restatesBest: ((later: string) => boolean) | undefined;
    const fresh = parts.map((part, index) => {
      if (part === null) return true;
      const key = part.toLowerCase();
      if (index > 0) restatesBest ??= parts[0] ? restating(parts[0]) : () => false;
      const isNew = !given.has(key) && !(index > 0 && restatesBest!(part));
      given.add(key);
      return isNew;
    });
    used = used.filter((_, index) => fresh[index]);
    parts = parts.filter((_, index) => fresh[index]);
    answer = parts.every((part) => part !== null)
      ? sentence(capitalise(parts.join('; ')))
      : used.map((item, index) => sentence(capitalise(parts[index] ?? withoutSaid(item.row.text)))).join(' ');
  }
  const count = used.length;
  const note = clash ? ' The memories disagree; both are given.' : '';
  return {
    answer: clash
      ? support
          .slice(0, 2)
          .map((item) => sentence(item.row.text))
          .join(' ')
      : answer,
    message: `Answered from ${count} ${count === 1 ? 'memory' : 'memories'} (best match ${best.toFixed(2)}).${note}`,
    clash,
  };
}

/** A day and month written without a year, as the learner writes a birthday ("on 14 March"). */
const DAY_OF_YEAR = new RegExp(`\\b\\d{1,2} (?:${MONTH_NAMES.join('|')})\\b(?! \\d)`, 'u');

/** Words of a question about a slot's value at another time than now ("Where did I live before?"). */
const NOT_NOW = /\b(?:did|was|were|used to|before|previously|formerly|from|first|ever|had|will|going to|next)\b/i;
/** What may follow the slot's word at the end of the question: "Where do I work (now)?", "Which city does Ana live in?". */
const SLOT_WORD_LAST = /^(?:\s+(?:in|at|for|with|now|currently|nowadays|these days|right now))*\s*\??\s*$/i;
/** Slot words a question ends on for other things: "take home", "Where is my house?", "Where am I moving?" (see ATTRIBUTE_WORDS). */
const NOT_SLOT_WORDS = new Set(['home', 'house', 'move', 'moved', 'old', 'age']);

/**
 * The slot a question asks the current value of, and whose: "Where do I work?" → the user's
 * work; "Which city does Ana Lima live in?" → Ana Lima's home (slot keys as learn/slots.ts
 * writes them: "the user|work", "ana lima|home"). The slot's word ends the question; a question
 * about another time, or about someone the asker names by a relation ("my partner's job"), asks
 * none. `subject` is null when the question names no one and says no "I".
 */
export function slotAsked(question: string): { attribute: string; subject: string | null } | null {
  if (!/^\s*(?:where|what|which|who)\b/i.test(question) || NOT_NOW.test(question)) return null;
  let attribute: string | undefined;
  let before = '';
  for (const match of question.matchAll(/[\p{L}']+/gu)) {
    const word = match[0].toLowerCase();
    const found = ATTRIBUTE_WORDS[word];
    if (found === undefined || NOT_SLOT_WORDS.has(word) || !SLOT_WORD_LAST.test(question.slice(match.index + match[0].length))) continue;
    attribute = found;
    before = question.slice(0, match.index);
  }
  if (attribute === undefined) return null;
  if (/\b(?:I|me)\b/.test(before) || /\bmy\s+$/i.test(before)) return { attribute, subject: 'the user' };
  const name = /(?<=\s)\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/u.exec(before)?.[0].replace(/['’]s$/u, '');
  if (name !== undefined) return { attribute, subject: name.toLowerCase() };
  return /\bmy\b/i.test(before) ? null : { attribute, subject: null };
}

const DIET_WORD = new RegExp(`\\b(?:${DIETS.join('|')})\\b`, 'giu');
/** Words before a diet that say it is no longer kept ("now, not vegan", "no longer vegetarian"). */
const DIET_LEFT = /\b(?:not|no longer|n['’]t|stopped being|quit being|gave up being|instead of|used to be|was|were)\s+(?:a\s+|an\s+)?$/i;

/** The diet a memory says is kept ("… is pescatarian now, not vegan" → "pescatarian"), or null. */
export function dietKept(text: string): string | null {
  for (const match of text.matchAll(DIET_WORD)) {
    if (!DIET_LEFT.test(text.slice(0, match.index))) return match[0].toLowerCase();
  }
  return null;
}

/** The recalled memory latest said in the slot the question asks about (see slotAsked), or undefined. */
function latestInSlot(recalled: Recalled[], question: string): Recalled | undefined {
  const asked = slotAsked(question);
  if (asked === null) return undefined;
  const inSlot = recalled.filter((item) => {
    const slot = item.row.slot;
    if (!slot?.endsWith(`|${asked.attribute}`)) return false;
    return asked.subject === null || slot.slice(0, slot.lastIndexOf('|')) === asked.subject;
  });
  // Dates are ISO days, so they compare as text; a later id was learned later.
  return inSlot.reduce<Recalled | undefined>(
    (latest, item) =>
      latest === undefined || item.row.date > latest.row.date || (item.row.date === latest.row.date && item.row.id > latest.row.id)
        ? item
        : latest,
    undefined,
  );
}

/**
 * Whether a question asks for a date: "when" opens it, or it names a date's part ("what year"); a
 * "when" later in a question opening "what / who / how …" only sets the scene ("What does Ana
 * cook when it rains?"). Rule "a 'when' clause is not the question".
 */
export function asksDate(question: string): boolean {
  if (!asksWhen(question)) return false;
  if (/^\s*(?:when|since when)\b/i.test(question) || asksWhen(question.replace(/\bwhen\b/giu, ''))) return true;
  return !/^\s*(?:who|whom|whose|what|which|how|where|why)\b/i.test(question);
}

/**
 * Whether a question asks for several things: the noun it asks for is plural ("What activities…",
 * "Which cities…"), it asks what / which / who are or have been, or it asks for "some", "all",
 * "things" or "ways".
 */
export function asksSeveral(question: string): boolean {
  const word = askedWord(question);
  if (word?.endsWith('s') && !word.endsWith('ss') && stemmer(word) !== word) return true;
  return /^\s*(?:what|which|who)\s+(?:are|were|have|has)\b|\b(?:some|things|ways|all)\b/i.test(question);
}

/** Whether a question asks for a count, a duration or how often ("How many…", "How long…", "How often…"). */
export function asksCount(question: string): boolean {
  return /^\s*how (?:many|much|long|often|old)\b/i.test(question);
}

/** A unit of time, which a count answering "how long" ends with. */
const TIME_UNIT = /\b(?:seconds?|minutes?|hours?|days?|nights?|weeks?|weekends?|months?|years?|decades?)\b/i;
/** Words saying how often, which a count answering "how often" or "how many times" holds. */
const HOW_OFTEN = /\b(?:once|twice|thrice|times?|every|per|a (?:day|night|week|weekend|month|year))\b/i;

/**
 * Whether a count a memory gives is of the kind the question asks: a time for "how long" and "how
 * old" ("nine years"), how often for "how often" and "how many times" ("a few times a week"), and
 * the thing counted for "how many X" ("4 kites" for "How many kites…"). "How much" takes none.
 */
export function countsAsked(question: string, count: string): boolean {
  const asked = /^\s*how (many|much|long|often|old)\b\s*([\p{L}-]+)?/iu.exec(question);
  if (!asked) return false;
  const kind = asked[1]!.toLowerCase();
  if (kind === 'long' || kind === 'old') return TIME_UNIT.test(count);
  if (kind === 'often') return HOW_OFTEN.test(count);
  const noun = asked[2]?.toLowerCase();
  if (kind === 'much' || !noun) return false;
  if (noun === 'times') return HOW_OFTEN.test(count);
  const stem = stemmer(noun);
  return (count.toLowerCase().match(/\p{L}+/gu) ?? []).some((word) => stemmer(word) === stem);
}

/** A question answered yes or no: it opens with a verb ("Did…", "Would…", "Is…") and offers no choice ("… or …"). */
export function asksYesOrNo(question: string): boolean {
  return /^\s*(?:did|does|do|is|are|was|were|would|will|can|could|has|have|had|should)\b/i.test(question) && !/\bor\b/i.test(question);
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function sentence(text: string): string {
  return text.replace(/\s*[.!?]*$/u, '.');
}

/** Whether two memories behind an answer disagree. */
export function findClash(support: Recalled[]): boolean {
  for (let left = 0; left < support.length; left++) {
    for (let right = left + 1; right < support.length; right++) {
      const a = support[left]!.row;
      const b = support[right]!.row;
      if (a.slot && a.slot === b.slot && a.text !== b.text) return true;
      if (negates(a.text, b.text)) return true;
    }
  }
  return false;
}

/** Whether a text says "not" an odd number of times. */
const negated = (text: string) => (text.match(NEGATION)?.length ?? 0) % 2 === 1;

/** "Omar likes coffee" against "Omar does not like coffee": the same words once negations are set aside, one negated. */
function negates(left: string, right: string): boolean {
  if (negated(left) === negated(right)) return false;
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .replace(NEGATION, ' ')
        .match(/[\p{L}\p{N}]+/gu)
        ?.filter((word) => !['does', 'do', 'did', 'is', 'are', 'was', 'were', 'any', 'more', 'longer', 'anymore'].includes(word))
        .map((word) => stemmer(word)) ?? [],
    );
  const a = words(left);
  const b = words(right);
  if (a.size < 2 || a.size !== b.size) return false;
  for (const word of a) if (!b.has(word)) return false;
  return true;
}
