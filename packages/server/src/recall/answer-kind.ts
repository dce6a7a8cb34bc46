import { stemmer } from 'stemmer';
import { typeOfName } from '../learn/name-types.js';
import type { MemoryRow } from '../store/memory-repository.js';
import { lexiconTags } from '../text/lexicon.js';
import { askedWord, personNamed, withoutDates } from './answer-span.js';

/**
 * The kind of answer some questions can only be answered with, for the judgement whether
 * anything is known (search.ts): a memory that shares the question's words but holds no answer
 * of that kind does not answer it. "How much did I pay for the car?" is not answered by "The user
 * bought a green car." however well the words match; "What is the landlord's name?" is not
 * answered by "The landlord fixed the boiler." These are in-domain questions (every word
 * but the answer is stored), which word weights alone cannot tell from answerable ones.
 *
 * - `amount`: "How much…" and "How old…" want a number (or a decade of age: "in his thirties").
 * - `name`: "What is X's name?", "What is X called?", and "Which city / band / airline…": kinds
 *   of thing known by a name, which a memory gives as one (see NAME_KINDS).
 * - `score`: "What score / grade / mark did X get?" wants a result: a number, an ordinal ("fourth
 *   grade") or a grade ("an A", "B+", "V4") the question does not say itself.
 */
export type AnswerKind = 'amount' | 'name' | 'score';

/** Words a question asks a result by ("What score did…", "What grade is…"). */
const SCORE_WORDS = new Set(['score', 'grade', 'mark', 'points']);

/**
 * Kinds of thing a memory names with a proper name when it says which: "Which airline…" is
 * answered by "flying with Aer Lingus", not by "flying on Friday". Kinds often said without a
 * name ("the corner shop", "a beagle", "the beach") are left out: a memory can answer them in
 * plain words.
 */
const NAME_KINDS = new Set(
  'city town country state island language team company brand band artist author singer university college airline hotel'
    .split(' ')
    .map((word) => stemmer(word)),
);

/** The kind of answer a question asks for, when only one kind can answer it; null for any other question. */
export function answerKindAsked(question: string): AnswerKind | null {
  if (/^\s*how\s+(?:much|old)\b/iu.test(question)) return 'amount';
  // "What is the name of…", "What are her cats' names?", "What is Ana's dog called?".
  if (/^\s*(?:what|which)\b.*\bnames?\b/iu.test(question) || /^\s*what\b.*\b(?:called|named)\s*[?.!]*\s*$/iu.test(question)) {
    return 'name';
  }
  const word = askedWord(question);
  if (word !== null && SCORE_WORDS.has(word)) return 'score';
  return word !== null && NAME_KINDS.has(stemmer(word)) ? 'name' : null;
}

const PERSON_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
const PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Place', 'Continent']);
/**
 * Kinds of thing no person's first name names ("Which airline…" is not answered by "Greta").
 * Places are not among them: many a town bears a first name ("Austin", "Florence").
 */
const NOT_PEOPLE = new Set('language team company brand band university college airline hotel'.split(' ').map((word) => stemmer(word)));
/** Kinds of thing no city or country names either ("Which hotel…" is not answered by "Lyon"). */
const NOT_PLACES = new Set('language company brand band airline hotel'.split(' ').map((word) => stemmer(word)));

/**
 * What a name is known as, by itself: "Person", "Place" or "". Compromise's lexicon first; for a
 * name of two words and more, what the learner reads a lone name as (learn/name-types.ts: WordNet's
 * places, place words it ends with, "Douro Valley"; compromise's people, "Marie Curie"). One word
 * the lexicon knows as neither stays unknown ("Florence" is a town and a first name) unless
 * `placesOnly`: the question rules out people and places alike (a hotel's, an airline's name).
 */
function nameKindOf(name: string, placesOnly: boolean): string {
  const tags = lexiconTags(name.toLowerCase());
  if (tags.some((tag) => PERSON_TAGS.has(tag))) return 'Person';
  if (tags.some((tag) => PLACE_TAGS.has(tag))) return 'Place';
  // One word the lexicon does not know as either may be both ("Florence"): it stays unknown,
  // but where the question rules out people and places alike (a hotel's name), a town is no answer.
  if (!placesOnly && !/\s/u.test(name)) return '';
  const type = typeOfName(name);
  return type === 'person' ? 'Person' : type === 'place' ? 'Place' : '';
}

/**
 * The kinds of name (nameKindOf) that cannot answer the question: a place for a name asked of a
 * person, pet or thing ("What is Lotte's teacher called?" is not answered by "lessons in Lyon"), a
 * person for NOT_PEOPLE, a place for NOT_PLACES.
 */
function unfitNames(question: string): string[] {
  const word = askedWord(question);
  const stem = word === null ? null : stemmer(word.toLowerCase());
  if (stem === null || !NAME_KINDS.has(stem)) return ['Place'];
  return [...(NOT_PEOPLE.has(stem) ? ['Person'] : []), ...(NOT_PLACES.has(stem) ? ['Place'] : [])];
}

/**
 * Words for a person known by a relation or a role ("What is Tova's boyfriend called?", "the
 * name of my cello teacher"): their name is never a place's or an organisation's.
 */
const PERSON_ROLES = new Set(
  (
    'mother mom mum father dad parent sister brother sibling son daughter kid child baby husband wife partner spouse ' +
    'boyfriend girlfriend fiance fiancee friend bestie cousin aunt uncle niece nephew grandma grandmother grandpa ' +
    'grandfather colleague coworker boss manager mentor neighbour neighbor roommate flatmate housemate classmate ' +
    'teammate teacher tutor coach doctor dentist therapist physio principal landlord landlady vet trainer nanny ' +
    'babysitter instructor owner'
  )
    .split(' ')
    .map((word) => stemmer(word)),
);
/** Words that end the phrase after "name of" ("the name of the café my sister likes" → "café"). */
const PHRASE_ENDS = new Set('my our your his her their the a an that who which where i we you he she they is was'.split(' '));
const DETERMINERS = new Set('the my our your his her their a an this that'.split(' '));

/** The noun whose name a question asks for ("boyfriend" in "What is Tova's boyfriend called?"), or null. */
export function namedWord(question: string): string | null {
  const plain = question.toLowerCase().replace(/[?.!]+\s*$/u, '');
  const called = /(\p{L}+)\s+(?:called|named)$/u.exec(plain);
  if (called) return called[1]!;
  const owned = /(\p{L}+)(?:['’]s|s['’])\s+names?\b/u.exec(plain);
  if (owned) return owned[1]!;
  const of = /\bnames?\s+of\s+(.+)$/u.exec(plain);
  if (!of) return null;
  let head: string | null = null;
  for (const word of of[1]!.split(/\s+/u)) {
    if (head === null && (DETERMINERS.has(word) || /['’]s$/u.test(word))) continue;
    if (PHRASE_ENDS.has(word) || /['’]s$/u.test(word)) break;
    head = word;
  }
  return head;
}

/** Whether the name a question asks for is a person's, known by a relation or a role (PERSON_ROLES). */
function asksPersonsName(question: string): boolean {
  const word = namedWord(question);
  return word !== null && PERSON_ROLES.has(stemmer(word));
}

/** Number words a memory says an amount or an age with. */
const NUMBER_WORD =
  /\b(?:\d+(?:[.,]\d+)*k?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|dozen|half|couple|few|teens?|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|free)\b/giu;
/** A year written alone ("a 2019 Outback"), which is no amount. */
const YEAR = /^(?:19|20)\d\d$/u;
/** Units a number counts other than money or age ("62,000 miles"): no answer to what something cost. */
const NOT_MONEY =
  /^\s+(?:miles?|km|kilomet(?:re|er)s?|met(?:re|er)s?|feet|foot|inches|steps|laps|reps|sets|pages|words|people|guests|kids|times|minutes?|hours?|days?|weeks?|months?|years?|seconds?)\b/iu;
/** A time of day after its number ("at 7pm", "10:30", "7 o'clock"). */
const CLOCK_AFTER = /^(?:\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)\b|:\d\d)/iu;
/** Words a time of day follows ("gone by 10", "opens at 8", "until 6"). */
const CLOCK_BEFORE = /\b(?:by|at|around|until|till|before|after|since|from)\s+$/iu;
/** Words of money after a number ("at 4 euros each"). */
const MONEY_AFTER = /^\s*(?:euros?|dollars?|bucks|pounds?|quid|pence|cents?|francs?|yen|kr|krona|kronor|€|\$|£)/iu;

/**
 * Whether the number between `before` and `after` is a time of day, not an amount of money: one
 * with "am", "pm", "o'clock" or minutes, or the minutes themselves, or one after a word a time
 * follows ("by 10", "at 8") with no money said around it.
 */
function isClockTime(before: string, after: string): boolean {
  return (
    CLOCK_AFTER.test(after) || /\d:$/u.test(before) || (CLOCK_BEFORE.test(before) && !MONEY_AFTER.test(after) && !/[$€£]\s*$/u.test(before))
  );
}

/** What a "how much" question asks when it asks what something cost. */
const MONEY_ASKED =
  /\b(?:pay|paid|cost|costs|price|spend|spent|earn|earned|charge|charged|rent|salary|owe|worth|budget|save|saved|fee)\b/iu;

/**
 * Whether a memory's text holds an answer of the kind asked: for `amount` a number that is not a
 * date (a year alone, a day of a written date), and, when the question asks what something cost,
 * not a count of another unit; for `name` a name the question does not say (answer-span.ts's
 * personNamed: a run of capitalised words, no month or weekday, no opening word that is not a noun),
 * and of a kind that can answer: `learned` gives what the learner read each of the memory's names as
 * (lower case → "person", "place", "org", "thing"), so that a place is no answer to whose name a
 * person has.
 */
export function holdsAnswerKind(
  kind: AnswerKind,
  question: string,
  text: string,
  learned: ReadonlyMap<string, string> = new Map(),
): boolean {
  if (kind === 'name') {
    const named = personNamed(question, text);
    if (named === null) return false;
    const unfit = unfitNames(question);
    const placesOnly = unfit.includes('Place') && unfit.includes('Person');
    // A person's name is none the learner read as a place or an organisation in its sentence ("moving out of Wexley").
    const person = asksPersonsName(question);
    return named
      .split(', ')
      .some(
        (name) => !unfit.includes(nameKindOf(name, placesOnly)) && !(person && UNFIT_FOR_PERSON.has(learned.get(name.toLowerCase()) ?? '')),
      );
  }
  const plain = withoutDates(text);
  if (kind === 'score') return holdsScore(question, plain);
  const age = /^\s*how\s+old\b/iu.test(question);
  const money = !age && MONEY_ASKED.test(question);
  for (const match of plain.matchAll(NUMBER_WORD)) {
    const number = match[0];
    if (YEAR.test(number)) continue;
    const after = plain.slice(match.index + number.length);
    if (money && (NOT_MONEY.test(after) || isClockTime(plain.slice(0, match.index), after))) continue;
    // An age is a number a life can reach, of years, months, weeks or days when a unit follows.
    if (age && (/[.,]|k$/u.test(number) || Number(number) > MAX_AGE || (NOT_MONEY.test(after) && !AGE_UNIT.test(after)))) continue;
    return true;
  }
  return false;
}

/** What the learner may have read a name as (learn/name-types.ts) that no person's name is. */
const UNFIT_FOR_PERSON = new Set(['place', 'org']);

/** The greatest number read as an age ("Bram is 34"; "Bram pays 980 in rent" gives none). */
const MAX_AGE = 120;
/** Units an age is told in ("nine months old"). */
const AGE_UNIT = /^\s+(?:years?|months?|weeks?|days?)\b/iu;

/** Number words no result is said with ("a few", "half", "free"; "her twenties" is an age). */
const VAGUE_NUMBER = /^(?:half|couple|few|free|dozen|teens?|\p{L}+ies)$/iu;
/** Ordinals a school year or a place in a race is said with ("fourth grade", "3rd"). */
const ORDINAL = /\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)\b/giu;
/** A grade said as a letter ("an A", "a B+") or a letter and a number ("V4", "B2"); an "A" opening a sentence is the article. */
const GRADE = /(?<![\p{L}\d])(?:[A-F][+-]?|[A-Z]\d{1,2}[+-]?)(?![\p{L}\d+-])/gu;

/**
 * Whether a memory's words (dates taken out) hold a result the question does not say: a number
 * that is not a year alone, an ordinal, or a grade (GRADE) not at a sentence's start.
 */
function holdsScore(question: string, plain: string): boolean {
  const said = new Set(question.toLowerCase().match(/[\p{L}\d+-]+/gu) ?? []);
  const fresh = (token: string) => !said.has(token.toLowerCase());
  for (const match of plain.matchAll(NUMBER_WORD)) {
    if (!VAGUE_NUMBER.test(match[0]) && !YEAR.test(match[0]) && fresh(match[0])) return true;
  }
  for (const match of plain.matchAll(ORDINAL)) if (fresh(match[0])) return true;
  for (const match of plain.matchAll(GRADE)) {
    const opensSentence = /(?:^|[.!?]\s+)$/u.test(plain.slice(0, match.index));
    if (!opensSentence && fresh(match[0])) return true;
  }
  return false;
}

/** Whether a loaded memory holds an answer of the kind asked (holdsAnswerKind, with the name types it learned); a memory not loaded holds none. */
export function holdsKind(row: MemoryRow | undefined, kind: AnswerKind, question: string): boolean {
  if (row === undefined) return false;
  const types = row.name_types ?? [];
  const learned = new Map(row.about.flatMap((name, index) => (types[index] ? [[name.toLowerCase(), types[index]] as const] : [])));
  return holdsAnswerKind(kind, question, row.text, learned);
}
