import { EMPTY_CONTEXT } from '@engram/protocol';
import type { MemoryRow } from '../store/memory-repository.js';
import { formatDay } from '../text/date-wording.js';
import type { Recalled } from './search.js';

/**
 * How many of the best memories bring the other recalled memories of their message into the
 * block: what a question asks is often said in the next clause of the message that best
 * matches it ("The bowl is from my aunt. It reminds me of the sea." for "What does the bowl
 * remind her of?"), a fact that shares none of the question's words.
 */
export const WITH_THEIR_MESSAGE = 2;

/**
 * The memories of a context block, at most `limit`, best first: the best `WITH_THEIR_MESSAGE`
 * recalled memories bring the other recalled memories of their message, which take the places
 * of the weakest. The order stays recall's, so that a newer value ranked above an older one
 * stays above it. `recalled` should reach past `limit` so that a message's other memories can
 * be found.
 */
export function chooseContext(recalled: Recalled[], limit: number): Recalled[] {
  const chosen: Recalled[] = [];
  const taken = new Set<number>();
  const take = (item: Recalled) => {
    if (chosen.length >= limit || taken.has(item.row.id)) return;
    chosen.push(item);
    taken.add(item.row.id);
  };
  recalled.forEach((item, rank) => {
    take(item);
    const { message_index: index, source_id: source } = item.row;
    if (rank >= WITH_THEIR_MESSAGE || index === null) return;
    recalled.filter((other) => other.row.source_id === source && other.row.message_index === index).forEach(take);
  });
  // Best first, as recall ranked them: a message's other memories fill the places of the weakest.
  const rank = new Map(recalled.map((item, index) => [item.row.id, index]));
  return chosen.sort((left, right) => rank.get(left.row.id)! - rank.get(right.row.id)!);
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
 * in a memory's words and in its stamp.
 */
export function renderContext(rows: MemoryRow[], withSources: boolean): string {
  if (!rows.length) return EMPTY_CONTEXT;
  return rows.map((row) => (withSources ? `- ${row.text}  [${row.source_kind}, ${writtenDay(row.date)}]` : `- ${row.text}`)).join('\n');
}
