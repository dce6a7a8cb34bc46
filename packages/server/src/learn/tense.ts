import { MONTH_ALTERNATION, WEEKDAY_ALTERNATION } from '../text/calendar.js';
import type { Token } from '../text/tokens.js';
import { SAME_IN_PAST } from './conjugate.js';
import type { Tense } from './dates.js';

const futureMarkers =
  /\b(?:will|won['’]t|gonna|wanna|shall|plan(?:ning|s)? to|about to|tomorrow|next|upcoming|soon|this coming|(?:am|is|are)\s+(?:\w+ly\s+)?going to)\b|(?:I|you|we|they|he|she)['’](?:ll|m going to|re going to)\b/i;

/**
 * The tense of a sentence, which decides where a bare "Friday" or "in March" points: future
 * markers win, then any past-tense verb or auxiliary compromise found, then a verb whose past
 * is its bare form ("quit", "put") read from its subject and the time named; else the present.
 */
export function detectTense(text: string, tokens: readonly Token[]): Tense {
  if (futureMarkers.test(text)) return 'future';
  const words = tokens.filter((token) => token.text !== '' || token.implied !== null);
  const past = words.some(
    (token, index) =>
      (token.tags.has('PastTense') &&
        token.tags.has('Verb') &&
        !token.tags.has('Adjective') &&
        // A participle after a present "be" or "get" is no past: "We are getting married in September".
        !PRESENT_BE_OR_GET.has((words[index - 1]?.implied ?? words[index - 1]?.normal ?? '').toLowerCase())) ||
      // compromise drops the past tag of an auxiliary: "We were renting", "I didn't go", "I used to swim".
      (token.tags.has('Verb') && PAST_AUXILIARIES.has(token.text.toLowerCase().replace(/’/g, "'"))),
  );
  if (past) return 'past';
  return words.some((_token, index) => bareFormIsPast(text, words, index)) ? 'past' : 'present';
}

/** Present forms of "be" and "get" that a participle may follow without making the sentence past. */
const PRESENT_BE_OR_GET = new Set(['am', 'is', 'are', 'be', 'being', 'get', 'gets', 'getting']);

/** Auxiliaries that are past whatever compromise tags them. */
const PAST_AUXILIARIES = new Set(['was', 'were', "wasn't", "weren't", 'did', "didn't", 'had', "hadn't", 'used']);

/**
 * Subjects a present verb takes an -s after: without it, a verb like "quit" can only be past
 * (with the singular nouns, "someone" and "everybody" among them, which the tagger marks).
 */
const THIRD_SINGULAR = new Set(['he', 'she', 'it', 'this', 'that', 'who']);
/** Subjects after which present and past of "quit" look alike. */
const OTHER_PERSONS = new Set(['i', 'we', 'you', 'they']);

/**
 * A time that may lie before the day it was said, named once: "yesterday", "a week ago", "last
 * month", "on Friday", "in March", "on the 12th" (not "on Fridays", not "every Friday").
 */
const ONE_TIME_NAMED = new RegExp(
  `\\b(?:[Yy]esterday|ago|[Ll]ast|[Ee]arlier|[Tt]his (?:morning|afternoon|past)|[Tt]he other day|[Bb]ack in|on the \\d{1,2}(?:st|nd|rd|th))\\b|(?<!\\b(?:[Ee]very|[Ee]ach) )\\b(?:${WEEKDAY_ALTERNATION}|${MONTH_ALTERNATION})\\b`,
);

/**
 * Whether words[index] is a verb whose past is its bare form ("quit", "put", "cut") used in
 * the past. After "he", "she" or a singular noun the present takes an -s, so the bare form is
 * past ("She quit her job"). After "I", "we", "you" or "they" both read alike; a single time
 * named that may be past tips it ("I quit my job on Friday"), while a habit stays present
 * ("I quit on Fridays", "We put the bins out every Monday").
 */
function bareFormIsPast(text: string, words: readonly Token[], index: number): boolean {
  const verb = words[index]!;
  if (!verb.tags.has('Verb') || verb.tags.has('Gerund') || !SAME_IN_PAST.has(verb.text.toLowerCase())) return false;
  let before = index - 1;
  while (before >= 0 && words[before]!.tags.has('Adverb') && !words[before]!.tags.has('Negative')) before--;
  const subject = words[before];
  if (subject === undefined) return false;
  // Only a subject right before it counts: "to quit", "can't quit", "don't quit" are no past.
  const word = (subject.implied ?? subject.text).toLowerCase().replace(/’/g, "'");
  if (THIRD_SINGULAR.has(word)) return true;
  const noun = subject.tags.has('Noun') && !subject.tags.has('Pronoun') && !subject.tags.has('Possessive');
  if (noun && !subject.tags.has('Plural')) return true;
  if (OTHER_PERSONS.has(word) || (noun && subject.tags.has('Plural'))) return ONE_TIME_NAMED.test(text);
  return false;
}
