import { EMPTY_CONTEXT } from '@engram/protocol';
import type { MemoryRow } from '../store/memory-repository.js';
import { formatDay, withSaidRelation } from '../text/date-wording.js';
import type { Recalled } from './search.js';

/**
 * How many of the best memories bring the other recalled memories of their message into the
 * block: what a question asks is often said in the next clause of the message that best
 * matches it ("The bowl is from my aunt. It reminds me of the sea." for "What does the bowl
 * remind her of?"), a fact that shares none of the question's words.
 */
export const WITH_THEIR_MESSAGE = 2;

/**
 * How many of the best memories bring every memory of their message, recalled or not (the
 * caller loads them from the store): the clause that answers often shares no word with the
 * question, so recall does not find it at all. Only the best one: the places it takes are the
 * weakest memories', which a question needing several messages ("What has Ana painted?") wants.
 */
export const WITH_THEIR_WHOLE_MESSAGE = 1;

/**
 * How many of the best memories bring the sentence their own sentence points back to, or the one
 * that points back to it, from the same message: a sentence that opens with "it", "they", "this"
 * or "her" says the rest of what the one before it began ("I bought the blue kayak. It fits in the
 * van.", "The goats get hay and apple peels. They are picky eaters."), so the
 * memory of either sentence alone may match a question that only the other one answers.
 */
export const WITH_THEIR_REFERENCE = 4;

/** The opening of a sentence that refers back to what the sentence before it named. */
const REFERRING_OPENING =
  /^\W*(?:(?:it|it's|its|they|they're|they've|their|them|he|she|his|her)\b|(?:this|that|these|those)(?:'s|\s+(?:is|was|are|were|has|have|had)\b))/i;

/**
 * The memories of the sentence next to `row`'s in its message: of the one before it when `row`'s
 * sentence opens by referring back, of the one after it when that one does (none for a memory of
 * no message).
 */
export function referenceNeighbours(row: MemoryRow, candidates: MemoryRow[]): { before: MemoryRow[]; after: MemoryRow[] } {
  const neighbours = { before: [] as MemoryRow[], after: [] as MemoryRow[] };
  if (row.message_index === null) return neighbours;
  const same = candidates.filter(
    (other) => other.id !== row.id && other.source_id === row.source_id && other.message_index === row.message_index,
  );
  const before = same.filter((other) => other.sentence_end <= row.sentence_start);
  const after = same.filter((other) => other.sentence_start >= row.sentence_end);
  if (before.length && REFERRING_OPENING.test(row.sentence_text)) {
    const end = Math.max(...before.map((other) => other.sentence_end));
    neighbours.before = before.filter((other) => other.sentence_end === end);
  }
  if (after.length) {
    const start = Math.min(...after.map((other) => other.sentence_start));
    const next = after.filter((other) => other.sentence_start === start);
    if (REFERRING_OPENING.test(next[0]!.sentence_text)) neighbours.after = next;
  }
  return neighbours;
}

/**
 * The memories of a context block, at most `limit`, best first: the best `WITH_THEIR_MESSAGE`
 * recalled memories bring the other recalled memories of their message, and the best
 * `WITH_THEIR_WHOLE_MESSAGE` the other memories of their message that only `said` holds (the
 * memories of those messages from the store, in the order they were said); they take the places
 * of the weakest. The recalled ones keep recall's order, so that a newer value ranked above an
 * older one stays above it; the others follow the memory that brought them, unscored (0).
 * `recalled` should reach past `limit` so that a message's other memories can be found.
 */
export function chooseContext(recalled: Recalled[], limit: number, said: MemoryRow[] = []): Recalled[] {
  const place = new Map(recalled.map((item, index) => [item.row.id, index]));
  const chosen: Recalled[] = [];
  const taken = new Set<number>();
  const take = (item: Recalled, at: number) => {
    if (chosen.length >= limit || taken.has(item.row.id)) return;
    chosen.push(item);
    taken.add(item.row.id);
    place.set(item.row.id, at);
  };
  const known = new Map<number, Recalled>(recalled.map((item) => [item.row.id, item]));
  for (const row of said) if (!known.has(row.id)) known.set(row.id, { row, score: 0 });
  const candidates = [...known.values()].map((item) => item.row);
  recalled.forEach((item, rank) => {
    take(item, rank);
    if (rank < WITH_THEIR_REFERENCE) {
      // In the order they were said: the sentence before just above the memory, the one after just below.
      const { before, after } = referenceNeighbours(item.row, candidates);
      before.forEach((row, order) => take(known.get(row.id)!, rank - 0.25 * (1 - order / before.length)));
      after.forEach((row, order) => take(known.get(row.id)!, rank + (order + 1) / (after.length + 1) / 2));
    }
    const { message_index: index, source_id: source } = item.row;
    if (rank >= WITH_THEIR_MESSAGE || index === null) return;
    const ofMessage = (row: MemoryRow) => row.source_id === source && row.message_index === index;
    for (const other of recalled) if (ofMessage(other.row)) take(other, place.get(other.row.id)!);
    if (rank >= WITH_THEIR_WHOLE_MESSAGE) return;
    const unrecalled = said.filter((row) => ofMessage(row) && !place.has(row.id));
    unrecalled.forEach((row, order) => take({ row, score: 0 }, rank + (order + 1) / (unrecalled.length + 1)));
  });
  // Best first: a message's other memories fill the places of the weakest.
  return chosen.sort((left, right) => place.get(left.row.id)! - place.get(right.row.id)!);
}

/** A memory's day as the learner writes dates into memories ("8 May 2023"), from its `date` (YYYY-MM-DD). */
function writtenDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(day.getTime()) ? date : formatDay(day, false);
}

/**
 * The prompt-ready block of SPEC.md: one line per memory, "- <text>  [<source kind>, <date>]"
 * (or "- <text>" without sources); the exact empty sentence when nothing is known. The date is
 * written as the memories write theirs ("8 May 2023"), so that a question's date reads the same
 * in a memory's words and in its stamp. A date the learner resolved from a time said relative to
 * the day it was said reads as said, anchored to that day, with the resolved day after it ("the
 * Friday before 15 July 2023 (14 July)", see withSaidRelation): the reader keeps what the speaker
 * said, which "when" questions are answered with, beside the learner's reading of it.
 */
export function renderContext(rows: MemoryRow[], withSources: boolean): string {
  if (!rows.length) return EMPTY_CONTEXT;
  return rows
    .map((row) => {
      const text = withSaidRelation(row.text, row.sentence_text, row.date);
      return withSources ? `- ${text}  [${row.source_kind}, ${writtenDay(row.date)}]` : `- ${text}`;
    })
    .join('\n');
}
