import { stemmer } from 'stemmer';
import { MONTH_WORDS, WEEKDAY_WORDS } from '../text/calendar.js';
import { DATE_WORDING } from '../text/date-wording.js';
import nlp from '../text/nlp.js';

/**
 * Words of a question that say what kind of answer it wants, or carry no meaning of their own:
 * they are not looked for in a memory when finding where its answer is.
 */
const FUNCTION_WORDS = new Set(
  (
    'what which who whom whose when where why how did does do doing done is are was were be been being am has have had ' +
    'the a an of to in on for at by with from and or but as so about into onto than then that this these those there ' +
    'her hers his their theirs its it they them she he him i me my we our us you your some any kind kinds type types sort ' +
    'sorts s many much often long would could should will can might may must likely probably ever yet also just still ' +
    'according based'
  ).split(' '),
);

/** Words that join a subject to what is said of it, or stand before a noun: trimmed from the edges of a span. */
const EDGE_WORDS = new Set(
  (
    'is are was were be been being am has have had does do did s the a an their his her its my our your this that these those ' +
    'and or but so also just really very too even still then which who that it'
  ).split(' '),
);

const ARTICLES = new Set(['a', 'an', 'the']);

/** Where a memory's text breaks into clauses: sentence ends, dashes, semicolons, and commas before a new clause. */
const CLAUSE_BREAK =
  /\s+[-–—]+\s+|[-–—]+\s+|\s*[;:]\s+|[.!?]+(?:\s+|$)|,\s+(?=(?:but|so|which|because|though|although|while|since|as well as|especially|plus|and then|who|where)\b)|\s+(?=(?:but|because|although|though)\b)/giu;

/** A word of a text with where it is. */
interface Word {
  text: string;
  stem: string;
  start: number;
  end: number;
  capital: boolean;
}

function wordsOf(text: string, offset = 0): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*(?:[-+][\p{L}\p{N}]+)*\+?/gu)].map((match) => {
    const lower = match[0].toLowerCase().replace(/['’]s$/u, '');
    return {
      text: match[0],
      // A small word never stands for a word of the question ("on" is not "one", which stems
      // alike): it is marked so that no stem equals it (rule "a small word is not the question's").
      stem: FUNCTION_WORDS.has(lower) ? `=${lower}` : stemmer(lower),
      start: offset + match.index,
      end: offset + match.index + match[0].length,
      capital: /^\p{Lu}/u.test(match[0]),
    };
  });
}

/** The question's meaningful words as stems, and those of them that are names. */
export function questionKeys(question: string): { content: Set<string>; names: Set<string> } {
  const content = new Set<string>();
  const names = new Set<string>();
  for (const [index, word] of wordsOf(question).entries()) {
    const lower = word.text.toLowerCase().replace(/['’]s$/u, '');
    if (FUNCTION_WORDS.has(lower)) continue;
    if (word.capital && index > 0) names.add(word.stem);
    else content.add(word.stem);
  }
  return { content, names };
}

/** A memory's clauses, as [start, end) offsets into its text. */
export function clausesOf(text: string): [number, number][] {
  const clauses: [number, number][] = [];
  let start = 0;
  for (const match of text.matchAll(CLAUSE_BREAK)) {
    if (match.index > start) clauses.push([start, match.index]);
    start = match.index + match[0].length;
  }
  if (start < text.length) clauses.push([start, text.length]);
  return clauses;
}

/** The text from the first to the last of some words, small words trimmed from its ends; null when nothing else is left ("of it"). */
function spanText(text: string, words: Word[]): string | null {
  let first = 0;
  let last = words.length - 1;
  // An opening article stays ("a plum tart"); the words that lead to it do not ("is", "their").
  while (first <= last && EDGE_WORDS.has(words[first]!.text.toLowerCase()) && !ARTICLES.has(words[first]!.text.toLowerCase())) first++;
  // At its end, any small word goes ("a fox with the" → "a fox").
  while (last >= first && (EDGE_WORDS.has(words[last]!.text.toLowerCase()) || FUNCTION_WORDS.has(words[last]!.text.toLowerCase()))) last--;
  if (first > last) return null;
  return text.slice(words[first]!.start, words[last]!.end);
}

/**
 * The part of a memory that answers a question, read from the words the two share: the clause
 * holding most of the question's words (names count a quarter), then what that clause says
 * after the last of them ("What did Ana bake?" and "Ana baked a plum tart, which sold out."
 * give "plum tart"); when nothing follows them, the longest stretch between two of them ("Ana
 * baked a plum tart for the fair." for "What did Ana bake for the fair?"); else what comes
 * before the first, without the question's names. Of these, the first that names a thing is
 * taken (rule "the span names a thing"). When the best clause gives only its subject and verb
 * (what comes before the question's words, or between a name and them), a clause that says
 * something after them answers instead (rule "what follows the question's words before the
 * subject"; also when the best clause gives nothing). Written dates are left out (a "when"
 * question is answered before this). Null when no clause holds a word of the question beyond
 * its names, or the span would hold only small words: then the memory answers whole.
 */
export function answerSpan(question: string, text: string): string | null {
  const { content, names } = questionKeys(question);
  if (!content.size) return null;
  const cleaned = withoutDates(text);
  const clauses: { score: number; words: Word[]; index: number }[] = [];
  for (const [index, [start, end]] of clausesOf(cleaned).entries()) {
    const words = wordsOf(cleaned.slice(start, end), start);
    const matched = new Set(words.filter((word) => content.has(word.stem)).map((word) => word.stem));
    const named = new Set(words.filter((word) => names.has(word.stem)).map((word) => word.stem));
    if (matched.size) clauses.push({ score: matched.size + 0.25 * named.size, words, index });
  }
  if (!clauses.length) return null;
  // The best clause first, the earlier of two that score alike.
  clauses.sort((left, right) => right.score - left.score || left.index - right.index);
  const best = clauseSpan(cleaned, clauses[0]!.words, content, names);
  if (best !== null && best.kind !== 'subject') return best.text;
  for (const clause of clauses.slice(1)) {
    const span = clauseSpan(cleaned, clause.words, content, names);
    if (span !== null && span.kind !== 'subject' && namesThing(span.text)) return span.text;
  }
  return best?.text ?? null;
}

/**
 * The answer span of one clause (see answerSpan), and whether it is only the clause's subject
 * and verb: what comes before the question's words, or between a name and them.
 */
function clauseSpan(
  cleaned: string,
  words: Word[],
  content: Set<string>,
  names: Set<string>,
): { text: string; kind: 'said' | 'subject' } | null {
  const isKey = (word: Word) => content.has(word.stem) || names.has(word.stem);
  let last = -1;
  for (let index = 0; index < words.length; index++) if (isKey(words[index]!)) last = index;
  const first = words.findIndex(isKey);
  // Between the question's words: the longest stretch of other words, and the longest that
  // follows a word of what the question asks (not a name) and names a thing.
  let gap: string | null = null;
  let gapAfterName = false;
  let object: string | null = null;
  let size = 0;
  let objectSize = 0;
  let from = first + 1;
  for (let index = first + 1; index <= last; index++) {
    if (!isKey(words[index]!)) continue;
    const span = spanText(cleaned, words.slice(from, index));
    if (span && index - from > size) {
      gap = span;
      gapAfterName = !content.has(words[from - 1]!.stem);
      size = index - from;
    }
    if (span && index - from > objectSize && content.has(words[from - 1]!.stem) && namesThing(span)) {
      object = span;
      objectSize = index - from;
    }
    from = index + 1;
  }
  if (object) return { text: object, kind: 'said' };
  const after = spanText(cleaned, words.slice(last + 1));
  // Before the first word of the question: the clause's subject and verb, without the names asked about.
  const before = spanText(
    cleaned,
    words.slice(0, first).filter((word) => !names.has(word.stem)),
  );
  const candidates = [
    { text: after, kind: 'said' as const },
    { text: gap, kind: gapAfterName ? ('subject' as const) : ('said' as const) },
    { text: before, kind: 'subject' as const },
  ].filter((candidate): candidate is { text: string; kind: 'said' | 'subject' } => candidate.text !== null);
  // "Lately" or "went" says nothing the question asks for: the first that names a thing is taken.
  return candidates.find((candidate) => namesThing(candidate.text)) ?? candidates[0] ?? null;
}

/**
 * Whether a span names a thing: it holds a noun and no pronoun ("an old bike", not "went" or
 * "it to them"). Rule "object between the question's words".
 */
function namesThing(span: string): boolean {
  const parsed = nlp(span);
  return parsed.has('#Noun') && !parsed.has('#Pronoun');
}

/** A written date with the preposition before it, built once ("on 7 May 2023", "in 2022"). */
const WRITTEN_DATE = new RegExp(`(?:\\b(?:on|in|from|since|during|by)\\s+)?${DATE_WORDING.source}`, 'giu');

/** A text without its written dates ("on 7 May 2023", "in the week of …", "in 2022"). */
export function withoutDates(text: string): string {
  return text
    .replace(WRITTEN_DATE, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.;!?])/g, '$1')
    .trim();
}

/** Words a question asks for a named work by ("What book…", "Which song…"). */
const TITLED = /\b(?:book|novel|song|album|band|movie|film|show|series|game|play|poem|podcast|painting|title|name|called)s?\b/i;

/**
 * A title a memory gives in quotes ("Ana's favourite film is 'Paper Moon'."), for a question that
 * asks for a named work ("What film does Ana like?"); null otherwise.
 */
export function titleAsked(question: string, text: string): string | null {
  if (!/^\s*(?:what|which)\b/i.test(question) || !TITLED.test(question)) return null;
  const quoted = [...text.matchAll(/["“]([^"”]{2,60})["”]/gu)].map((match) => match[1]!.replace(/[.,!?]+$/u, ''));
  const asked = question.toLowerCase();
  const fresh = quoted.filter((title) => !asked.includes(title.toLowerCase()));
  return fresh.length ? fresh.join(', ') : null;
}

/**
 * The people a memory names that the question does not ("Who taught Ana to sail?" and "Ana
 * learned to sail from her uncle Tomas." give "Tomas"): runs of capitalised words, not a month,
 * a weekday, a small word or an opening word that is not a noun, each once; null when there is none.
 */
export function personNamed(question: string, text: string): string | null {
  const { names } = questionKeys(question);
  const words = wordsOf(text);
  const runs: string[] = [];
  let run: Word[] = [];
  const close = () => {
    if (run.length) runs.push(text.slice(run[0]!.start, run[run.length - 1]!.end).replace(/['’]s$/u, ''));
    run = [];
  };
  for (const [index, word] of words.entries()) {
    const plain = word.text.toLowerCase().replace(/['’]s$/u, '');
    // A sentence's capitalised first word is a name when it reads as a singular noun ("Ana", not "Here" or "Thankfully").
    if (index === 0 && !(word.capital && nlp(word.text).has('#Singular'))) continue;
    const named = word.capital && !names.has(word.stem) && !CALENDAR.has(plain.replace(/s$/u, '')) && !FUNCTION_WORDS.has(plain);
    if (named) run.push(word);
    else close();
  }
  close();
  // A name said twice is given once ("Tomas, Tomas" → "Tomas").
  const distinct = [...new Set(runs)];
  return distinct.length ? distinct.join(', ') : null;
}

const CALENDAR = new Set([...MONTH_WORDS, ...WEEKDAY_WORDS]);

/** Words that end a phrase read leftwards from its noun: prepositions, verbs of being and determiners. */
const PHRASE_STOP = new Set([
  ...FUNCTION_WORDS,
  ...EDGE_WORDS,
  'like',
  'went',
  'got',
  'get',
  'made',
  'make',
  'took',
  'take',
  'one',
  'some',
  'all',
  'every',
  'each',
  'another',
  'other',
  'no',
  'not',
]);

/**
 * The noun a "what X" question asks for ("What workshop…", "Which kind of dog…" → "workshop",
 * "dog"), as a stem; null for "what did…", "what is…".
 */
export function askedNoun(question: string): string | null {
  const word = askedWord(question);
  if (!word || FUNCTION_WORDS.has(word)) return null;
  return stemmer(word);
}

/**
 * The head of the noun phrase a "what X" question opens with, as written: its last word before
 * the question's verb, a name or a small word, a possessive skipped ("What wild animal chased…" →
 * "animal", "Which city is…" → "city", "Which film's song…" → "song"); null for "what did…".
 * Rule "the asked-for noun is the phrase's head".
 */
export function askedWord(question: string): string | null {
  // One answer reads the question's word once per memory it looks at: the last question's is kept.
  if (question !== lastAsked.question) lastAsked = { question, word: headOfAsked(question) };
  return lastAsked.word;
}

/** The last question `askedWord` read, and its word. */
let lastAsked: { question: string | null; word: string | null } = { question: null, word: null };

function headOfAsked(question: string): string | null {
  const opening = /^\s*(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?/iu.exec(question);
  if (!opening) return null;
  const terms = (nlp(question.slice(opening[0].length)).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap(
    (sentence) => sentence.terms,
  );
  let head: string | null = null;
  for (const term of terms.slice(0, 4)) {
    const plain = term.text.toLowerCase().replace(/['’]s$/u, '');
    if (FUNCTION_WORDS.has(plain) || /^\p{Lu}/u.test(term.text) || isVerb(term.tags)) break;
    head = plain;
    if (/['’]s$/u.test(term.text)) head = null;
  }
  return head;
}

/** A word read as a verb in a tense ("chased", "keeps"); a bare form may be a noun ("a boat", "a stamp"). */
const isVerb = (tags: string[]) => tags.includes('Verb') && !tags.includes('Noun') && !tags.includes('Infinitive');

/** Kinds of thing answered with a name ("Which city…", "What country…"): the names a memory gives. */
const NAMED_KINDS = new Set(
  'city town country state island language team company brand band artist author singer player store shop restaurant cafe school university college hospital park river lake mountain beach game car breed'
    .split(' ')
    .map((word) => stemmer(word)),
);

/**
 * For a question asking for a thing known by its name ("Which city…", "What language…"), the
 * names a memory gives that the question does not: the first for one thing, all for several.
 * Rule "a named kind is answered with a name".
 */
export function namedInstance(question: string, text: string): string | null {
  const word = askedWord(question);
  if (!word || !NAMED_KINDS.has(stemmer(word))) return null;
  const named = personNamed(question, text);
  if (!named) return null;
  // "Which cities…" asks for several, "Which city…" for one.
  const several = word.endsWith('s') && stemmer(word) !== word;
  return several ? named : named.split(', ')[0]!;
}

/** At most this many words of what follows a noun said only with a quality ("a great deal with a bike shop"). */
const COMPLEMENT_WORDS = 8;

/**
 * The phrase a memory names the asked-for noun with, its describing words before it
 * ("What workshop did Ana go to?" and "Ana went to a pottery glazing workshop." give "pottery
 * glazing workshop"); null when the memory does not use the noun or says nothing more of it.
 */
export function nounPhrase(question: string, text: string): string | null {
  const noun = askedNoun(question);
  if (noun === null) return null;
  const { content, names } = questionKeys(question);
  const cleaned = withoutDates(text);
  const words = wordsOf(cleaned);
  for (let index = 0; index < words.length; index++) {
    if (words[index]!.stem !== noun) continue;
    let first = index;
    while (first > 0 && index - first < 4) {
      const before = words[first - 1]!;
      const plain = before.text.toLowerCase();
      if (PHRASE_STOP.has(plain) || names.has(before.stem)) break;
      if (cleaned.slice(before.end, words[first]!.start).trim()) break;
      first--;
    }
    const added = words.slice(first, index).filter((word) => !content.has(word.stem));
    if (added.length) {
      const phrase = cleaned.slice(words[first]!.start, words[index]!.end);
      if (!added.every((word) => nlp(word.text).has('#Adjective'))) return phrase;
      // Only a quality is said of the noun ("a great deal"): what follows it says which, up to
      // COMPLEMENT_WORDS words (rule "a quality alone is followed by what says which").
      const rest = cleaned.slice(words[index]!.end);
      const complement = /^\s+((?:that|who|which|with|for|helping|about|from|by|to)\b[^.;:!?–—-]*)/iu.exec(rest)?.[1];
      const cut = complement
        ?.split(/\s+/)
        .slice(0, COMPLEMENT_WORDS)
        .join(' ')
        .replace(/[,\s]+$/u, '');
      return cut ? `${phrase} ${cut}` : phrase;
    }
  }
  return null;
}

/** Words that open a phrase saying where, whom or what for: not part of the answer. */
const isPreposition = (term: Term) => term.tags.includes('Preposition');

/** A term of a span as compromise reads it, with the spacing and punctuation around it. */
interface Term {
  text: string;
  pre: string;
  post: string;
  tags: string[];
}

/**
 * An answer span cut to what the question asks: a preposition opening it is left out ("for a
 * fundraiser" → "a fundraiser"; not for "why" and "how", where "to relax" is the answer: rule
 * "a preposition is not the answer"), and for "what / which / who" it ends where a new clause
 * begins, at a verb of being right after a noun or at "and" / a comma before a pronoun and its
 * verb ("mental health is so rewarding" → "mental health", "a blue kite and it flew" → "a blue
 * kite"), when what is left names a thing (rule "the span ends where a new clause begins").
 */
export function trimSpan(question: string, span: string | null): string | null {
  if (span === null) return null;
  const terms = (nlp(span).json() as { terms: Term[] }[]).flatMap((sentence) => sentence.terms);
  if (!terms.length) return span;
  let from = 0;
  let to = terms.length;
  if (/^\s*(?:what|which|who|whom)\b/i.test(question)) {
    for (let index = 1; index < terms.length; index++) {
      const term = terms[index]!;
      const before = terms[index - 1]!;
      const isVerb = term.tags.includes('Verb');
      // "… a kite and it flew", "… a kite, it flew": a new subject and its verb.
      if (term.tags.includes('Pronoun') && terms[index + 1]?.tags.includes('Verb')) {
        if (before.text.toLowerCase() === 'and') {
          to = index - 1;
          break;
        }
        if (/,\s*$/u.test(before.post)) {
          to = index;
          break;
        }
      }
      // "… mental health is …": the noun was the subject of what follows.
      if (
        isVerb &&
        (term.tags.includes('Copula') || term.tags.includes('Auxiliary')) &&
        before.tags.includes('Noun') &&
        !before.tags.includes('Pronoun')
      ) {
        to = index;
        break;
      }
    }
  }
  if (isPreposition(terms[0]!) && to > 1 && !/^\s*(?:why|how)\b/i.test(question)) from = 1;
  if (from === 0 && to === terms.length) return span;
  const cut = terms
    .slice(from, to)
    .map((term, index, kept) => (index === 0 ? '' : term.pre) + term.text + (index === kept.length - 1 ? '' : term.post))
    .join('')
    .replace(/[,;:\s]+$/u, '')
    .trim();
  if (!/\p{L}/u.test(cut)) return span;
  // A new clause is cut off only when what is left still names a thing.
  if (to < terms.length && !namesThing(cut)) return span;
  return cut;
}

/**
 * Whether a later memory's span restates `earlier` (the best one's): it names every thing the
 * earlier span names ("the violin now" and "the violin some day" both name the violin) and no name
 * it does not, so it gives no second answer. Never when the earlier span names nothing. The earlier
 * span is read once for all the later ones. Rule "a span that restates the answer".
 */
export function restating(earlier: string): (later: string) => boolean {
  const terms = (nlp(earlier).json() as { terms: Term[] }[]).flatMap((sentence) => sentence.terms);
  const things = terms
    .filter((term) => term.tags.includes('Noun') && !term.tags.includes('Pronoun'))
    .map((term) => stemmer(term.text.toLowerCase().replace(/['’]s$/u, '')));
  if (!things.length) return () => false;
  const earlierLower = earlier.toLowerCase();
  return (later) => {
    const laterWords = wordsOf(later);
    const laterStems = new Set(laterWords.map((word) => stemmer(word.text.toLowerCase().replace(/['’]s$/u, ''))));
    if (!things.every((stem) => laterStems.has(stem))) return false;
    // A name the earlier span does not give is a second answer ("a blue floor" and "a Lindqvist floor").
    return !laterWords.some((word, index) => index > 0 && word.capital && !earlierLower.includes(word.text.toLowerCase()));
  };
}

/**
 * The thing a memory opens by pointing at ("This necklace is a gift from Ana's aunt." →
 * "necklace", "These mugs Ana bought remind her of home." → "mugs"), for a "what" question that
 * does not name it: the memory speaks of that thing, so it is what is asked for. Null when the
 * memory does not open with "this / these / that / those" and a noun, or the question names that
 * noun. Rule "the thing pointed at".
 */
export function pointedThing(question: string, text: string): string | null {
  if (!/^\s*what\b/i.test(question)) return null;
  const opening = /^\s*(?:this|these|that|those)\s+/iu.exec(text);
  if (!opening) return null;
  const terms = (nlp(text.slice(opening[0].length)).json() as { terms: Term[] }[]).flatMap((sentence) => sentence.terms);
  const phrase: Term[] = [];
  for (const term of terms) {
    if (!term.tags.includes('Noun') || term.tags.includes('Pronoun') || /^\p{Lu}/u.test(term.text)) break;
    phrase.push(term);
    if (term.post.trim()) break;
  }
  if (!phrase.length) return null;
  const { content } = questionKeys(question);
  if (phrase.some((term) => content.has(stemmer(term.text.toLowerCase())))) return null;
  return phrase.map((term) => term.text).join(' ');
}
