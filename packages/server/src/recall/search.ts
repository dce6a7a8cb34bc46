import type { KindFilter, Labels } from '@engram/protocol';
import type { Db } from '../store/database.js';
import { lexemesOf, searchMemories } from '../store/memory-repository.js';
import type { MemoryRow } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { queryTerms, questionNames } from './query.js';

/** A recalled memory with its score (0..1). */
export interface Recalled {
  row: MemoryRow;
  score: number;
}

/** What a recall finds: the best memories first, and how many matched in all. */
export interface RecallResult {
  memories: Recalled[];
  total: number;
  /** True when nothing stored bears on the question. */
  empty: boolean;
}

/** Memories scoring below this are not evidence that anything is known. */
export const KNOWN_THRESHOLD = 0.05;

/** How many text matches are rescored before the best are kept. */
const CANDIDATES = 200;

/**
 * The one ranking behind search, context and ask, over current memories: how much of the
 * question a memory covers (its stemmed words), Postgres's full-text rank, whether it is
 * about a name the question uses, and recency.
 */
export async function recall(
  db: Db,
  scope: Scope,
  question: string,
  options: { limit: number; kind: KindFilter; labels?: Labels },
): Promise<RecallResult> {
  const terms = queryTerms(question);
  const lexemes = terms.length ? [...new Set(await lexemesOf(db, terms.join(' ')))] : [];
  if (!lexemes.length) return { memories: [], total: 0, empty: true };
  const rows = await searchMemories(db, scope, {
    lexemes,
    kind: options.kind,
    labels: options.labels,
    limit: CANDIDATES,
  });
  const names = questionNames(question);
  const newest = Math.max(0, ...rows.map((row) => row.created_at.getTime()));
  const oldest = Math.min(newest, ...rows.map((row) => row.created_at.getTime()));
  const scored = rows.map((row) => {
    const own = new Set(row.lexemes);
    const coverage = lexemes.filter((lexeme) => own.has(lexeme)).length / lexemes.length;
    // ts_rank_cd with normalisation 32 is rank/(rank+1); doubling spreads the usual 0..0.5 range over 0..1.
    const text = Math.min(1, Number(row.rank) * 2);
    const about = row.about.map((name) => name.toLowerCase());
    const nameHit = names.length && names.some((name) => about.some((known) => known.includes(name))) ? 1 : 0;
    const recency = newest > oldest ? (row.created_at.getTime() - oldest) / (newest - oldest) : 1;
    return { row, score: Math.min(1, 0.55 * coverage + 0.25 * text + 0.15 * nameHit + 0.05 * recency) };
  });
  scored.sort((left, right) => right.score - left.score || right.row.id - left.row.id);
  const kept = scored.filter((item) => item.score >= KNOWN_THRESHOLD);
  return { memories: kept.slice(0, options.limit), total: kept.length, empty: kept.length === 0 };
}
