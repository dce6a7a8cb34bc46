import type { Db } from '../store/database.js';
import { loadMemories, type MemoryRow } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { holdsKind } from './answer-kind.js';
import type { CuedRanking } from './cued-ranking.js';

/**
 * The name cue. A question asking which thing of a kind known by a name ("Which team did Ana sign
 * with?", "What city did Ben suggest?", "What is her dog called?": answer-kind.ts's `name`) is
 * answered by a memory that names one ("Ana said the Harbour Gulls."), often in a few words
 * that share little of the question, below memories that repeat the question's words and name
 * nothing ("Ana is excited about her new team."). So each of the best memories that holds a name
 * of the kind asked gains NAME_CUE of what it lacks of the top score (so that it keeps its order
 * among the others lifted, and none reaches 1 to tie there).
 */

/** How many of the best memories the cue reads. */
export const NAME_CUED = 30;
/** The share of what a memory naming one of the kind asked lacks of the top score (1) that it gains. */
export const NAME_CUE = 0.2;

/**
 * Lifts the first `count` memories listed that hold a name of the kind `question`
 * asks (rows by id; a memory not among them gains nothing). Only raises scores: the caller puts
 * the best places back in order.
 */
export function addNameCue(ranking: CuedRanking, question: string, rows: ReadonlyMap<number, MemoryRow>, count: number): void {
  const { hits, score, order } = ranking;
  for (let index = 0; index < Math.min(count, ranking.length); index++) {
    const place = order[index]!;
    // A share of what the memory lacks of the top score: no memory passes 1, and two near it do not tie there.
    if (holdsKind(rows.get(hits.id[place]!), 'name', question)) score[place] = score[place]! + NAME_CUE * (1 - score[place]!);
  }
}

/**
 * The name cue for a question asking for a name (answer-kind.ts's `name`; the caller asks, see
 * the module's comment): reads the best NAME_CUED memories not in `read` into it, and adds the cue.
 */
export async function cueName(db: Db, scope: Scope, ranking: CuedRanking, question: string, read: Map<number, MemoryRow>): Promise<void> {
  const ids = Array.from(ranking.order.subarray(0, Math.min(NAME_CUED, ranking.length)), (place) => ranking.hits.id[place]!);
  const missing = ids.filter((id) => !read.has(id));
  if (missing.length) for (const row of await loadMemories(db, scope, missing)) read.set(row.id, row);
  addNameCue(ranking, question, read, NAME_CUED);
}
