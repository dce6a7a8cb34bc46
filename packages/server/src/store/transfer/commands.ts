import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Config } from '../../config.js';
import type { Store } from '../database.js';
import { openStore } from '../database.js';
import { migrate } from '../migrations.js';
import { exportLines } from './export-lines.js';
import { restoreFile } from './file-lines.js';
import { RestoreError } from './format.js';
import { migrateStore } from './migrate-store.js';
import type { RestoreSummary } from './restore-lines.js';

/** Writes text to a stream, waiting while its buffer is full, so that memory stays flat however much is written. */
async function writeAll(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/**
 * `engram export --space S` (one space) or `--all` (every space of the account, with its own
 * keys), to `out` as JSON Lines. Works on the store directly: stop an embedded store's server
 * first (GET /v1/export works while serving).
 */
export async function runExport(
  store: Store,
  options: { accountId: number; space?: string; all: boolean; out: Writable },
): Promise<number> {
  let lines = 0;
  const space = options.all ? { all: true as const } : (options.space ?? '');
  let chunk = '';
  for await (const line of exportLines(store.db, { accountId: options.accountId, space, withAccount: true })) {
    lines += 1;
    chunk += line;
    if (chunk.length >= 64 * 1024) {
      await writeAll(options.out, chunk);
      chunk = '';
    }
  }
  if (chunk) await writeAll(options.out, chunk);
  return lines;
}

/** One line saying what a restore did. */
export function describeRestore(summary: RestoreSummary): string {
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([type, count]) => `${count} ${type}`)
      .join(', ') || 'nothing';
  const spaces = summary.spaces.map((space) => (space === '' ? '(own)' : space)).join(', ');
  return `account ${summary.accountId}, spaces ${spaces || '(none)'}: added ${counts(summary.added)}; already there ${counts(summary.present)}`;
}

/** `engram restore FILE [--space S] [--account ID]`. */
export async function runRestore(
  store: Store,
  file: string,
  options: { space?: string; accountId?: number; maxAttempts: number },
): Promise<RestoreSummary> {
  if (!existsSync(file)) throw new RestoreError(`no file ${file}`);
  return restoreFile(store.db, file, options);
}

/**
 * `engram migrate-store --from DATA_DIR --to DATABASE_URL`: every account of an embedded store
 * (stopped) into PostgreSQL. The source must be an existing PGlite data directory.
 */
export async function runMigrateStore(
  config: Config,
  options: { from: string; to: string; log: (text: string) => void },
): Promise<RestoreSummary[]> {
  if (!existsSync(join(options.from, 'PG_VERSION')))
    throw new RestoreError(`${options.from} is not an Engram data directory (no PG_VERSION in it)`);
  if (!/^postgres(ql)?:\/\//.test(options.to))
    throw new RestoreError('--to takes a PostgreSQL address: postgres://user:password@host:5432/database');
  const from = await openStore({ databaseUrl: null, dataDir: options.from }, { command: 'migrate-store' });
  try {
    await migrate(from.db);
    const to = await openStore({ databaseUrl: options.to, dataDir: '' });
    try {
      await migrate(to.db);
      return await migrateStore(from.db, to.db, {
        maxAttempts: config.maxAttempts,
        onAccount: (name, summary) => options.log(`${name}: ${describeRestore(summary)}`),
      });
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
