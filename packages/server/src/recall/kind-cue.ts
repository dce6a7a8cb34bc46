import { stemmer } from 'stemmer';
import type { Db } from '../store/database.js';
import { HIT_REPORTED } from '../store/hit-columns.js';
import { loadMemories, type MemoryRow } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { askedWord } from './answer-span.js';
import type { CuedRanking } from './cued-ranking.js';
import { denseCue, stemRow, textVector } from './dense.js';
import { REPORTED_WEIGHT } from './weights.js';

/**
 * The kind cue. A question asking for several things of a kind ("What instruments does Ines
 * play?", "Which events has Ines been to?") is answered by memories that each name one of them
 * ("Ines plays the cello", "Ines marched in the parade"), seldom by the word for the kind itself;
 * the memories that do say it are often talk about the kind ("Ines has no time for instruments").
 * WordNet's classes link few such pairs within the steps indexed, and a memory's averaged word
 * vector (dense.ts) blurs its one telling word among the rest. So each of the best memories gains as
 * the dense cue does (DENSE_WEIGHT × (cosine − DENSE_FLOOR)) for its word closest to the kind
 * asked for, the kind's own word aside (the words already score it).
 *
 * On LoCoMo's development set (`npm run bench:locomo`), multi-hop R@10 53.3 → 54.5 on the tune
 * half and 50.0 → 51.0 on the confirm half, the other categories unchanged (few of their questions
 * ask for a plural kind). Looking at the best 25, 30, 40 or 60 gave the same; a floor of 0.25 less.
 */

/** How many of the best memories the cue looks at (their texts are read from the store). */
export const KIND_CUED = 30;

/** Words that end in "s" but name no plural kind, read before the tagger is asked. */
const NOT_PLURAL = new Set(['does', 'this', 'hers', 'ours', 'yours', 'theirs', 'always', 'perhaps']);

/**
 * The noun a question asks several of, as asked ("activities" for "What activities does Ines
 * enjoy?", "cities" for "Which cities has Ines visited?"), or null: a singular kind ("What sport…")
 * wants one answer, which the ranking finds as it is. The tagger (askedWord) is asked only when a
 * word of the four after "what" or "which" may be a plural.
 */
export function severalAsked(question: string): string | null {
  const opening = /^\s*(?:what|which)\s+((?:[\p{L}'’+-]+\s+){0,3}[\p{L}'’+-]+)/iu.exec(question);
  if (!opening) return null;
  const maybe = opening[1]!
    .toLowerCase()
    .split(/\s+/)
    .some((word) => word.length > 3 && word.endsWith('s') && !/ss$|['’]s$/u.test(word) && !NOT_PLURAL.has(word));
  if (!maybe) return null;
  const word = askedWord(question);
  return word && word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && stemmer(word) !== word ? word : null;
}

/**
 * A text's words as stems (Porter's, the `stemmer` package: Postgres's English stemmer, which made
 * the vectors' keys, is its successor and stems nearly all words alike; a word stemmed otherwise
 * has no vector and is passed over). Without a round trip to the store.
 */
export function textStems(text: string): string[] {
  const stems = new Set<string>();
  for (const word of text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? []) {
    const stem = stemmer(word.replace(/['’]s$/u, ''));
    // Porter turns a final "y" after a vowel into "i" ("playing" → "plai"), its successor only after a consonant ("play").
    const kept = stem.endsWith('i') && stemRow(stem) === -1 ? `${stem.slice(0, -1)}y` : stem;
    stems.add(stemRow(kept) === -1 ? stem : kept);
  }
  return [...stems];
}

/**
 * How alike a text's closest word is to the kind asked for: the largest cosine of `kind` (a unit
 * vector) and the vector of each of `stems`, those in `skip` (the kind's own) left out; 0 for none.
 */
export function closestToKind(kind: Float32Array, stems: readonly string[], skip: readonly string[], cache: Map<string, number>): number {
  let best = 0;
  for (const stem of stems) {
    if (skip.includes(stem)) continue;
    let cosine = cache.get(stem);
    if (cosine === undefined) {
      cosine = 0;
      const vector = textVector([stem]);
      if (vector) for (let index = 0; index < vector.length; index++) cosine += vector[index]! * kind[index]!;
      cache.set(stem, cosine);
    }
    if (cosine > best) best = cosine;
  }
  return best;
}

/**
 * Adds the kind cue to the first `count` memories listed, their stems given by id. Only raises
 * scores: the caller puts the best places back in order.
 */
export function addKindCue(
  ranking: CuedRanking,
  kind: Float32Array,
  kindStems: readonly string[],
  stemsOf: ReadonlyMap<number, readonly string[]>,
  count: number,
): void {
  const { hits, score, order } = ranking;
  const cache = new Map<string, number>();
  for (let index = 0; index < Math.min(count, ranking.length); index++) {
    const place = order[index]!;
    const stems = stemsOf.get(hits.id[place]!);
    if (!stems) continue;
    const cue = denseCue(closestToKind(kind, stems, kindStems, cache)) * (hits.flags[place]! & HIT_REPORTED ? REPORTED_WEIGHT : 1);
    score[place] = Math.min(1, score[place]! + cue);
  }
}

/**
 * The kind cue for a question asking for several things of a kind (see the module's comment):
 * reads the best KIND_CUED memories, stems their texts (textStems), and adds the cue.
 * Returns the memories read, by id, for the caller to return without reading them again (none
 * when the question asks for no plural kind or no vector is known for it): the best `reading`.
 */
export async function cueKind(
  db: Db,
  scope: Scope,
  ranking: CuedRanking,
  question: string,
  terms: readonly string[],
  termLexemes: readonly string[][],
  /** How many of the best memories to read (at least KIND_CUED): those the caller will return, to read them once. */
  reading = KIND_CUED,
): Promise<Map<number, MemoryRow>> {
  const read = new Map<number, MemoryRow>();
  const asked = severalAsked(question);
  const at = asked === null ? -1 : terms.indexOf(asked);
  if (at === -1) return read;
  const kindStems = termLexemes[at] ?? [];
  const kind = textVector(kindStems);
  if (!kind || !ranking.length) return read;
  const ids = Array.from(
    ranking.order.subarray(0, Math.min(Math.max(KIND_CUED, reading), ranking.length)),
    (place) => ranking.hits.id[place]!,
  );
  const rows = await loadMemories(db, scope, ids);
  for (const row of rows) read.set(row.id, row);
  const stemsOf = new Map(rows.map((row) => [row.id, textStems(row.text)]));
  addKindCue(ranking, kind, kindStems, stemsOf, KIND_CUED);
  return read;
}
