import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Db } from '../database.js';
import type { RestoreOptions, RestoreSummary } from './restore-lines.js';
import { checkLines, reserveIds, restoreLines } from './restore-lines.js';

/** The lines of a file, one at a time (a final newline or none, \n or \r\n). */
export async function* fileLines(path: string): AsyncIterable<string> {
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of reader) if (line.length) yield line;
}

/**
 * Restores an export file: checks it whole first (a bad, cut or newer file is refused
 * before anything is written), reserves its ids, then restores it line by line.
 */
export async function restoreFile(db: Db, path: string, options: RestoreOptions = {}): Promise<RestoreSummary> {
  const checked = await checkLines(fileLines(path), options);
  await reserveIds(db, checked.highestIds);
  return restoreLines(db, fileLines(path), options);
}
