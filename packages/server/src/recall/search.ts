import type { Counts, KindFilter, Labels } from '@engram/protocol';
import type { Db } from '../store/database.js';
import { columnsOf, createdSpan, HIT_DATED, HIT_REPORTED, type HitColumns, hitAt, lexemeCounts } from '../store/hit-columns.js';
import { memoryIndexOf } from '../store/memory-index.js';
import type { LexemeHit, LexemeSearch, MemoryRow } from '../store/memory-repository.js';
import {
  BROADER_MARK,
  lexemesAndVersion,
  loadMemories,
  memoriesInSpan,
  rankMemories,
  searchMemoryColumns,
} from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import nlp from '../text/nlp.js';
import { answerKindAsked, holdsKind } from './answer-kind.js';
import { COVERED_SHARE, DENSE_MOST, denseCue, textVector } from './dense.js';
import { cueKind } from './kind-cue.js';
import { cueName } from './name-cue.js';
import { addNearby, messageAt } from './nearby.js';
import { neighbourWords } from './neighbours.js';
import type { QuestionTime } from './query.js';
import { asksView, asksWhen, nameAsWritten, queryTerms, questionNames, questionTime } from './query.js';
import { holdsAll, rareNames } from './rare-names.js';
import { sortPlaces } from './sort-places.js';
import { MAX_RELATED, personClasses, relatedWords } from './synonyms.js';
import {
  BEFORE_LEVEL_WEIGHT,
  BROADER_WEIGHT,
  COVERAGE_WEIGHT,
  DATE_CUE,
  FLOOR,
  KIND_THRESHOLD,
  KNOWN_THRESHOLD,
  MENTIONS_SPAN,
  MESSAGE_LEVEL_WEIGHT,
  NAME_CUE,
  NEIGHBOUR_WEIGHT,
  OTHER_SUBJECT_WEIGHT,
  OWN_LEVEL_WEIGHT,
  RANK_WEIGHT,
  RECENCY_WEIGHT,
  RELATED_WEIGHT,
  RELATIVE_FLOOR,
  REPORTED_WEIGHT,
  SAID_IN_SPAN,
  SAME_PASSAGE,
  TIME_CUE,
  UNSEEN_MANNER_WEIGHT,
  UNSEEN_THING_WEIGHT,
  UNSEEN_WEIGHT,
} from './weights.js';

export { FLOOR, KNOWN_THRESHOLD } from './weights.js';

/** A recalled memory with its score (0..1). */
export interface Recalled {
  row: MemoryRow;
  score: number;
}

/** What a recall finds: the best memories first, and how many matched in all. */
export interface RecallResult {
  memories: Recalled[];
  total: number;
  /** How many of all the matches (not only those returned) are of each kind. */
  counts: Counts;
  /** True when nothing stored bears on the question. */
  empty: boolean;
}

/** The largest limit of search and context: past it, RELATIVE_FLOOR applies too. */
const MAX_SHOWN = 50;
/** Fewer hits than this from a question's other words, and its names bring in memories too. */
const FEW_HITS = 50;

/** How many of the best memories Postgres's rank re-orders, and how much it can add. */
const RERANKED = 60;

/**
 * The order of a ranking's places: by score, then by id (higher first), so no two are alike.
 * -1, 0 or 1 (or the ids' difference), never a fraction: a sort boxes each fractional answer,
 * and a large space sorts thousands of memories.
 */
function byScoreOf(ranking: Ranking): (left: number, right: number) => number {
  const { score } = ranking;
  const id = ranking.hits.id;
  return (left, right) => (score[right]! > score[left]! ? 1 : score[right]! < score[left]! ? -1 : id[right]! - id[left]!);
}

/** How much a word counts where it was found (level 0 none, 1 the message it answers, 2 the rest of its message, 3 the fact or its names). */
const LEVEL_WEIGHT = [0, BEFORE_LEVEL_WEIGHT, MESSAGE_LEVEL_WEIGHT, OWN_LEVEL_WEIGHT];
/** A memory naming a kind of what a related word means ("church" for "religious", by "religion"): both steps' share. */
const RELATED_BROADER_WEIGHT = RELATED_WEIGHT * BROADER_WEIGHT;

/** One meaningful word of the question with the lexemes that match it. */
export interface QueryWord {
  own: number[];
  related: number[];
  /** How much of the word itself each related lexeme counts (RELATED_WEIGHT when not given): a neighbour counts by its similarity. */
  shares?: number[];
  /** The word as a class of what a memory names ("sport" for "swimming"): see BROADER_MARK. */
  broader: number[];
  /** Its related words as classes of what a memory names ("religion", related to "religious", for "church"). */
  relatedBroader: number[];
  name: boolean;
  /** What the word does in the question, for the judgement whether anything is known (see questionParts); a thing when not given. */
  part?: WordPart;
  /** The slot attribute the word asks about ("live" → home), which a memory in that slot answers in other words. */
  attribute?: string;
  /** The word asks for a name ("name", "called"): a memory saying it may be about something else. */
  asksName?: boolean;
}

/**
 * What a question word does: a `thing` it asks about (a noun or a name: "brother", "Porto"),
 * the kind of `answer` it wants (the noun after "what"/"which": "Which instrument…", or a
 * name: "…called?"), or the `manner` of asking (verbs, adjectives: "old", "born", "owns").
 */
export type WordPart = 'thing' | 'answer' | 'manner';

/** Words that ask for a name: the answer is the name, not a word of the question. */
const NAME_ASKING = new Set(['name', 'names', 'named', 'call', 'calls', 'called']);
/** Words between "what" and the kind of answer it asks for ("What kind of music…"). */
const KIND_OF = new Set(['kind', 'kinds', 'type', 'types', 'sort', 'sorts']);

/** The most words a phrase naming the kind of answer has ("Which running shoes…"). */
const KIND_WORDS = 2;
/** Verbs that end the phrase naming the kind of answer ("What board game did…"). */
const AUXILIARY = new Set([
  'is',
  'are',
  'was',
  'were',
  'am',
  'be',
  'been',
  'do',
  'does',
  'did',
  'has',
  'have',
  'had',
  'can',
  'could',
  'will',
  'would',
  'should',
  'may',
  'might',
  'must',
]);
const PHRASE_ENDS = ['Pronoun', 'Preposition', 'Determiner', 'QuestionWord', 'Conjunction'];
/** Words that start what follows the kind of answer ("Which shop of Oslo…"), whatever the tagger reads them as. */
const LINKS = new Set(['of', 'in', 'at', 'on', 'for', 'from', 'with', 'to', 'by', 'about', 'that']);
const endsKind = (term: { normal: string; tags: string[] }) =>
  AUXILIARY.has(term.normal) || LINKS.has(term.normal) || PHRASE_ENDS.some((tag) => term.tags.includes(tag));

/**
 * The part each word of a question plays (lower case, possessive dropped), read by
 * compromise's tagger: the phrase after "what"/"which" (past "kind of") up to its verb, when it
 * ends in a noun ("Which design software do…"), and words asking
 * for a name are the answer's kind, other nouns and names are things, the rest manner.
 */
export function questionParts(question: string): Map<string, WordPart> {
  const parts = new Map<string, WordPart>();
  const terms = (nlp(question).json() as { terms: { normal: string; tags: string[] }[] }[]).flatMap((sentence) => sentence.terms);
  let answerAt = -1;
  const asking = terms.findIndex((term) => term.normal === 'what' || term.normal === 'which');
  if (asking !== -1) {
    answerAt = asking + 1;
    if (KIND_OF.has(terms[answerAt]?.normal ?? '') && terms[answerAt + 1]?.normal === 'of') answerAt += 2;
  }
  const isNoun = (term: { tags: string[] } | undefined) => term?.tags.includes('Noun') === true && !term.tags.includes('Pronoun');
  // The answer's kind is the phrase there up to its verb ("Which design software do…"), when it ends in a noun.
  let answerEnd = answerAt === -1 ? -1 : answerAt;
  while (answerEnd !== -1 && answerEnd < terms.length && !endsKind(terms[answerEnd]!)) answerEnd += 1;
  // Without the verb, or past a few words (a verb read as a noun: "Which enzyme breaks down…"), only the first noun is sure.
  if (answerEnd >= terms.length || answerEnd - answerAt > KIND_WORDS) answerEnd = answerAt + 1;
  if (!isNoun(terms[answerEnd - 1])) answerEnd = answerAt;
  terms.forEach((term, index) => {
    const noun = isNoun(term);
    for (const word of term.normal.replace(/['’]s$/u, '').match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (parts.has(word)) continue;
      parts.set(word, NAME_ASKING.has(word) || (index >= answerAt && index < answerEnd) ? 'answer' : noun ? 'thing' : 'manner');
    }
  });
  return parts;
}

/**
 * The part a question word plays: a name is a thing; a word asking for a slot's value ("job",
 * "live", "married") asks for the kind of answer, as "which" does; else as the tagger read it.
 */
export function partOf(term: string, name: boolean, parts: ReadonlyMap<string, WordPart>): WordPart {
  if (name) return 'thing';
  if (ATTRIBUTE_WORDS[term] !== undefined) return 'answer';
  return parts.get(term) ?? 'manner';
}

/** Question words that ask for a slot's value (see learn/slots.ts). */
export const ATTRIBUTE_WORDS: Record<string, string> = Object.fromEntries(
  (
    [
      ['home', 'live lives lived living home house reside resides resided based moved move'],
      ['work', 'work works worked working job jobs employer employed occupation profession'],
      ['partner', 'married marriage partner wife husband girlfriend boyfriend dating single relationship spouse engaged'],
      ['age', 'age old'],
      ['diet', 'diet diets dietary'],
    ] satisfies [string, string][]
  ).flatMap(([attribute, words]) => words.split(' ').map((word) => [word, attribute])),
);

/**
 * The words related to each of a question's words, with the share of the word itself each
 * counts, and how many of them (the first) are WordNet's: a word's synonyms and related forms
 * (RELATED_WEIGHT), then the words used where it is used, its GloVe neighbours, by how alike
 * (NEIGHBOUR_WEIGHT × similarity). A name's related words are what a well-known person is
 * ("Vivaldi" → composer): they find memories naming others of the kind ("Bach"), whose kinds
 * are indexed as their own words; a name has no neighbours (the file holds only lower-case
 * words, and "Rose" the person is not a flower). Only WordNet's are looked for as classes too.
 */
export function relatedOfTerms(
  asked: string,
  terms: readonly string[],
  names: readonly string[],
): { related: string[][]; shares: number[][]; classCounts: number[] } {
  const related = terms.map((term) =>
    (names.includes(term) ? personClasses(nameAsWritten(asked, term)).slice(0, MAX_RELATED) : relatedWords(term)).filter(
      (word) => !terms.includes(word),
    ),
  );
  const shares = related.map((words) => words.map(() => RELATED_WEIGHT));
  const classCounts = related.map((words) => words.length);
  terms.forEach((term, index) => {
    if (names.includes(term)) return;
    const words = related[index]!;
    for (const neighbour of neighbourWords(term)) {
      if (terms.includes(neighbour.word) || words.includes(neighbour.word)) continue;
      words.push(neighbour.word);
      shares[index]!.push(NEIGHBOUR_WEIGHT * neighbour.similarity);
    }
  });
  return { related, shares, classCounts };
}

/**
 * The question's words as recall scores them, from the lexemes of each term and of its related
 * words (as lexemesAndVersion gives them: one list per term, then one per related word, in order)
 * and what relatedOfTerms said of those: `lexemes` every lexeme met, `position` a lexeme's place
 * among them (added when new). Only WordNet's related words (the first `classCounts` of a term's)
 * are looked for as classes of what memories name. `neighbourOnly` holds the lexemes only a
 * neighbour gives (no question word or WordNet word has them): they score what the rest brings in
 * and bring in nothing themselves. Brought in, memories sharing only a neighbour filled the top ten
 * of small spaces (bench:chats: 92 → 118 words in the top 10) and ranked a little worse on LoCoMo.
 */
export function queryWordsOf(
  terms: readonly string[],
  names: readonly string[],
  lexemeLists: readonly string[][],
  { related, shares, classCounts }: { related: string[][]; shares: number[][]; classCounts: number[] },
  parts: ReturnType<typeof questionParts> | null,
): { lexemes: string[]; position: (lexeme: string) => number; words: QueryWord[]; neighbourOnly: Set<string> } {
  const lexemes: string[] = [];
  const position = (lexeme: string) => {
    let index = lexemes.indexOf(lexeme);
    if (index === -1) index = lexemes.push(lexeme) - 1;
    return index;
  };
  const words: QueryWord[] = [];
  // The lexemes of the question's words and their WordNet words, and of their neighbours.
  const bringing = new Set<string>();
  const neighbourLexemes = new Set<string>();
  let cursor = terms.length;
  terms.forEach((term, index) => {
    // One lexeme list per term, then one per related word (lexemesAndVersion keeps the order).
    const ownLexemes = lexemeLists[index] ?? [];
    const relatedCount = related[index]?.length ?? 0;
    const own = ownLexemes.map(position);
    const perRelated = lexemeLists.slice(cursor, cursor + relatedCount);
    const relatedLexemes = perRelated.flat().map(position);
    const relatedShares = perRelated.flatMap((list, at) => list.map(() => shares[index]![at]!));
    // The lexemes of WordNet's related words, the first classCounts of them.
    const classLexemes = perRelated.slice(0, classCounts[index]).flat();
    for (const lexeme of [...ownLexemes, ...classLexemes]) bringing.add(lexeme);
    for (const lexeme of perRelated.slice(classCounts[index]).flat()) neighbourLexemes.add(lexeme);
    cursor += relatedCount;
    if (own.length) {
      const name = names.includes(term);
      const broader = name ? [] : ownLexemes.map((lexeme) => position(BROADER_MARK + lexeme));
      const relatedBroader = name
        ? []
        : classLexemes.filter((lexeme) => !ownLexemes.includes(lexeme)).map((lexeme) => position(BROADER_MARK + lexeme));
      const kept = relatedLexemes.flatMap((lexeme, at) => (own.includes(lexeme) ? [] : [at]));
      words.push({
        own,
        related: kept.map((at) => relatedLexemes[at]!),
        shares: kept.map((at) => relatedShares[at]!),
        broader,
        relatedBroader,
        name,
        part: parts === null ? undefined : partOf(term, name, parts),
        attribute: ATTRIBUTE_WORDS[term],
        ...(NAME_ASKING.has(term) ? { asksName: true } : {}),
      });
    }
  });
  const neighbourOnly = new Set([...neighbourLexemes].filter((lexeme) => !bringing.has(lexeme)));
  return { lexemes, position, words, neighbourOnly };
}

/**
 * The one ranking behind search, context and ask, over current memories: how much of the
 * question a memory covers, each word weighted by how rare it is in the space (inverse
 * document frequency) and by where it matched (the fact itself, the rest of its message, or
 * the message it answers), with synonyms and related word forms from WordNet counting half
 * and words used where a question word is used (GloVe neighbours) less, by how alike they are;
 * plus Postgres's cover-density rank, whether the memory is about a person the question
 * names, whether it carries a date when the question asks when, and recency.
 */
export async function recall(
  db: Db,
  scope: Scope,
  question: string,
  options: {
    limit: number;
    kind: KindFilter;
    labels?: Labels;
    /** Apply the judgement whether anything is known (context and ask); false lists every match ranked. */
    judge?: boolean;
    /** When the question is asked: "last week" and "yesterday" are read against it. */
    now?: Date;
  },
): Promise<RecallResult> {
  const nothing: RecallResult = { memories: [], total: 0, counts: { all: 0, people: 0, plan: 0, pref: 0, detail: 0 }, empty: true };
  // A relative time ("last week") is a cue about when, not words to match ("last", "week").
  const time = options.now ? questionTime(question, options.now) : null;
  // A named time ("in July 2022") keeps its words: the learner writes them into dated memories.
  const asked = time?.phrase ? question.replace(time.phrase, ' ') : question;
  const terms = queryTerms(asked);
  if (!terms.length) return time ? recallSpan(db, scope, time, options) : nothing;
  const names = questionNames(asked);
  // Only the judgement reads what each word does (search lists every match without it).
  const parts = options.judge === false ? null : questionParts(asked);
  const { related, shares, classCounts } = relatedOfTerms(asked, terms, names);
  const timeWords = time?.words ?? [];
  const { lexemes: lexemeLists, version } = await lexemesAndVersion(db, scope, [...terms, ...related.flat(), ...timeWords]);
  // This process's copy of the space's index when it is current, else the store's own search.
  const copy = await memoryIndexOf(db).current(db, scope, version);
  // What the question is about, as one vector (its words' but the names'), against each memory's in the copy.
  const questionVector = copy ? textVector(terms.flatMap((term, index) => (names.includes(term) ? [] : (lexemeLists[index] ?? [])))) : null;
  const search = (request: LexemeSearch) => (copy ? Promise.resolve(copy.searchColumns(request)) : searchMemoryColumns(db, scope, request));

  const { lexemes, position, words, neighbourOnly } = queryWordsOf(terms, names, lexemeLists, { related, shares, classCounts }, parts);
  // The lexemes of the asked time's month and year words, read with the question's.
  const spanLexemes = lexemeLists.slice(lexemeLists.length - timeWords.length).flat();
  if (!words.length) return time ? recallSpan(db, scope, time, options, spanLexemes) : nothing;
  // The month and year words of the asked time score a memory that says them, bringing none in.
  const timeLexemes = time
    ? spanLexemes.filter((lexeme) => !words.some((word) => word.own.some((index) => lexemes[index] === lexeme))).map(position)
    : [];

  const factOnly = new Set(
    lexemes.filter((lexeme, index) => !lexeme.startsWith(BROADER_MARK) && !words.some((word) => word.own.includes(index))),
  );
  // Names bring in no memories of their own when the question has other words: in a space
  // about a few people they are everywhere. They still score what the other words bring in.
  const named = [
    ...words.filter((word) => word.name).flatMap((word) => word.own.map((index) => lexemes[index]!)),
    ...timeLexemes.map((index) => lexemes[index]!),
  ];
  // Nor do the neighbours (see queryWordsOf): they score what the rest brings in.
  const scoreOnly = new Set([...named, ...neighbourOnly]);
  // What was said in the time asked about comes in too, whatever its words.
  const said = time ? { start: time.start.getTime(), end: time.end.getTime() } : undefined;
  // So are the memories in a slot the question asks the value of, whatever their words.
  const slots = [...new Set(words.flatMap((word) => (word.attribute === undefined ? [] : [word.attribute])))];
  // Each search below asks the same but for which lexemes only score.
  const request = { lexemes, kind: options.kind, labels: options.labels, factOnly, said, slots };
  let found = await search({ ...request, scoreOnly });
  // A few hits mean a small space or rare words: then names bring in memories too.
  if (named.length && found.hits.length < FEW_HITS) {
    found = await search({ ...request, scoreOnly: neighbourOnly });
  } else {
    // A name few memories say brings in memories too, as a rare word does (rare-names.ts).
    const { hits: first, counts: firstCounts } = found;
    const rare = rareNames(names, terms, lexemeLists, firstCounts, found.total).filter(
      (lexeme) => !holdsAll(first, lexemes.indexOf(lexeme), firstCounts.get(lexeme)!),
    );
    if (rare.length) {
      const scoring = new Set([...scoreOnly].filter((lexeme) => !rare.includes(lexeme)));
      found = await search({ ...request, scoreOnly: scoring });
    }
  }
  const { hits, total, counts } = found;
  if (!hits.length) return time ? recallSpan(db, scope, time, options, spanLexemes) : nothing;

  const when = asksWhen(question);
  const known = lexemes.map((lexeme) => counts.get(lexeme));
  const span = time
    ? { start: time.start.getTime(), end: time.end.getTime(), lexemes: timeLexemes, words: timeWordsOf(words, lexemes, time, spanLexemes) }
    : undefined;
  const ranking = scoreHits(hits, total, words, lexemes.length, { names, when, time: span, view: asksView(question) }, known);
  if (questionVector) addDense(ranking, (places, count) => copy!.similaritiesOfHits(hits, places, count, questionVector));
  // Postgres's cover-density rank (how close together the words fall) orders the best few more finely.
  const best = Math.min(RERANKED, ranking.length);
  const ranked = {
    ids: Array.from(ranking.order.subarray(0, best), (place) => hits.id[place]!),
    lexemes: lexemes.filter((lexeme, index) => !lexeme.startsWith(BROADER_MARK) && !timeLexemes.includes(index)),
  };
  const ranks = copy ? copy.rank(ranked.ids, ranked.lexemes) : await rankMemories(db, scope, ranked.ids, ranked.lexemes);
  rerank(ranking, ranks, best);
  // Rank only raises the best few, which stay ahead of the rest: sorting them again is enough.
  sortPlaces(ranking.order, best, ranking.score, ranking.hits.id);
  // A question asking for several things of a kind: memories naming one of them gain (kind-cue.ts).
  const read = await cueKind(db, scope, ranking, question, terms, lexemeLists, Math.min(options.limit, MAX_SHOWN));
  if (read.size) sortPlaces(ranking.order, best, ranking.score, ranking.hits.id);
  // A question asking which thing known by a name: memories naming one gain (name-cue.ts). The
  // judgement below also reads the best memories as they were before, which the cue may push down.
  const asksFor = answerKindAsked(asked);
  const uncued = asksFor === 'name' ? ranking.order.slice(0, Math.min(MAX_SHOWN, ranking.length)) : null;
  if (uncued !== null) {
    await cueName(db, scope, ranking, asked, read);
    sortPlaces(ranking.order, best, ranking.score, ranking.hits.id);
  }
  diversify(ranking);
  // The talk around the best match tells the rest of it (nearby.ts); the best few keep their places.
  if (addNearby(ranking, best)) sortPlaces(ranking.order, best, ranking.score, ranking.hits.id);
  const kept = aboveFloor(ranking);
  if (!kept || (options.judge !== false && !bearsOn(ranking, words, names))) return nothing;
  const shown = Array.from(ranking.order.subarray(0, Math.min(options.limit, kept)));
  // A question only one kind of answer answers: the memories the judgement reads must give one (answer-kind.ts).
  const kind = options.judge === false ? null : asksFor;
  const judged =
    kind === null
      ? []
      : [
          ...new Set([
            ...bearingPlaces(ranking, names, words),
            ...(uncued === null ? [] : bearingPlaces({ ...ranking, order: uncued, length: uncued.length }, names, words)),
          ]),
        ];
  const wanted = [...new Set([...shown, ...judged].map((place) => hits.id[place]!))].filter((id) => !read.has(id));
  const rows = await loadMemories(db, scope, wanted);
  const byId = new Map([...read, ...rows.map((row) => [row.id, row] as const)]);
  if (kind !== null && !judged.some((place) => holdsKind(byId.get(hits.id[place]!), kind, asked))) return nothing;
  const memories = shown
    .map((place) => ({ row: byId.get(hits.id[place]!)!, score: ranking.score[place]! }))
    .filter((item) => item.row !== undefined);
  const byKind: Counts = { all: kept, people: 0, plan: 0, pref: 0, detail: 0 };
  for (let index = 0; index < kept; index++) byKind[hits.kinds[hits.kind[ranking.order[index]!]!]!] += 1;
  return { memories, total: kept, counts: byKind, empty: false };
}

/**
 * Adds to the memories' scores how alike each is to the question as word vectors (dense.ts's
 * cue) for what the question's words leave uncovered, and puts them back in order. Only the memories that could reach the best RERANKED with
 * it are compared (those within DENSE_MOST of the RERANKED-th): the best RERANKED are the same as
 * if all were, and a large space's common words bring in thousands that could not.
 */
export function addDense(
  ranking: Ranking,
  /** The likeness of each of the first `count` memories listed, given by their places in the ranking's hits. */
  similaritiesOf: (places: Int32Array, count: number) => Float32Array | null,
): void {
  const { hits, score, order } = ranking;
  const length = ranking.length;
  if (!length) return;
  const bound = score[order[Math.min(RERANKED, length) - 1]!]! - DENSE_MOST;
  let count = 0;
  while (count < length && score[order[count]!]! >= bound) count += 1;
  const similar = similaritiesOf(order.subarray(0, count), count);
  if (!similar) return;
  for (let index = 0; index < count; index++) {
    const place = order[index]!;
    // Mostly for what the question's words leave uncovered: one near the top of the scale would be
    // pushed to the cap of 1 with the others, losing what set it apart (said in the time asked
    // about, say). A memory saying all of them keeps COVERED_SHARE: among many such, it is what
    // sets them apart.
    const uncovered = ranking.coverage ? Math.max(COVERED_SHARE, 1 - ranking.coverage[place]!) : 1;
    const cue = uncovered * denseCue(similar[index]!) * (hits.flags[place]! & HIT_REPORTED ? REPORTED_WEIGHT : 1);
    score[place] = Math.min(1, score[place]! + cue);
  }
  sortPlaces(order, count, score, hits.id);
}

/**
 * The question's words that name the time it asks about, by place in `words`: its month and
 * year words, and the day's number when it names one day ("on 7 July 2023": "7", "july",
 * "2023"). A memory said in that time counts them as its own words (scoreHits): the learner
 * dates a memory only where its message said when, so what was said on the day ("Omar is off to
 * dinner with friends.") lost those words to memories naming another day of the same month.
 */
export function timeWordsOf(
  words: readonly QueryWord[],
  lexemes: readonly string[],
  time: QuestionTime,
  spanLexemes: readonly string[],
): number[] {
  const oneDay = time.end.getTime() - time.start.getTime() <= DAY_MS;
  const day = oneDay ? String(time.start.getUTCDate()) : null;
  const namesTime = (lexeme: string) => spanLexemes.includes(lexeme) || lexeme === day;
  return words.flatMap((word, index) =>
    !word.name && word.own.length > 0 && word.own.every((at) => namesTime(lexemes[at]!)) ? [index] : [],
  );
}

const DAY_MS = 86_400_000;

/**
 * The share of its score a memory keeps for being a speaker's remark about something other than
 * themselves: REPORTED_WEIGHT, as such remarks hold the answer less often than other memories;
 * but all of it when the question asks what someone says, thinks or feels of something
 * (asksView), whose answer such a remark is ("Ana said the cabin looks cosy."), or asks when and
 * the remark carries a date, which is the answer ("Omar said here is a photo from 3 May 2026.").
 */
export function reportedShare(flags: number, cues: { view?: boolean; when: boolean }): number {
  if (!(flags & HIT_REPORTED)) return 1;
  if (cues.view === true || (cues.when && flags & HIT_DATED)) return 1;
  return REPORTED_WEIGHT;
}

/** Adds Postgres's cover-density rank (0..0.5 and more, saturating at 0.5) to the scores of the best `count` memories listed (all by default). */
export function rerank(ranking: Ranking, ranks: ReadonlyMap<number, number>, count = ranking.length): void {
  const { score, order } = ranking;
  for (let index = 0; index < Math.min(count, ranking.length); index++) {
    const place = order[index]!;
    score[place] = Math.min(1, score[place]! + RANK_WEIGHT * Math.min(1, 2 * (ranks.get(ranking.hits.id[place]!) ?? 0)));
  }
}

/**
 * Keeps listed the memories worth returning, best first: above FLOOR, and past the most any
 * caller is shown, near the best. Returns how many are left listed.
 */
export function aboveFloor(ranking: Ranking): number {
  const { score, order } = ranking;
  const tailFloor = Math.max(FLOOR, RELATIVE_FLOOR * (ranking.length ? score[order[0]!]! : 0));
  let kept = 0;
  for (let index = 0; index < ranking.length; index++) {
    const place = order[index]!;
    if (score[place]! >= (index < MAX_SHOWN ? FLOOR : tailFloor)) order[kept++] = place;
  }
  ranking.length = kept;
  return kept;
}

/** Whether what is stored bears on the question: the judgement behind context's and ask's "nothing stored". */
export function bearsOn(kept: Ranking, words: QueryWord[], names: string[]): boolean {
  return judge(kept, names, words) >= KNOWN_THRESHOLD || saysAboutNamed(kept, words, names);
}

/** The score of a memory found for a question about a time alone: said in the span, or only naming it. */
export function spanScore(said: boolean): number {
  return said ? SAID_IN_SPAN : MENTIONS_SPAN;
}

/**
 * A question about a time with no other words ("What did I do last week?"): the memories said
 * in that span, or saying its month and year, newest first. Said in it scores SAID_IN_SPAN,
 * only naming it MENTIONS_SPAN.
 */
async function recallSpan(
  db: Db,
  scope: Scope,
  time: QuestionTime,
  options: { limit: number; kind: KindFilter; labels?: Labels },
  /** The lexemes of the span's words, when the caller has read them already. */
  known?: string[],
): Promise<RecallResult> {
  const lexemes = known ?? (await lexemesAndVersion(db, scope, time.words)).lexemes.flat();
  const found = await memoriesInSpan(db, scope, { start: time.start, end: time.end, lexemes, kind: options.kind, labels: options.labels });
  const counts: Counts = { all: found.length, people: 0, plan: 0, pref: 0, detail: 0 };
  for (const item of found) counts[item.kind] += 1;
  const shown = found.slice(0, options.limit);
  const rows = await loadMemories(
    db,
    scope,
    shown.map((item) => item.id),
  );
  const said = new Set(shown.filter((item) => item.said).map((item) => item.id));
  const memories = rows.map((row) => ({ row, score: spanScore(said.has(row.id)) }));
  return { memories, total: found.length, counts, empty: found.length === 0 };
}

/** How many of the best memories the judgement looks at. */
const JUDGED = 10;

/**
 * How well what is stored bears on the question, for the judgement whether anything is known:
 * the most of the question's (weighted) words that one of the best memories says in its own
 * words, its surroundings aside; when the question names a name the space knows (a person, a
 * pet, a place), only memories about that name count ("What did Omar paint?" is not answered by
 * what Ana painted).
 */
export function judge(ranking: Ranking, names: string[], words: QueryWord[] = []): number {
  let best = 0;
  for (const place of judgedPlaces(ranking, names, words)) best = Math.max(best, ranking.direct[place]!);
  return best;
}

/**
 * The memories the judgement reads, by place: the best JUDGED about a name the question names
 * when there are any, else the best JUDGED. Only as many memories are looked at as it takes to
 * find them (a large space brings in thousands).
 */
export function judgedPlaces(ranking: Ranking, names: string[], words: QueryWord[] = []): number[] {
  const { hits, order } = ranking;
  const places: number[] = [];
  if (names.length) {
    for (let index = 0; index < ranking.length && places.length < JUDGED; index++) {
      const place = order[index]!;
      if (isAboutName(hits, place, names, words)) places.push(place);
    }
  }
  if (places.length) return places;
  return Array.from(order.subarray(0, Math.min(JUDGED, ranking.length)));
}

/**
 * The memories that bear on the question by what it is about, for the check of the kind of answer
 * asked (answer-kind.ts): of those the judgement reads and of the best JUDGED whatever they are
 * about (a name the question names, "Italian" in "What is my Italian teacher called?", may hold the
 * answer's memory back from the first), those saying at least KIND_THRESHOLD of the question's
 * words other than those asking for a name (Ranking.about); and, of these and of the best
 * MAX_SHOWN (what a context block chooses from), those saying any of it within NEAR_MESSAGES
 * messages of one of them. The same whatever the limit asked, so context and ask agree.
 */
export function bearingPlaces(ranking: Ranking, names: string[], words: QueryWord[]): number[] {
  const { hits, order } = ranking;
  const about = ranking.about ?? ranking.direct;
  const best = Array.from(order.subarray(0, Math.min(JUDGED, ranking.length)));
  const places = [...new Set([...judgedPlaces(ranking, names, words), ...best])];
  const bearing = places.filter((place) => about[place]! >= KIND_THRESHOLD);
  // The talk around one of them tells the rest of it ("Pepper swallowed a button." — "The vet's
  // bill was 300 euros."; "Greta adopted a second kitten." — "Its name is Fig."): the learner writes
  // one memory per sentence. Not what was said of nothing asked ("Bram would rather have a
  // rabbit." beside "Lotte keeps asking for a hamster.").
  const messages = bearing.flatMap((place) => messageAt(hits, place) ?? []);
  const isBearing = new Set(bearing);
  const near = (place: number) => {
    const message = messageAt(hits, place);
    return (
      message !== null &&
      messages.some((other) => other.source === message.source && Math.abs(other.index - message.index) <= NEAR_MESSAGES)
    );
  };
  const reach = order.subarray(0, Math.min(MAX_SHOWN, ranking.length));
  const nearBy = [...new Set([...places, ...reach])].filter((place) => !isBearing.has(place) && about[place]! > 0 && near(place));
  return [...bearing, ...nearBy];
}

/** How many messages away a memory may be said from one bearing on the question and tell the rest of it (bearingPlaces). */
const NEAR_MESSAGES = 2;

/**
 * Whether one of the best memories about a person the question names says, in its own words,
 * another word of the question (or, for a memory whose subject is the name, in the message it
 * answers). A request in chat ("Book a vegetarian table for Dan.") mostly
 * holds words of the task, not of what is stored; "Dan is vegetarian." still bears on it. A
 * question whose only match is the name ("What is Dan's favourite colour?") stays unknown.
 */
export function saysAboutNamed(ranking: Ranking, words: QueryWord[], names: string[]): boolean {
  if (!names.length) return false;
  const others = words.filter((word) => !word.name).flatMap((word) => word.own);
  const { hits, order } = ranking;
  for (let index = 0; index < Math.min(JUDGED, ranking.length); index++) {
    const place = order[index]!;
    if (!isAboutName(hits, place, names, words)) continue;
    // A memory whose subject is the name may say the rest in the message it answers: "Does Dan
    // eat fish?" — "He's vegetarian." is learned "Dan is vegetarian.", and bears on "What does Dan eat?".
    const subject = isSubjectNamed(hits.abouts[hits.about[place]!]!, names);
    for (const lexeme of others) if (levelAt(hits, place, lexeme) >= (subject ? ANSWERED_WORDS : OWN_WORDS)) return true;
  }
  return false;
}

/** A lexeme's match level when the message a memory answers holds it (the lowest level that matches). */
const ANSWERED_WORDS = 1;

/** The level of lexeme `lexeme` in the memory at `place` (0 for a lexeme past the columns' width). */
function levelAt(hits: HitColumns, place: number, lexeme: number): number {
  return lexeme < hits.width ? hits.levels[place * hits.width + lexeme]! : 0;
}

/** Whether a memory's own words say every one of some lexemes (none: no). */
function saysAll(hits: HitColumns, place: number, lexemes: readonly number[]): boolean {
  if (!lexemes.length) return false;
  for (const lexeme of lexemes) if (levelAt(hits, place, lexeme) !== OWN_WORDS) return false;
  return true;
}

/** A lexeme's match level when the memory's own words (or names) hold it. */
const OWN_WORDS = 3;

/**
 * Whether a memory is about a name the question names: among the names it is about, or in its
 * own words. A pet, a thing or a place is named in a memory's words as a person is ("Pip ate a
 * sock."), though the learner lists only some of them as what the memory is about.
 */
export function isAboutName(hits: HitColumns, place: number, names: string[], words: QueryWord[]): boolean {
  // Loops, not closures: this runs for each of the thousands of memories a large space brings in.
  for (const known of hits.abouts[hits.about[place]!]!) for (const name of names) if (isName(known, name)) return true;
  for (const word of words) {
    if (!word.name) continue;
    for (const lexeme of word.own) if (levelAt(hits, place, lexeme) === OWN_WORDS) return true;
  }
  return false;
}

/**
 * Whether a memory's subject is a name the question names: the first of the names it is about,
 * which is the speaker the learner writes a fact of (or the first name its sentence says). A
 * memory naming the asked person after another ("Bea said Ana's cake looks great", "Bea can't
 * wait to see Ana's garden") is the other's remark; on LoCoMo such memories were almost never the
 * evidence of a question naming one person (none of 226 in the best ten of the tune half's
 * multi-hop and open-domain questions).
 */
export function isSubjectNamed(about: readonly string[], names: readonly string[]): boolean {
  const [first] = about;
  if (first === undefined) return false;
  for (const name of names) if (isName(first, name)) return true;
  return false;
}

const isName = (known: string, name: string) => {
  const lower = known.toLowerCase();
  return lower === name || lower.startsWith(`${name} `);
};

/**
 * Several facts of one message share its context, so they tend to rank together; each
 * further fact of a message already listed gives way a little to other messages' facts.
 */
export function diversify(ranking: Ranking): void {
  const { hits, score, order } = ranking;
  const length = ranking.length;
  const byScore = byScoreOf(ranking);
  const texts = hits.texts.length;
  const listed = new Map<number | string, number>();
  // Those left as they were keep their order; those given way are sorted apart and merged back
  // in, which is the full sort's order (by score, then id: no two alike) at a fraction of its cost.
  const places = new Int32Array(2 * length);
  const kept = places.subarray(0, length);
  const lowered = places.subarray(length);
  let keptCount = 0;
  let loweredCount = 0;
  for (let index = 0; index < length; index++) {
    const place = order[index]!;
    const text = hits.passage[place]!;
    // A memory alone shares its context with none.
    if (text === -1) {
      kept[keptCount++] = place;
      continue;
    }
    // One number per passage (its text and message index), exact below 2^53; else a string.
    const message = hits.passageIndex[place]!;
    const number = (message + 1) * texts + text;
    const key = Number.isSafeInteger(number) ? number : `${text}:${message}`;
    const count = listed.get(key) ?? 0;
    if (count > 0) {
      score[place]! *= SAME_PASSAGE ** count;
      lowered[loweredCount++] = place;
    } else {
      kept[keptCount++] = place;
    }
    listed.set(key, count + 1);
  }
  for (let index = 1; index < keptCount; index++) {
    if (byScore(kept[index - 1]!, kept[index]!) > 0) {
      // Not given in order: the full sort.
      order.subarray(0, length).sort(byScore);
      return;
    }
  }
  if (!loweredCount) return;
  lowered.subarray(0, loweredCount).sort(byScore);
  let from = 0;
  let other = 0;
  for (let index = 0; index < length; index++) {
    order[index] =
      other >= loweredCount || (from < keptCount && byScore(kept[from]!, lowered[other]!) <= 0) ? kept[from++]! : lowered[other++]!;
  }
}

/**
 * The memories a search found, scored: by place in the search's columns, each memory's score
 * and how much of the question its own words (not its surroundings) cover, and the places best
 * first. Only the memories returned are ever made objects of (see `listed`).
 */
export interface Ranking {
  hits: HitColumns;
  score: Float64Array;
  /**
   * The share of the question's words the memory says itself (or by its slot, or, for the kind
   * of answer asked for, by naming a kind of it), each weighted as the judgement weighs it: a
   * word nothing stored says by what it does in the question (UNSEEN_THING_WEIGHT, UNSEEN_MANNER_WEIGHT).
   */
  direct: Float64Array;
  /**
   * `direct` without the words asking for a name ("name", "called"), when scored here: how much of
   * what the question is about the memory says ("The boat is named Wren." says the "name" of
   * "What is the landlord's name?" and nothing of the landlord).
   */
  about?: Float64Array;
  /** How much of the question's weighted words the memory covers where it says them (0..1; see scoreHits), when scored here. */
  coverage?: Float64Array;
  /** Places, best first; the first `length` are listed (`aboveFloor` drops some). */
  order: Int32Array;
  length: number;
}

/** A memory's score, and how much of the question its own words cover (see Ranking): one listed memory as an object. */
export interface Scored {
  hit: LexemeHit;
  score: number;
  direct: number;
}

/** The memories listed, best first, as objects (tests, and anything that needs a few). */
export function listed(ranking: Ranking): Scored[] {
  return Array.from(ranking.order.subarray(0, ranking.length), (place) => ({
    hit: hitAt(ranking.hits, place),
    score: ranking.score[place]!,
    direct: ranking.direct[place]!,
  }));
}

/** A ranking of memories already scored, in the order given (tests). */
export function rankingOf(scored: readonly Scored[]): Ranking {
  const length = scored.length;
  const order = new Int32Array(length);
  for (let place = 0; place < length; place++) order[place] = place;
  return {
    hits: columnsOf(scored.map((item) => item.hit)),
    score: Float64Array.from(scored, (item) => item.score),
    direct: Float64Array.from(scored, (item) => item.direct),
    order,
    length,
  };
}

/** Scores memories for a question's words; exported for tests. Best first. */
export function scoreHits(
  hits: HitColumns,
  total: number,
  words: QueryWord[],
  lexemeCount: number,
  cues: {
    names: string[];
    when: boolean;
    /** The time asked about: its span, the lexemes of its month and year, and the question's words naming it (timeWordsOf). */
    time?: { start: number; end: number; lexemes: number[]; words?: number[] };
    /** Whether the question asks what someone says, thinks or feels (asksView). */
    view?: boolean;
  },
  /** Memories per lexeme where the hits do not show them all (lexemes that brought none in). */
  known: (number | undefined)[] = [],
): Ranking {
  const length = hits.length;
  const width = hits.width;
  const levels = hits.levels;
  const documents = Math.max(total, length);
  const frequency = lexemeCounts(hits, Math.max(lexemeCount, width));
  // Whether any memory brought in holds each lexeme: one none holds scores nobody.
  const held = frequency.map((count) => count > 0);
  known.forEach((count, index) => count !== undefined && (frequency[index] = Math.max(frequency[index] ?? 0, count)));
  const idf = frequency.map((count) => Math.log(1 + (documents - count + 0.5) / (count + 0.5)));
  /** A lexeme's rarity; every lexeme of the question's words is below lexemeCount. */
  const idfOf = (lexeme: number) => idf[lexeme]!;
  const rarest = Math.log(1 + (documents + 0.5) / 0.5);
  const stored = (lexeme: number) => (frequency[lexeme] ?? 0) > 0;
  // Whether any memory says each word itself.
  const stated = words.map((word) => word.own.some(stored));
  const weights = words.map((word, index) => (stated[index] ? Math.max(...word.own.filter(stored).map(idfOf)) : rarest * UNSEEN_WEIGHT));
  const sum = weights.reduce((left, right) => left + right, 0);
  // A thing no memory says but one names a kind of ("terrier" for "dog") is stored under that name.
  const namedAsKind = words.map((word, index) => (stated[index] || word.part === 'answer' ? [] : word.broader.filter(stored)));
  // The judgement weighs a word nothing stored says by what it does in the question.
  const judged = words.map((word, index) =>
    stated[index] ? weights[index]! : rarest * ((word.part ?? 'thing') === 'thing' ? UNSEEN_THING_WEIGHT : UNSEEN_MANNER_WEIGHT),
  );
  const judgedSum = judged.reduce((left, right) => left + right, 0);
  const aboutSum = judged.reduce((total, weight, index) => (words[index]!.asksName === true ? total : total + weight), 0);
  // What each word scores a memory for, worked out once for all the memories: a memory naming a
  // kind of the word (or of its related words), each class no more than its own rarity; a
  // related word by its own rarity too ("go" for "moved" is worth little); the slot it asks about.
  // A lexeme past the columns' width is in no memory: it is left out (-1). A related word or a
  // class no memory brought in holds is dropped whole: it would only cost each memory a look (a
  // word's WordNet words and neighbours are a dozen lexemes, most of them in few memories or none).
  const inColumns = (lexeme: number) => (lexeme < width ? lexeme : -1);
  const inAny = (entry: readonly [number, number]) => entry[0] !== -1 && held[entry[0]] === true;
  const scoring = words.map((word, index) => {
    const weight = weights[index]!;
    return {
      own: word.own.map(inColumns),
      slot: word.attribute === undefined ? null : `|${word.attribute}`,
      // A memory naming a kind of the answer asked for ("cello" for "Which instrument…") says it too.
      answerKinds: (word.part === 'answer' ? word.broader : []).map(inColumns),
      // A thing no memory says, named by a kind of it ("terrier" for "dog"): said where the memory says more of the question.
      thingKinds: namedAsKind[index]!.map(inColumns),
      kindWeight: namedAsKind[index]!.length ? Math.max(...namedAsKind[index]!.map(idfOf)) : 0,
      classes: [
        ...word.broader.map((lexeme) => [lexeme, BROADER_WEIGHT] as const),
        ...word.relatedBroader.map((lexeme) => [lexeme, RELATED_BROADER_WEIGHT] as const),
      ]
        .map(([lexeme, share]) => [inColumns(lexeme), share * Math.min(1, idfOf(lexeme) / Math.max(weight, 1e-9))] as const)
        .filter(inAny),
      related: word.related
        .map(
          (lexeme, at) =>
            [inColumns(lexeme), (word.shares?.[at] ?? RELATED_WEIGHT) * Math.min(1, idfOf(lexeme) / Math.max(weight, 1e-9))] as const,
        )
        .filter(inAny),
      weight,
      judged: judged[index]!,
      asksName: word.asksName === true,
      namesTime: cues.time?.words?.includes(index) === true,
    };
  });
  const { newest, oldest } = createdSpan(hits);
  // Whether the first name a memory is about is one the question names, once per list of names met.
  const namedCache = new Map<number, boolean>();
  const isNamed = (about: number) => {
    let named = namedCache.get(about);
    if (named === undefined) {
      named = isSubjectNamed(hits.abouts[about]!, cues.names);
      namedCache.set(about, named);
    }
    return named;
  };
  // Whether the question names the subject of any memory found: then the memories whose subject
  // is someone else are about another (OTHER_SUBJECT_WEIGHT). A name no memory has for its subject
  // ("Lisbon" where only the user's memories say it) leaves every memory as it is.
  let namesASubject = false;
  if (cues.names.length > 0) for (let place = 0; place < length && !namesASubject; place++) namesASubject = isNamed(hits.about[place]!);

  const buffer = new ArrayBuffer(length * (8 + 8 + 8 + 8 + 4));
  const score = new Float64Array(buffer, 0, length);
  const direct = new Float64Array(buffer, 8 * length, length);
  const covers = new Float64Array(buffer, 16 * length, length);
  const about = new Float64Array(buffer, 24 * length, length);
  const order = new Int32Array(buffer, 32 * length, length);
  // Indexed loops over the columns: this runs for each of the thousands of memories a large
  // space brings in, and makes no object for any of them.
  for (let place = 0; place < length; place++) {
    const from = place * width;
    const slot = hits.slot[place]!;
    const slotText = slot === -1 ? null : hits.texts[slot]!;
    let covered = 0;
    let ownWords = 0;
    let aboutWords = 0;
    let kindWords = 0;
    let kindShift = 0;
    const said = hits.said[place]!;
    const saidInTime = cues.time !== undefined && said >= cues.time.start && said < cues.time.end;
    for (let wordIndex = 0; wordIndex < scoring.length; wordIndex++) {
      const word = scoring[wordIndex]!;
      // Said in the time asked about: the words naming it are as good as said (timeWordsOf).
      let match = saidInTime && word.namesTime ? 1 : 0;
      let saysOwn = false;
      for (let index = 0; index < word.own.length; index++) {
        const lexeme = word.own[index]!;
        const found = lexeme === -1 ? 0 : levels[from + lexeme]!;
        match = Math.max(match, LEVEL_WEIGHT[found] ?? 0);
        if (found === OWN_WORDS) saysOwn = true;
      }
      const inSlot = word.slot !== null && slotText !== null && slotText.endsWith(word.slot);
      if (inSlot) match = 1;
      let saysKind = false;
      for (let index = 0; index < word.answerKinds.length; index++) {
        const lexeme = word.answerKinds[index]!;
        if (lexeme !== -1 && levels[from + lexeme] === OWN_WORDS) saysKind = true;
      }
      if (inSlot || saysOwn || saysKind) {
        ownWords += word.judged;
        if (!word.asksName) aboutWords += word.judged;
      } else {
        for (let index = 0; index < word.thingKinds.length; index++) {
          const lexeme = word.thingKinds[index]!;
          if (lexeme !== -1 && levels[from + lexeme] === OWN_WORDS) {
            // For this memory the thing is stored, under that kind's name: weighed as that name is rare.
            kindWords += word.kindWeight;
            kindShift += word.kindWeight - word.judged;
            break;
          }
        }
      }
      for (let index = 0; index < word.classes.length; index++) {
        const kind = word.classes[index]!;
        if (kind[0] !== -1 && levels[from + kind[0]]) match = Math.max(match, kind[1]);
      }
      for (let index = 0; index < word.related.length; index++) {
        const related = word.related[index]!;
        match = Math.max(match, related[1] * (LEVEL_WEIGHT[related[0] === -1 ? 0 : levels[from + related[0]]!] ?? 0));
      }
      covered += word.weight * match;
    }
    const coverage = sum > 0 ? covered / sum : 0;
    covers[place] = coverage;
    const flags = hits.flags[place]!;
    const named = cues.names.length > 0 && isNamed(hits.about[place]!);
    const created = hits.created[place]!;
    const recency = newest > oldest ? (created - oldest) / (newest - oldest) : 1;
    // Said in the span asked about, or saying its month and year in its own words.
    const inTime = cues.time !== undefined && (saidInTime || saysAll(hits, place, cues.time.lexemes));
    const total =
      COVERAGE_WEIGHT * coverage +
      (named ? NAME_CUE : 0) +
      (cues.when && flags & HIT_DATED ? DATE_CUE : 0) +
      (inTime ? TIME_CUE : 0) +
      RECENCY_WEIGHT * recency;
    const aboutOther = namesASubject && !named && hits.abouts[hits.about[place]!]!.length > 0;
    score[place] = Math.min(1, total) * reportedShare(flags, cues) * (aboutOther ? OTHER_SUBJECT_WEIGHT : 1);
    // A kind of a thing asked counts where the memory says another word of the question itself
    // (a thing is no word asking for a name: those ask for the answer, so `about` shifts alike).
    const kindCounts = ownWords > 0 && kindWords > 0;
    const ownSum = kindCounts ? judgedSum + kindShift : judgedSum;
    const aboutOwnSum = kindCounts ? aboutSum + kindShift : aboutSum;
    if (kindCounts) {
      ownWords += kindWords;
      aboutWords += kindWords;
    }
    direct[place] = ownSum > 0 ? ownWords / ownSum : 0;
    about[place] = aboutOwnSum > 0 ? aboutWords / aboutOwnSum : direct[place]!;
    order[place] = place;
  }
  const ranking: Ranking = { hits, score, direct, about, coverage: covers, order, length };
  // The order byScoreOf gives, without a comparator's call for each of the thousands of comparisons.
  sortPlaces(order, length, score, hits.id);
  return ranking;
}
