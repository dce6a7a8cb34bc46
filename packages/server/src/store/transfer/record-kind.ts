import type { z } from 'zod';
import type { Db } from '../database.js';
import type { Scope } from '../scope.js';
import type { IdMap } from './id-map.js';

/** What restoring a line has at hand. */
export interface RestoreContext {
  /** Where records go: the target account and space (the space may be renamed by `--space`). */
  scope: Scope;
  /** Ids of the file as they are in this store. */
  ids: IdMap;
  /** Attempts a restored, never-learned source gets (ENGRAM_MAX_ATTEMPTS). */
  maxAttempts: number;
}

/**
 * One family of tables in an export: how to stream its records of a space (or of the
 * account) in id order, a page at a time, as JSON lines, and how to restore one line
 * idempotently. The registry (registry.ts) lists them in the order they are written and
 * restored: a record only refers to records of kinds before it, or to memories (whose ids
 * are settled when first referred to, see IdMap).
 */
export interface RecordKind<Line extends { type: string } = { type: string } & Record<string, any>> {
  /** The `type` of its lines. */
  type: string;
  /** 'space': records of one space, written after the space's own line; 'account': records of the whole account. */
  level: 'space' | 'account';
  /** What the lines hold, for the docs and the header. */
  description: string;
  /** A line as it must be to be restored (checked for every line before anything is written). */
  schema: z.ZodType<Line>;
  /** The records of the scope (the space is ignored for account records), in a stable order, read a page at a time. */
  lines(db: Db, scope: Scope): AsyncIterable<Line>;
  /** Restores one line within the caller's transaction: true when it added something, false when it was there already. */
  restore(transaction: Db, context: RestoreContext, line: Line): Promise<boolean>;
  /**
   * The table whose identity sequence numbers these records, and a line's number: restore
   * moves the sequence past the file's highest number first, so that ids kept from the file
   * are never handed out again.
   */
  sequence?: { table: string; idOf(line: Line): number };
}

/**
 * The rows of a keyset-paged query: `page(after)` returns up to one page of rows following
 * `after` (null for the first) in key order. Only one page is held at a time.
 */
export async function* keysetRows<Row, Key>(
  page: (after: Key | null) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  pageSize: number,
): AsyncIterable<Row> {
  let after: Key | null = null;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < pageSize) return;
    after = keyOf(rows.at(-1)!);
  }
}

/**
 * Groups keys with their sizes into batches of at most `maxBytes` (at least one key each), so
 * that large records (a long text, a file's bytes) are read a few at a time.
 */
export function sizedBatches<Key>(entries: { key: Key; bytes: number }[], maxBytes: number): Key[][] {
  const batches: Key[][] = [];
  let current: Key[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (current.length && bytes + entry.bytes > maxBytes) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry.key);
    bytes += entry.bytes;
  }
  if (current.length) batches.push(current);
  return batches;
}
