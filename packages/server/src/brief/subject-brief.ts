import type { BriefResponse, MemoryKind } from '@engram/protocol';
import type { Db } from '../store/database.js';
import { loadMemories, toMemoryRecord } from '../store/memory-repository.js';
import type { NamedMemory } from '../store/people-repository.js';
import type { Scope } from '../store/scope.js';
import { holdsForNow, memoriesOfSubject, subjectLabel, tellingScore } from './profile.js';

/** The summary holds at most this many facts and about this many characters. */
const SUMMARY_FACTS = 6;
const SUMMARY_CHARS = 700;
/** The order facts are told in the summary: who, what holds now, what they like, what comes, the rest. */
const SUMMARY_ORDER: Record<MemoryKind, number> = { people: 0, pref: 2, plan: 3, detail: 4 };

/**
 * A subject's brief: a short paragraph put together from the memories that tell most about
 * them (their own sentences, no model), the memories behind it (most telling first, then
 * newest, at most `limit`), and how many memories name the subject.
 */
export async function briefOf(db: Db, scope: Scope, subject: string | undefined, limit: number): Promise<BriefResponse> {
  const { subject: resolved, memories } = await memoriesOfSubject(db, scope, subject);
  const scored = memories.map((memory) => ({ memory, score: tellingScore(memory, subjectLabel(memory, resolved.name)) }));
  scored.sort(
    (left, right) => right.score - left.score || right.memory.date.localeCompare(left.memory.date) || right.memory.id - left.memory.id,
  );
  const rows = await loadMemories(
    db,
    scope,
    scored.slice(0, limit).map((item) => item.memory.id),
  );
  return {
    subject: resolved.name,
    summary: summaryOf(
      resolved.name,
      scored.map((item) => item.memory),
    ),
    memories: rows.map((row) => toMemoryRecord(row)),
    total: memories.length,
  };
}

/**
 * The summary: the most telling facts, each once, told in a steady order (who the subject is,
 * what holds now, what they like, what is coming, the rest), within SUMMARY_CHARS.
 */
export function summaryOf(name: string, ranked: readonly NamedMemory[]): string {
  if (ranked.length === 0) return `Nothing is remembered about ${name} yet.`;
  const chosen: NamedMemory[] = [];
  let length = 0;
  const seen = new Set<string>();
  for (const memory of ranked) {
    if (chosen.length >= SUMMARY_FACTS) break;
    const text = memory.text.trim();
    const said = text.toLowerCase();
    if (seen.has(said) || (chosen.length > 0 && length + text.length + 1 > SUMMARY_CHARS)) continue;
    seen.add(said);
    chosen.push(memory);
    length += text.length + 1;
  }
  const order = (memory: NamedMemory) => (holdsForNow(memory) && memory.kind !== 'plan' ? 1 : SUMMARY_ORDER[memory.kind]);
  chosen.sort((left, right) => order(left) - order(right) || right.date.localeCompare(left.date));
  return chosen.map((memory) => memory.text.trim()).join(' ');
}
