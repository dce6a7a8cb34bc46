import { MONTH_WORDS, WEEKDAY_WORDS } from '../text/calendar.js';
import { lexiconTags } from '../text/lexicon.js';

/**
 * "OMG I GOT THE JOB AT RIVERLINE": a chat message in capitals throughout. The tagger reads
 * every capitalised word as a name, so the sentence was learned as "The user GOT THE JOB AT
 * RIVERLINE." about a person called "GOT THE JOB AT RIVERLINE", which then stood in the
 * profile and the graph. Such a stretch is written in ordinary case before it is read: each
 * word lower-cased, "I" kept, a word with a digit kept ("V4", "5K"), a month, a weekday, a place or a first
 * name compromise knows capitalised, a word the same message writes capitalised elsewhere
 * capitalised, and the stretch's first letter capitalised where a sentence starts. One or two
 * words in capitals ("I work at NASA", "BUT I said no") are left as they are.
 */

/** Words in capitals: letters, digits, apostrophes and hyphens, with at least one capital letter and no small one. */
const SHOUTED_WORD = String.raw`(?=[\p{Lu}\d'’-]*\p{Lu})[\p{Lu}\d'’-]+`;
/** At least three such words in a row, within one line (spaces and punctuation between). */
const shoutedRun = new RegExp(
  `(?<![\\p{L}\\d])${SHOUTED_WORD}(?:[^\\S\\n]*[,!?.…:;&/()"“”-]*[^\\S\\n]+${SHOUTED_WORD}){2,}(?![\\p{L}\\d])`,
  'gu',
);
const shoutedWord = new RegExp(SHOUTED_WORD, 'gu');
/** Compromise's lexicon tags that mark a proper name. */
const NAME_TAGS = new Set([
  'City',
  'Country',
  'Region',
  'Place',
  'FirstName',
  'MaleName',
  'FemaleName',
  'Person',
  'ProperNoun',
  'WeekDay',
  'Month',
]);
/** Months and weekdays are written capitalised ("may" stays a verb: "I MAY GO"). */
const CALENDAR_WORDS = new Set([...MONTH_WORDS.filter((month) => month !== 'may'), ...WEEKDAY_WORDS]);

function isKnownName(word: string): boolean {
  if (CALENDAR_WORDS.has(word)) return true;
  return lexiconTags(word).some((tag) => NAME_TAGS.has(tag));
}

/**
 * `text` with its stretches of three or more words in capitals written in ordinary case, the
 * same length, so that every offset into it still points at the same word.
 */
export function unshout(text: string): string {
  if (!/\p{Lu}[\p{Lu}\d'’-]*[^\S\n]+\p{Lu}[\p{Lu}\d'’-]*[^\S\n]+\p{Lu}/u.test(text)) return text;
  // Words the message writes capitalised in ordinary text ("Riverline" in "at Riverline"): names.
  const capitalised = new Set<string>();
  for (const match of text.matchAll(/(?<![\p{L}\d])\p{Lu}\p{Ll}+/gu)) capitalised.add(match[0].toLowerCase());
  return text.replace(shoutedRun, (run, offset: number) => {
    const cased = run.replace(shoutedWord, (word) => {
      if (/\d/.test(word)) return word;
      const lower = word.toLowerCase();
      if (lower.length !== word.length) return word;
      if (/^i(?:['’](?:m|ll|ve|d))?$/.test(lower)) return `I${lower.slice(1)}`;
      const bare = lower.replace(/['’]s$/, '');
      if (capitalised.has(bare) || isKnownName(bare)) return word.charAt(0) + lower.slice(1);
      return lower;
    });
    // The first word opens a sentence when nothing but an ending mark or a line break comes before it.
    const opens = /(?:^|[.!?…]\s*|\n\s*)$/u.test(text.slice(0, offset));
    return opens ? cased.charAt(0).toUpperCase() + cased.slice(1) : cased;
  });
}
