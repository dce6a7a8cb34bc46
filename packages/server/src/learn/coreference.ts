import { splitSentences } from '../text/segment.js';
import { tokenize } from '../text/tokens.js';
import { classifyFact } from './classify.js';
import { isLasting } from './lasting.js';
import { nameTypes } from './name-types.js';
import { findNames } from './names.js';
import type { LearnedFact } from './types.js';

/**
 * "My sister Ilse is a dentist. She lives in Graz." The second sentence alone is learned as
 * "The user said she lives in Graz.", which no search for Ilse and no profile of Ilse finds.
 * When a fact opens with "she" or "he" and the fact just before it, from the sentence before in
 * the same message or note, names exactly one person (a name the learner typed as a person, or
 * the speaker's relation: "The user's grandpa"), the pronoun is that person: "Ilse lives in
 * Graz."; and "Her kids are 5 and 7." is "Ilse's kids are 5 and 7.". A name or relation of the
 * other gender, or two people, leave the fact as it was.
 */

export type Gender = 'female' | 'male';

/** Relations that tell a person's gender: "my sister" is "she", "my grandpa" is "he". */
export const FEMALE_RELATIONS = [
  'sister',
  'mother',
  'mom',
  'mum',
  'daughter',
  'wife',
  'girlfriend',
  'grandma',
  'grandmother',
  'granny',
  'aunt',
  'niece',
  'fiancée',
  'fiancee',
  'stepmom',
  'stepmother',
  'stepdaughter',
  'stepsister',
] as const;
export const MALE_RELATIONS = [
  'brother',
  'father',
  'dad',
  'son',
  'husband',
  'boyfriend',
  'grandpa',
  'grandfather',
  'uncle',
  'nephew',
  'fiancé',
  'fiance',
  'stepdad',
  'stepfather',
  'stepson',
  'stepbrother',
] as const;
/** Relations of either gender: "my partner" may be "she" or "he". */
export const EITHER_RELATIONS = [
  'partner',
  'spouse',
  'friend',
  'best friend',
  'boss',
  'manager',
  'colleague',
  'coworker',
  'co-worker',
  'cousin',
  'neighbour',
  'neighbor',
  'roommate',
  'flatmate',
  'teacher',
  'coach',
  'therapist',
  'doctor',
  'kid',
  'child',
  'baby',
  'toddler',
  'mentor',
  'landlord',
  'landlady',
] as const;
/** Words between the owner and the relation: "my little brother", "Priya's late grandma". */
export const RELATION_ADJECTIVES = [
  'new',
  'old',
  'little',
  'older',
  'younger',
  'big',
  'best',
  'oldest',
  'youngest',
  'eldest',
  'late',
  'ex',
] as const;
/** Participles after "she's"/"he's" that make it "has" ("She's been cooking"), not "is". */
export const HAS_PARTICIPLES = [
  'been',
  'got',
  'gotten',
  'had',
  'gone',
  'done',
  'seen',
  'made',
  'taken',
  'given',
  'become',
  'lived',
  'worked',
  'started',
  'moved',
  'finished',
  'left',
  'bought',
  'found',
] as const;

const alternation = (words: readonly string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
const female = new Set<string>(FEMALE_RELATIONS);
const male = new Set<string>(MALE_RELATIONS);
const gendered = alternation([...FEMALE_RELATIONS, ...MALE_RELATIONS]);
/** Every relation word as one alternation for a pattern, longest first ("grandmother" before "grandma"). */
export const RELATION_ALTERNATION = alternation([...FEMALE_RELATIONS, ...MALE_RELATIONS, ...EITHER_RELATIONS]);
/** The words between an owner and a relation (RELATION_ADJECTIVES) as one alternation for a pattern. */
export const RELATION_ADJECTIVE_ALTERNATION = alternation(RELATION_ADJECTIVES);
const hasParticiple = new RegExp(`^(?:(?:just|already|always|never|finally|recently)\\s+)?(?:${alternation(HAS_PARTICIPLES)})\\b`, 'i');

/** What a relation says of the gender of the person it names. */
function genderOfRelation(word: string): Gender | null {
  const lower = word.toLowerCase();
  return female.has(lower) ? 'female' : male.has(lower) ? 'male' : null;
}

/** The patterns of each owner seen, built once: a speaker's messages come one after another. */
const patternsByOwner = new Map<string, ReturnType<typeof buildPatterns>>();

/** The patterns for one owner ("The user", "Priya"). */
function patternsFor(owner: string): ReturnType<typeof buildPatterns> {
  let patterns = patternsByOwner.get(owner);
  if (patterns === undefined) {
    // Speakers' names are few in a process; a bound keeps an import of many people's notes small.
    if (patternsByOwner.size >= 1_000) patternsByOwner.clear();
    patterns = buildPatterns(owner);
    patternsByOwner.set(owner, patterns);
  }
  return patterns;
}

function buildPatterns(owner: string) {
  return {
    // "<owner>'s [adjective] <relation>" at the opening of a fact, not followed by a name ("… sister Ilse").
    relation: new RegExp(
      `^${escape(owner)}['’]s (?:(?:${RELATION_ADJECTIVE_ALTERNATION})(?:\\s+|-(?=\\p{L})))?(${RELATION_ALTERNATION})(?!\\p{L})(?![,-]?\\s*\\p{Lu})`,
      'u',
    ),
    // "She …", "He's …", or a possessive "Her …" / "His …" (not "Her and I …", where it is the subject).
    pronoun: new RegExp(`^(?:${escape(owner)} said )?(?:(she|he)(?:(['’]s)|(['’]ll)|\\s)|(her|his)\\s+(?!(?:and|or)\\b))\\s*(?=\\S)`, 'iu'),
  };
}
type Patterns = ReturnType<typeof patternsFor>;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Who "she" or "he" may be after `previous`: its one person, with their gender when known. */
export interface Referent {
  /** How the fact will name them: "Ilse", "The user's grandpa". */
  text: string;
  /** The name to add to `about`, for a named person. */
  name: string | null;
  gender: Gender | null;
}

/**
 * The one person `previous` names, other than the speaker (`owner`, as facts write them:
 * "The user", "Priya"), or null. `genderOf` tells a name's gender where it can.
 */
export function referentOf(
  previous: LearnedFact,
  owner: string,
  genderOf: (name: string) => Gender | null,
  patterns: Patterns = patternsFor(owner),
): Referent | null {
  const people = previous.about.filter(
    (name, index) => previous.nameTypes?.[index] === 'person' && name.toLowerCase() !== owner.toLowerCase(),
  );
  if (people.length > 1) return null;
  if (people.length === 1) {
    const name = people[0]!;
    // "my brother Dev": the relation tells the gender of a name the tagger does not know.
    const named = new RegExp(`\\b(${gendered})[,\\s]+${escape(name)}(?!\\p{L})`, 'iu').exec(previous.text)?.[1];
    return { text: name, name, gender: genderOf(name) ?? (named === undefined ? null : genderOfRelation(named)) };
  }
  const relation = patterns.relation.exec(previous.text);
  if (relation === null) return null;
  return { text: relation[0], name: null, gender: genderOfRelation(relation[1]!) };
}

/** A fact's pronoun at its opening ("She …", or "<speaker> said she …"), its gender, and the words after it. */
export function leadingPronoun(
  text: string,
  owner: string,
  patterns: Patterns = patternsFor(owner),
): { gender: Gender; rest: string; possessive: boolean } | null {
  const match = patterns.pronoun.exec(text);
  if (match === null) return null;
  const word = (match[1] ?? match[4]!).toLowerCase();
  const gender: Gender = word === 'she' || word === 'her' ? 'female' : 'male';
  let rest = text.slice(match[0].length);
  if (match[3] !== undefined) rest = `will ${rest}`;
  else if (match[2] !== undefined) rest = `${hasParticiple.test(rest) ? 'has' : 'is'} ${rest}`;
  // A fact that is the pronoun alone, or a question back ("he is?"), is not worth naming.
  return rest.split(/\s+/).length >= 2 ? { gender, rest, possessive: match[4] !== undefined } : null;
}

/**
 * Names the person a fact's opening "she" or "he" stands for, from the fact just before it in
 * the same message or note (see the top of this file). Facts are in the order of their
 * sentences; each is changed in place. `owner` is the speaker as facts write them.
 */
export function resolveLeadingPronouns(facts: LearnedFact[], owner: string, genderOf: (name: string) => Gender | null): void {
  if (facts.length < 2) return;
  const patterns = patternsFor(owner);
  for (let index = 1; index < facts.length; index++) {
    const fact = facts[index]!;
    const previous = facts[index - 1]!;
    // The sentence just before, in the same message: not a fact two sentences back, nor an image's caption.
    if (previous.sentence.messageIndex !== fact.sentence.messageIndex || previous.sentence.start >= fact.sentence.start) continue;
    if (previous.sentence.end < fact.sentence.start - 3 || /^\s*\[/.test(previous.sentence.text)) continue;
    const pronoun = leadingPronoun(fact.text, owner, patterns);
    if (pronoun === null) continue;
    const referent = referentOf(previous, owner, genderOf, patterns);
    if (referent === null || (referent.gender !== null && referent.gender !== pronoun.gender)) continue;
    nameReferent(fact, referent, pronoun);
  }
}

/**
 * "Is Tova settling in at school?" — "She loves it, her teacher is great.": a message
 * that opens with "she" or "he" often answers about the one person the message before it ended
 * on. When the last sentence of `before` names exactly one person the conversation has already
 * named as a person (`earlier`: the facts learned from its messages so far), or, when it names
 * none of those, exactly one name that may be a person's in that sentence (a turn saved on its
 * own: "Does Tova have a favourite subject?"), of the pronoun's gender or one not known,
 * the opening fact of `found` names them. Changed in place.
 */
export function resolveReplyPronoun(
  found: LearnedFact[],
  before: string | undefined,
  earlier: readonly LearnedFact[],
  owner: string,
  genderOf: (name: string) => Gender | null,
): void {
  const opening = found[0];
  if (before === undefined || opening === undefined || opening.sentence.start > 3 || opening.sentence.text.startsWith('[')) return;
  const patterns = patternsFor(owner);
  const pronoun = leadingPronoun(opening.text, owner, patterns);
  if (pronoun === null) return;
  const last = lastSentence(before);
  const named = new Map<string, Referent>();
  for (const fact of earlier) {
    fact.about.forEach((name, index) => {
      if (fact.nameTypes?.[index] !== 'person' || name.toLowerCase() === owner.toLowerCase() || named.has(name)) return;
      if (!new RegExp(`(?<!\\p{L})${escape(name)}(?!\\p{L})`, 'u').test(last)) return;
      const relation = new RegExp(`\\b(${gendered})[,\\s]+${escape(name)}(?!\\p{L})`, 'iu').exec(fact.text)?.[1];
      named.set(name, { text: name, name, gender: genderOf(name) ?? (relation === undefined ? null : genderOfRelation(relation)) });
    });
  }
  // Nobody the conversation named yet (a turn saved on its own): the one person the question itself names.
  if (named.size === 0) for (const name of peopleNamedIn(last, owner)) named.set(name, { text: name, name, gender: genderOf(name) });
  if (named.size !== 1) return;
  const referent = [...named.values()][0]!;
  if (referent.gender !== null && referent.gender !== pronoun.gender) return;
  nameReferent(opening, referent, pronoun);
}

/**
 * The names of a sentence that may be people's, the owner's aside: those the learner reads in it
 * (name-types.ts) as neither a place nor an organisation. A question seldom says more of a name
 * than "Does Tova like…", and "she" or "he" in reply to it is a person's.
 */
function peopleNamedIn(sentence: string, owner: string): string[] {
  const tokens = tokenize(sentence);
  const names = findNames(sentence, tokens, 0);
  const types = nameTypes(names, { text: sentence, tokens, start: 0, end: sentence.length, people: [] });
  return names
    .filter((name, index) => (types[index] === 'person' || types[index] === 'thing') && name.toLowerCase() !== owner.toLowerCase())
    .flatMap((name) => name.split(/\s+(?:and|&)\s+/u)); // "Tova and Bram" is two people
}

/** The last sentence of a message (within its last 300 characters): where a question to answer sits. */
function lastSentence(message: string): string {
  return splitSentences(message.trimEnd().slice(-300)).at(-1)?.text ?? '';
}

/** Writes the person a fact's opening pronoun stands for into the fact ("She lives in Graz." → "Ilse lives in Graz."). */
function nameReferent(fact: LearnedFact, referent: Referent, pronoun: { rest: string; possessive: boolean }): void {
  const text = `${referent.text}${pronoun.possessive ? "'s" : ''} ${pronoun.rest}`;
  fact.text = text.charAt(0).toUpperCase() + text.slice(1);
  if (referent.name !== null && !fact.about.includes(referent.name)) {
    fact.about.push(referent.name);
    fact.nameTypes = [...(fact.nameTypes ?? fact.about.slice(0, -1).map(() => 'thing' as const)), 'person'];
  }
  delete fact.reported;
  // "Ilse lives in Graz" no longer speaks of the owner; "The user's grandpa still drives" does, as the fact before it.
  if (referent.name !== null) fact.owner = fact.owner === true && /\bthe user\b/i.test(fact.text);
  if (fact.kind !== 'plan') fact.kind = classifyFact(fact.text);
  fact.lasting = isLasting(fact.text, fact.sentence.text, fact.kind);
}
