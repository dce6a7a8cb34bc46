import { type HitColumns, splitPassage } from '../store/hit-columns.js';
import type { CuedRanking } from './cued-ranking.js';

/**
 * The talk around the best match. What a question asks is often told over a few messages of one
 * conversation: "We finally booked the cabin by the lake." is the best match for "What did Ines
 * plan for the summer?", and two messages on "She wants to teach the kids to fish there." says the
 * rest without a word of the question. So the memories of messages near the best memory's, in the
 * same source (a chat, a saved conversation), gain NEARBY_CUE. Only the best one's neighbours: the
 * second and third best are as often off the point as on it, and their neighbours crowded out
 * better memories (on LoCoMo's tune half, multi-hop R@10 fell when the best two gave the cue).
 * A neighbour tells the rest of what the best match says, seldom the answer itself: it is never
 * raised above the best NEARBY_KEPT, which the question's own words found (ask reads the best few).
 */

/** What a memory of a message near the best memory's gains. */
export const NEARBY_CUE = 0.06;
/** How many messages before or after the best memory's count as near. */
export const NEARBY_MESSAGES = 6;
/** How many of the best memories keep their places: a neighbour is raised to below the last of them at most. */
export const NEARBY_KEPT = 5;

/**
 * The source and message index of the memory at `place`, or null for a memory alone or one
 * whose passage is not a message of a source. The index copy keeps the two apart; the store's
 * search gives the passage whole ("src_…:3").
 */
export function messageAt(hits: HitColumns, place: number): { source: string; index: number } | null {
  const text = hits.passage[place]!;
  if (text === -1) return null;
  const index = hits.passageIndex[place]!;
  if (index !== -1) return { source: hits.texts[text]!, index };
  return splitPassage(hits.texts[text]!);
}

/**
 * Adds NEARBY_CUE to each of the first `count` memories listed past the best NEARBY_KEPT whose
 * message is within NEARBY_MESSAGES of the best memory's, in its source, other than the best's own
 * message (its other facts are the same message's, which `diversify` spreads); a raised score
 * stays below the NEARBY_KEPT-th best's. Only raises scores: the caller puts the places back in
 * order (the best NEARBY_KEPT keep theirs). Returns how many were raised.
 */
export function addNearby(ranking: CuedRanking, count: number): number {
  const { hits, score, order } = ranking;
  const length = Math.min(count, ranking.length);
  if (length <= NEARBY_KEPT) return 0;
  const best = messageAt(hits, order[0]!);
  if (!best) return 0;
  // Below the last kept one: a hair under its score, as scores are compared (then ids).
  const ceiling = score[order[NEARBY_KEPT - 1]!]! - 1e-9;
  let raised = 0;
  for (let index = NEARBY_KEPT; index < length; index++) {
    const place = order[index]!;
    const message = messageAt(hits, place);
    if (!message || message.source !== best.source || message.index === best.index) continue;
    if (Math.abs(message.index - best.index) > NEARBY_MESSAGES) continue;
    const was = score[place]!;
    const now = Math.min(ceiling, was + NEARBY_CUE);
    if (now <= was) continue;
    score[place] = now;
    raised += 1;
  }
  return raised;
}
