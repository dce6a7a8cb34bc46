import type { Token } from '../text/tokens.js';
import { thirdPerson } from './conjugate.js';
import type { Edit } from './types.js';

/** Who "I" and "you" are in one sentence; null leaves that person as written. */
export interface Persons {
  /** The speaker or writer: "I", "me", "my", "we", "our"… */
  self: string | null;
  /** The one other speaker of a two-person conversation: "you", "your"… */
  other: string | null;
}

export interface SpeakerContext {
  /** compromise's token starting at a position of the sentence, if any. */
  tokenAt: (start: number) => Token | undefined;
  /** Whether the sentence is in the past tense (some verbs look the same in both). */
  past: boolean;
  /** The whole message or note, which tells who "we" are when the sentence does not. */
  surroundings?: string;
}

export interface ResolvedPersons {
  edits: Edit[];
  /** Whether the speaker was named in place of a first-person word. */
  self: boolean;
  /** Whether the other speaker was named in place of a second-person word. */
  other: boolean;
}

export interface Word {
  start: number;
  end: number;
  text: string;
  /** Lower case, with typographic apostrophes made straight. */
  lower: string;
  /** What separates it from the word before (from the sentence start for the first word). */
  gapBefore: string;
}

/** Auxiliaries that come before the subject in a question ("Have I…", "Do you…"). */
const invertedAuxiliaries = new Set(['am', 'are', 'have', 'do', 'were', "don't", "haven't", "aren't", "weren't"]);
const questionOpeners = new Set(['what', 'how', 'why', 'where', 'when', 'who', 'which', 'whom', 'so', 'and', 'but', 'or', 'then', 'well']);
/** Auxiliaries and modals before the subject of a question that need no change ("Did you…", "Can I…"). */
const otherAuxiliaries = new Set([
  'did',
  "didn't",
  'can',
  "can't",
  'could',
  "couldn't",
  'will',
  "won't",
  'would',
  "wouldn't",
  'should',
  "shouldn't",
  'was',
  "wasn't",
  'had',
  "hadn't",
  'shall',
  'may',
  'might',
  'must',
  'is',
  "isn't",
  'has',
  "hasn't",
  'does',
  "doesn't",
]);
/**
 * Words after which "you" starts a clause (so its verb takes the third person: "I think you
 * are right" -> "… Ben is right"). After any other word "you" is an object ("told you").
 */
const clauseOpeners = new Set([
  'and',
  'but',
  'or',
  'so',
  'because',
  'cause',
  'cuz',
  'since',
  'if',
  'when',
  'whenever',
  'while',
  'that',
  'though',
  'although',
  'unless',
  'until',
  'once',
  'as',
  'where',
  'what',
  'how',
  'why',
  'who',
  'which',
  'hope',
  'think',
  'thought',
  'know',
  'knew',
  'guess',
  'bet',
  'believe',
  'feel',
  'felt',
  'said',
  'say',
  'mean',
  'wish',
  'sure',
  'glad',
  'maybe',
  'perhaps',
  'then',
  'now',
  'also',
  'really',
  'just',
  'seems',
  'heard',
  'hear',
  'see',
  'saw',
  'remember',
  'realize',
  'realise',
  'realized',
  'realised',
  'proud',
  'happy',
  'amazing',
  'great',
  'cool',
  'awesome',
  'love',
  'like',
]);
/** Adverbs that may sit between a subject and its verb ("I really love…", "I no longer work…"). */
const adverbs = new Set([
  'no',
  'longer',
  'really',
  'also',
  'just',
  'always',
  'never',
  'still',
  'actually',
  'definitely',
  'totally',
  'usually',
  'often',
  'sometimes',
  'recently',
  'finally',
  'even',
  'already',
  'truly',
  'absolutely',
  'honestly',
  'probably',
  'mostly',
  'only',
  'so',
  'kinda',
  'literally',
  'seriously',
  'genuinely',
  'personally',
  'hardly',
  'ever',
  'rarely',
  'seldom',
  'constantly',
  'generally',
  'normally',
  'mainly',
  'currently',
  'now',
  'sort',
  'kind',
  'of',
  'too',
  'all',
  'both',
  'not',
  'deeply',
  'greatly',
  'especially',
  'certainly',
  'simply',
  'occasionally',
  'regularly',
]);
/** "you" used as a filler or for several people: never one person. */
const leaveYouBefore = new Set(['guys', 'all', 'two', 'both', 'people', 'folks', 'lot', 'too']);
const leaveYouAfter = new Set(['thank', 'see', 'bless', 'miss', 'missed', 'love']);
/** Words that make "we" the speaker's family, or the speaker's team, rather than friends. */
const familyWords =
  /\b(?:family|kids|children|child|sons?|daughters?|husband|wife|partner|spouse|mom|mum|mother|dad|father|parents|brothers?|sisters?|siblings|baby|babies|grandma|grandpa|grandparents|aunt|uncle|cousins?|hubby)\b/i;
/** Phrases that make "we" the two people talking ("since we last chatted"). */
const talkingTogether =
  /\b(?:since|when|(?:the )?last time|after)\s+we\s+(?:last\s+)?(?:chat|chatted|talked|spoke|caught up|met|hung out|texted)\b/i;
/** Words that make "we" a team at work; "company" not as companionship ("each other's company"). */
const workWords = /\b(?:team|colleagues|co-?workers|office|boss|work|project|meeting|clients?)\b|(?<!['’]s\s)\bcompany\b/i;

/**
 * Names the people behind "I" and "you" in a sentence and puts the verb that follows in the
 * third person: "I love hiking" -> "Ana loves hiking", "My sister…" -> "Ana's sister…",
 * "Have you seen…" -> "Has Ben seen…".
 *
 * "we", "us" and "our" have no single name. The rule, chosen to read clearly:
 * - "our" and "ours" become the speaker's possessive ("our dog" -> "Ana's dog");
 * - "we" and "us" become "<speaker> and <other>" when the sentence is about the last time
 *   the two of them talked ("since we last chatted"); else "<speaker>'s family" when the sentence
 *   (or failing that, the message) speaks of family, "<speaker>'s team" when it speaks of
 *   work, else "<speaker> and friends". Verbs stay plural.
 * "myself", "yourself" and "ourselves" become "themselves" (no gender is assumed).
 */
export function resolvePersons(sentence: string, persons: Persons, context: SpeakerContext): ResolvedPersons {
  const edits: Edit[] = [];
  let selfNamed = false;
  let otherNamed = false;
  if (persons.self === null && persons.other === null) return { edits, self: false, other: false };
  const words = splitWords(sentence);
  const handled = new Set<number>();

  const subjectName = (label: string, at: number): string => nameAt(label, at === 0);
  const possessiveName = (label: string, at: number): string => possessive(nameAt(label, at === 0));
  const together = talkingTogether.exec(sentence);
  const togetherAt = together === null ? -1 : together.index + together[0].search(/\bwe\b/i);
  const groupName = (label: string, at: number): string => {
    const surroundings = context.surroundings ?? sentence;
    const name =
      persons.other !== null && at === togetherAt
        ? `${label} and ${persons.other}`
        : familyWords.test(sentence) || (!workWords.test(sentence) && familyWords.test(surroundings))
          ? `${possessive(label)} family`
          : workWords.test(sentence) || workWords.test(surroundings)
            ? `${possessive(label)} team`
            : `${label} and friends`;
    return nameAt(name, at === 0);
  };
  /** Puts the verb after a subject in the third person, past any adverbs in between. */
  const conjugateAfter = (index: number): void => {
    let next = index + 1;
    while (next < words.length && next <= index + 3 && adverbs.has(words[next]!.lower) && adjacent(words, next)) next++;
    const verb = words[next];
    if (verb === undefined || !adjacent(words, next)) return;
    const replacement = thirdPerson(verb.text, { tags: context.tokenAt(verb.start)?.tags, past: context.past });
    if (replacement !== null) {
      edits.push({ start: verb.start, end: verb.end, text: replacement });
      handled.add(next);
    }
  };
  const nextIsPastParticiple = (index: number): boolean => {
    let next = index + 1;
    while (next < words.length && adverbs.has(words[next]!.lower)) next++;
    const following = words[next];
    const tags = following === undefined ? undefined : context.tokenAt(following.start)?.tags;
    return tags !== undefined && (tags.has('Participle') || (tags.has('PastTense') && !tags.has('Infinitive')));
  };
  /** "Have I…" -> "Has Ana…": the auxiliary takes the third person, the main verb stays. */
  const invertBefore = (index: number): boolean => {
    const previous = words[index - 1];
    if (previous === undefined || !adjacent(words, index)) return false;
    // Only an auxiliary that opens a clause asks a question ("Have you…", "What do you…"),
    // not one inside it ("lucky to have you").
    const opensClause = index === 1 || !adjacent(words, index - 1) || questionOpeners.has(words[index - 2]!.lower);
    if (!opensClause) return false;
    if (otherAuxiliaries.has(previous.lower)) return true;
    if (!invertedAuxiliaries.has(previous.lower)) return false;
    if (handled.has(index - 1)) return true;
    const replacement = thirdPerson(previous.text);
    if (replacement !== null) edits.push({ start: previous.start, end: previous.end, text: replacement });
    return true;
  };

  /**
   * "My husband and I love…": a subject shared with someone else keeps the plural verb. It is
   * shared when "and"/"or" joins it to words that hold no verb since the clause began and name
   * someone (a noun): "Oh and I love…" joins it to nothing.
   */
  const sharesSubject = (index: number): boolean => {
    if (index < 2 || !adjacent(words, index)) return false;
    const joiner = words[index - 1]!.lower;
    if (joiner !== 'and' && joiner !== 'or') return false;
    if (!adjacent(words, index - 1)) return false;
    let named = false;
    for (let before = index - 2; before >= 0; before--) {
      const tags = context.tokenAt(words[before]!.start)?.tags;
      if (tags?.has('Verb') === true) return false;
      if (tags?.has('Noun') === true) named = true;
      if (!adjacent(words, before)) return named;
    }
    return named;
  };

  words.forEach((word, index) => {
    if (handled.has(index)) return;
    const self = persons.self;
    const other = persons.other;
    const lower = word.lower;
    const replace = (text: string): void => {
      edits.push({ start: word.start, end: word.end, text });
    };
    if (self !== null) {
      switch (lower) {
        case 'i': {
          selfNamed = true;
          replace(subjectName(self, word.start));
          if (invertBefore(index)) return;
          if (!sharesSubject(index)) conjugateAfter(index);
          return;
        }
        case "i'm":
          selfNamed = true;
          return replace(`${subjectName(self, word.start)} is`);
        case "i've":
          selfNamed = true;
          return replace(`${subjectName(self, word.start)} has`);
        case "i'll":
          selfNamed = true;
          return replace(`${subjectName(self, word.start)} will`);
        case "i'd":
          selfNamed = true;
          return replace(`${subjectName(self, word.start)} ${nextIsPastParticiple(index) ? 'had' : 'would'}`);
        case 'me':
          // "me-time" is a thing, not the speaker.
          if (sentence[word.end] === '-') return;
          selfNamed = true;
          return replace(subjectName(self, word.start));
        case 'my':
        case 'mine':
        case 'our':
        case 'ours':
          selfNamed = true;
          return replace(possessiveName(self, word.start));
        case 'myself':
        case 'ourselves':
          selfNamed = true;
          return replace('themselves');
        case 'we':
        case 'us':
          // "US" in capitals is the country.
          if (word.text === 'US') return;
          selfNamed = true;
          return replace(groupName(self, word.start));
        case "we're":
          selfNamed = true;
          return replace(`${groupName(self, word.start)} are`);
        case "we've":
          selfNamed = true;
          return replace(`${groupName(self, word.start)} have`);
        case "we'll":
          selfNamed = true;
          return replace(`${groupName(self, word.start)} will`);
        case "we'd":
          selfNamed = true;
          return replace(`${groupName(self, word.start)} ${nextIsPastParticiple(index) ? 'had' : 'would'}`);
      }
    }
    if (other !== null) {
      switch (lower) {
        case 'you': {
          const next = words[index + 1];
          const previous = index > 0 && adjacent(words, index) ? words[index - 1]! : null;
          if (next !== undefined && adjacent(words, index + 1) && leaveYouBefore.has(next.lower)) return;
          if (previous !== null && leaveYouAfter.has(previous.lower)) return;
          // "you know" and "you see" as fillers, before a pause or at the end ("I'll let you know." is not one).
          const filler = previous === null || !['let', 'lets', 'letting'].includes(previous.lower);
          if (
            filler &&
            next !== undefined &&
            (next.lower === 'know' || next.lower === 'see') &&
            /^\s*(?:[,.!?…]|$)/.test(sentence.slice(next.end))
          )
            return;
          otherNamed = true;
          replace(subjectName(other, word.start));
          if (invertBefore(index)) return;
          // After a preposition or a verb "you" is an object ("for you", "told you"); after a
          // noun it opens a clause ("the people you work with").
          const previousTags = previous === null ? undefined : context.tokenAt(previous.start)?.tags;
          const isObject =
            previous !== null &&
            !clauseOpeners.has(previous.lower) &&
            (previousTags === undefined || previousTags.has('Preposition') || previousTags.has('Verb') || previousTags.has('Conjunction'));
          if (!isObject) conjugateAfter(index);
          return;
        }
        case "you're":
          otherNamed = true;
          return replace(`${subjectName(other, word.start)} is`);
        case "you've":
          otherNamed = true;
          return replace(`${subjectName(other, word.start)} has`);
        case "you'll":
          otherNamed = true;
          return replace(`${subjectName(other, word.start)} will`);
        case "you'd":
          otherNamed = true;
          return replace(`${subjectName(other, word.start)} ${nextIsPastParticiple(index) ? 'had' : 'would'}`);
        case 'your':
        case 'yours':
          otherNamed = true;
          return replace(possessiveName(other, word.start));
        case 'yourself':
          otherNamed = true;
          return replace('themselves');
      }
    }
  });
  return { edits, self: selfNamed, other: otherNamed };
}

/** "Ana" -> "Ana's", "James" -> "James's". */
export function possessive(name: string): string {
  return `${name}'s`;
}

/** A label such as "The user" reads "the user" inside a sentence; names keep their capitals. */
export function nameAt(label: string, sentenceStart: boolean): string {
  if (sentenceStart) return label.charAt(0).toUpperCase() + label.slice(1);
  return /^The\s/.test(label) ? `t${label.slice(1)}` : label;
}

export function splitWords(text: string): Word[] {
  const words: Word[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(/\p{L}+(?:['’]\p{L}+)*/gu)) {
    const start = match.index;
    const end = start + match[0].length;
    const lower = match[0].toLowerCase().replace(/’/g, "'");
    words.push({ start, end, text: match[0], lower, gapBefore: text.slice(previousEnd, start) });
    previousEnd = end;
  }
  return words;
}

/** Whether only spaces separate a word from the one before it (no comma, dash or full stop). */
function adjacent(words: readonly Word[], index: number): boolean {
  const word = words[index];
  return index > 0 && word !== undefined && /^\s+$/.test(word.gapBefore);
}

/** Adverbs that may open a sentence whose subject was left out ("Just got back…", "Really love it"). */
const openingAdverbs = new Set([
  'just',
  'really',
  'totally',
  'so',
  'also',
  'still',
  'finally',
  'recently',
  'actually',
  'definitely',
  'absolutely',
  'seriously',
  'literally',
  'truly',
  'super',
  'pretty',
  'very',
  'honestly',
  'always',
  'never',
  'already',
]);
/** Verbs people say without "I" in chat ("Love the new kiln!"). Other base verbs open commands. */
const droppedSubjectVerbs = new Set([
  'love',
  'like',
  'hate',
  'miss',
  'enjoy',
  'adore',
  'appreciate',
  'prefer',
  'need',
  'want',
  'plan',
  'wish',
  'hope',
]);
const droppedSubjectGerunds = new Set([
  'thinking',
  'planning',
  'hoping',
  'going',
  'heading',
  'trying',
  'working',
  'feeling',
  'looking',
  'getting',
  'loving',
  'enjoying',
  'starting',
  'taking',
  'doing',
  'reading',
  'watching',
  'learning',
  'leaving',
  'moving',
  'flying',
  'visiting',
]);
const droppedSubjectStates = new Set([
  'glad',
  'excited',
  'thrilled',
  'happy',
  'proud',
  'stoked',
  'nervous',
  'grateful',
  'thankful',
  'lucky',
  'busy',
  'tired',
  'sad',
  'scared',
  'worried',
  'exhausted',
  'pumped',
  'psyched',
  'ready',
  'blessed',
  'swamped',
  'bummed',
  'curious',
]);

const clauseGerunds = new Set([
  'hoping',
  'thinking',
  'wishing',
  'praying',
  'guessing',
  'wondering',
  'figuring',
  'realizing',
  'realising',
  'feeling',
  'planning',
  'trying',
  'loving',
]);
const subjectWords = new Set(['i', 'you', 'he', 'she', 'it', 'we', 'they', 'that', 'this', 'which', 'who', 'there', "it's", "that's"]);
/** Particles after a gerund that make it a phrasal verb taking an object ("figuring out the budget"). */
const gerundParticles = new Set(['out', 'up', 'through', 'over']);
/** "it's", "that's", "there's"…: a clause of their own, not a gerund's verb. */
const pronounContractions = /^(?:it|that|this|there|here|he|she|what|who|where|how|let|everything|everyone|nothing)['’]s$/u;
/** Words after a name's "'s" that make it "is" ("a good plumber's a rare find"), not a possessive. */
const contractedIsBefore = new Set([
  'a',
  'an',
  'the',
  'so',
  'such',
  'really',
  'not',
  'been',
  'pretty',
  'very',
  'always',
  'never',
  'too',
  'quite',
  'kinda',
  'super',
  'totally',
  'definitely',
  'actually',
]);
/** Subject words that, right after a gerund, are its object ("Playing it helps me unwind"). */
const gerundObjects = new Set(['it', 'that', 'this']);

/**
 * Whether the words from `from` on hold a finite verb with no subject of its own before it:
 * then the opening gerund phrase is that verb's subject.
 */
function hasOwnVerb(words: readonly Word[], from: number, contentStart: number, context: SpeakerContext): boolean {
  for (const [index, word] of words.entries()) {
    if (index < from) continue;
    const tags = context.tokenAt(contentStart + word.start)?.tags;
    const finite =
      gerundSubjectVerbs.has(word.lower) ||
      // "Finding a good plumber's a real job": "'s" before a determiner or a word of degree is "is".
      (/['’]s$/u.test(word.lower) &&
        !pronounContractions.test(word.lower) &&
        contractedIsBefore.has(words[index + 1]?.lower ?? '') &&
        adjacent(words, index + 1)) ||
      (tags !== undefined &&
        tags.has('Verb') &&
        (tags.has('Copula') || (tags.has('PresentTense') && /s$/.test(word.lower) && !tags.has('Gerund'))));
    if (!finite) continue;
    let before = index - 1;
    while (before >= from && adverbs.has(words[before]!.lower)) before--;
    if (before < from || !subjectWords.has(words[before]!.lower)) return true;
    // "Playing it helps", "Having that is so cool": a word right after the gerund is its object.
    if (before === from && gerundObjects.has(words[before]!.lower) && adjacent(words, from) && adjacent(words, index)) return true;
  }
  return false;
}

/** What "Been …" says of the speaker ("Been busy", "Been so swamped"), after an optional degree word. */
const beenStates = new Set(['busy', 'swamped', 'stuck', 'away', 'sick', 'slammed', 'buried']);
const beenDegrees = new Set(['so', 'really', 'super', 'pretty', 'very', 'kinda', 'crazy', 'quite']);

/** Negated auxiliaries that open a sentence without "I" in chat, as the speaker says them. */
const negatedAuxiliaries: Record<string, string> = {
  "haven't": "hasn't",
  "can't": "can't",
  "couldn't": "couldn't",
  "didn't": "didn't",
  "wasn't": "wasn't",
  "won't": "won't",
  "wouldn't": "wouldn't",
  "hadn't": "hadn't",
  "shouldn't": "shouldn't",
  "ain't": "isn't",
};

/** What "Not a …" says of no one: replies and reactions ("Not a problem", "Not a big deal", "Not a bad idea"). */
export const NOT_STATE_NOUNS = [
  'problem',
  'big deal',
  'deal',
  'chance',
  'clue',
  'worry',
  'bother',
  'issue',
  'bad idea',
  'good idea',
  'bad thing',
  'surprise',
  'joke',
  'coincidence',
  'fan of that',
  'thing',
  'lot',
  'bit',
];
const notStateNouns = new RegExp(`^(?:${NOT_STATE_NOUNS.join('|')})(?![\\p{L}])`, 'iu');

const secondPersonWords = new Set(['you', "you're", "you've", "you'll", "you'd", 'your', 'yours', 'yourself']);
const gerundSubjectVerbs = new Set([
  'is',
  'plays',
  'played',
  'requires',
  'involves',
  'matters',
  'teaches',
  'taught',
  'reminds',
  'reminded',
  'allows',
  'lets',
  'sounds',
  'sounded',
  'looks',
  'looked',
  'was',
  'are',
  'were',
  'has',
  'makes',
  'made',
  'helps',
  'helped',
  'can',
  'gives',
  'gave',
  'keeps',
  'feels',
  'seems',
  'brings',
  'brought',
  "isn't",
  "wasn't",
  'takes',
  'took',
  'means',
  'could',
  'would',
  'will',
  'should',
  'might',
  'may',
  "won't",
  "can't",
  'must',
  'does',
  'did',
]);

/**
 * Chat often drops "I": "Gonna finish my course", "Love the new kiln!", "Went hiking". When a
 * sentence's content opens with such a verb, the speaker is written in as its subject. Only
 * past tenses and a few verbs of feeling count, since other bare verbs open commands ("Take a
 * look at this"). Returns the edits, or null when the subject is there.
 */
export function fillDroppedSubject(
  sentence: string,
  contentStart: number,
  contentEnd: number,
  label: string,
  context: SpeakerContext,
): Edit[] | null {
  const words = splitWords(sentence.slice(contentStart, contentEnd));
  const first = words[0];
  if (first === undefined || words.length < 2 || !/^["'“‘(]*$/u.test(first.gapBefore)) return null;
  const at = (word: Word): { start: number; end: number } => ({ start: contentStart + word.start, end: contentStart + word.end });
  const name = nameAt(label, contentStart + first.start === 0);
  const lowerFirst = first.text.charAt(0).toLowerCase() + first.text.slice(1);
  const fixed: Record<string, string> = { gonna: 'is going to', wanna: 'wants to', gotta: 'has to', been: 'has been' };
  let index = 0;
  while (index < words.length - 1 && index < 2 && openingAdverbs.has(words[index]!.lower)) index++;
  const verb = words[index]!;
  // "Been thinking…" and "Been busy with the move" drop "I've"; "Been a long week" drops "it's".
  const state = (word: Word | undefined) => word !== undefined && (/ing$/.test(word.lower) || beenStates.has(word.lower));
  const fits =
    verb.lower !== 'been' || state(words[index + 1]) || (beenDegrees.has(words[index + 1]?.lower ?? '') && state(words[index + 2]));
  const fixedVerb = Object.hasOwn(fixed, verb.lower) ? fixed[verb.lower] : undefined;
  if (fixedVerb !== undefined && fits) {
    if (index === 0) return [{ ...at(first), text: `${name} ${fixedVerb}` }];
    // "Just gotta fix the gate" → "<speaker> just has to fix the gate"; "Just been painting" →
    // "<speaker> has just been helping": an auxiliary goes before the adverb.
    const [auxiliary, rest] = verb.lower === 'gonna' ? ['is ', 'going to'] : verb.lower === 'been' ? ['has ', 'been'] : ['', fixedVerb];
    return [
      { ...at(first), text: `${name} ${auxiliary}${lowerFirst}` },
      { ...at(verb), text: rest },
    ];
  }
  if (verb.lower === 'been') return null;
  // "Not a morning person", "Not much of a cook": what the speaker is not, "I'm" dropped; "Not a problem" is talk.
  if (index === 0 && verb.lower === 'not') {
    const rest = sentence.slice(contentStart + words[1]!.start, contentEnd);
    const state = /^(?:a|an|much of an?|really an?|the biggest|a big|a huge)\s+(?=\p{L})/iu.exec(rest);
    if (state === null || notStateNouns.test(rest.slice(state[0].length))) return null;
    return [{ ...at(first), text: `${name} is not` }];
  }
  /** The speaker written in before the verb, which becomes `verb` ("Just love it" → "<speaker> just loves it"). */
  const subjectBefore = (replacement: string): Edit[] =>
    index === 0
      ? [{ ...at(first), text: `${name} ${replacement}` }]
      : [
          { ...at(first), text: `${name} ${lowerFirst}` },
          { ...at(verb), text: replacement },
        ];
  // "Haven't seen you in ages!", "Can't wait to see it": a negated auxiliary with no subject
  // after it ("Haven't you…?" asks) speaks for the speaker. "Don't…" gives advice instead.
  const negated = negatedAuxiliaries[verb.lower.replace('’', "'")];
  if (negated !== undefined && !subjectWords.has(words[index + 1]?.lower ?? '')) {
    return subjectBefore(verb.text.includes('’') ? negated.replace("'", '’') : negated);
  }
  const tags = context.tokenAt(contentStart + verb.start)?.tags;
  if (tags?.has('ProperNoun') === true && index === 0) return null;
  // "So proud of you", "Glad to have you": a feeling with no subject is the speaker's, whoever
  // it is about; "Lucky you!" is about the other.
  if (droppedSubjectStates.has(verb.lower) && !secondPersonWords.has(words[index + 1]?.lower ?? ''))
    return [{ ...at(first), text: `${name} is ${lowerFirst}` }];
  // "Made me think…", "Taking in kids - you're so kind": the missing subject is someone else.
  if (words[index + 1]?.lower === 'me' || words.some((word) => secondPersonWords.has(word.lower))) return null;
  if (droppedSubjectGerunds.has(verb.lower) || tags?.has('Gerund') === true) {
    // "Painting fences is hard work": a gerund followed by a verb of its own is the
    // subject. Gerunds that take a clause ("Hoping the kiln is ready") are not.
    // "Figuring out the budget is hard work": with a particle the gerund takes an object, not a clause.
    const takesClause = clauseGerunds.has(verb.lower) && !gerundParticles.has(words[index + 1]?.lower ?? '');
    if (!takesClause && hasOwnVerb(words, index + 1, contentStart, context)) return null;
    return [{ ...at(first), text: `${name} is ${lowerFirst}` }];
  }
  if (droppedSubjectVerbs.has(verb.lower)) {
    // "Love makes the garden grow": a verb of its own makes "Love" the subject, not a dropped "I".
    if (hasOwnVerb(words, index + 1, contentStart, context)) return null;
    return subjectBefore(thirdPerson(verb.lower) ?? verb.lower);
  }
  // "Just got back from Oslo": the tagger reads "got" before "back" as an auxiliary, but it is the past.
  const past = verb.lower === 'got' || (tags !== undefined && tags.has('PastTense') && !tags.has('Adjective') && !tags.has('Participle'));
  if (past) return [{ ...at(first), text: `${name} ${lowerFirst}` }];
  return null;
}

/** Role words an app writes, without an article, for the person its notes are about ("User prefers…"). */
const noteRoles = new Set(['user', 'customer', 'client', 'patient']);

/**
 * Apps write notes about their user in a clipped style: "User prefers dark mode", "Customer is
 * allergic to nuts", "Drives a Tesla", "Works at Acme". In a note (never in chat, where "Sounds
 * good" drops "it"), a sentence that opens with such a role word, or with a verb in the third
 * person and no subject, is about the owner: the owner is written in (`label`, "The user").
 * Returns the edits, or null when the sentence has its subject.
 */
export function fillNoteSubject(
  sentence: string,
  contentStart: number,
  contentEnd: number,
  label: string,
  context: SpeakerContext,
): Edit[] | null {
  const words = splitWords(sentence.slice(contentStart, contentEnd));
  const first = words[0];
  if (first === undefined || words.length < 2 || first.gapBefore.trim() !== '' || !/^\p{Lu}/u.test(first.text)) return null;
  const at = { start: contentStart + first.start, end: contentStart + first.end };
  const name = nameAt(label, contentStart + first.start === 0);
  // "User prefers…", "Customer's timezone is CET": the role word stands for the owner.
  const role = first.lower.replace(/'s$/, '');
  if (noteRoles.has(role) && adjacent(words, 1) && !/^\p{Lu}/u.test(words[1]!.text)) {
    return [{ ...at, text: first.lower.endsWith("'s") ? `${name}'s` : name }];
  }
  // "Dislikes: cilantro" is a label, not a clause.
  if (!/s$/.test(first.lower) || first.lower.endsWith("'s") || !adjacent(words, 1)) return null;
  const tags = context.tokenAt(at.start)?.tags;
  if (tags === undefined || tags.has('ProperNoun')) return null;
  // "Prefers window seats", "Is allergic to nuts", "Has two kids": tagged as a verb of the present.
  const verb = tags.has('Verb') && tags.has('PresentTense') && !tags.has('Gerund') && !tags.has('Auxiliary');
  // "Drives a Tesla", "Works at Acme": tagged as a plural noun, but no verb follows to make it a subject.
  const clipped =
    tags.has('Plural') &&
    !words.slice(1).some((word) => {
      const later = context.tokenAt(contentStart + word.start)?.tags;
      return later?.has('Verb') === true && !later.has('Gerund') && !later.has('Participle');
    });
  if (!verb && !clipped) return null;
  return [{ ...at, text: `${name} ${first.lower}` }];
}
