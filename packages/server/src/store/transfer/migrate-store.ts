import { sql } from 'kysely';
import type { Db } from '../database.js';
import { exportLines } from './export-lines.js';
import type { RestoreSummary } from './restore-lines.js';
import { highestIdsOf, reserveIds, restoreLines } from './restore-lines.js';

/**
 * Moves every account of one store into another (an embedded store into PostgreSQL): each
 * account is exported whole (its keys as hashes, every space) and restored as it streams, so
 * ids, keys and memories stay as they were and nothing is learned again. Idempotent: run again,
 * it adds only what is missing. Returns what each account's restore did.
 */
export async function migrateStore(
  from: Db,
  to: Db,
  options: { maxAttempts?: number; onAccount?: (name: string, summary: RestoreSummary) => void } = {},
): Promise<RestoreSummary[]> {
  await reserveIds(to, await highestIdsOf(from));
  const { rows: accounts } = await sql<{ id: number; name: string }>`select id, name from accounts order by id`.execute(from);
  const summaries: RestoreSummary[] = [];
  for (const account of accounts) {
    const lines = exportLines(from, { accountId: account.id, space: { all: true }, withAccount: true });
    const summary = await restoreLines(to, stripNewlines(lines), { maxAttempts: options.maxAttempts });
    options.onAccount?.(account.name, summary);
    summaries.push(summary);
  }
  return summaries;
}

async function* stripNewlines(lines: AsyncIterable<string>): AsyncIterable<string> {
  for await (const line of lines) yield line.endsWith('\n') ? line.slice(0, -1) : line;
}
