import { EMPTY_CONTEXT } from '@engram/protocol';
import type { MemoryRow } from '../store/memory-repository.js';

/**
 * The prompt-ready block of SPEC.md: one line per memory, "- <text>  [<source kind>, <date>]"
 * (or "- <text>" without sources); the exact empty sentence when nothing is known.
 */
export function renderContext(rows: MemoryRow[], withSources: boolean): string {
  if (!rows.length) return EMPTY_CONTEXT;
  return rows.map((row) => (withSources ? `- ${row.text}  [${row.source_kind}, ${row.date}]` : `- ${row.text}`)).join('\n');
}
