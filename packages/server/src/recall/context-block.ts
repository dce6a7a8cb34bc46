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
  recalled.forEach((item, rank) => {
    take(item, rank);
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
