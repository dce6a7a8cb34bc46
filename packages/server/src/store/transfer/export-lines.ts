import type { Db } from '../database.js';
import type { ExportLine } from './format.js';
import { EXPORT_FORMAT, FORMAT_VERSION } from './format.js';
import { RECORD_KINDS } from './registry.js';
import type { HeaderLine } from './structure.js';
import { accountLine, spaceLine, spaceNames } from './structure.js';

/** What to export. */
export interface ExportOptions {
  accountId: number;
  /** One space, or every space of the account with the account's own keys ('all'). */
  space: string | { all: true };
  /** Write the account line (its name and plan); left out for a key limited to one space. */
  withAccount: boolean;
  now?: () => Date;
}

/** Thrown when the space to export does not exist. */
export class NoSuchSpaceError extends Error {}

/**
 * The lines of an export, each a JSON text ending in a newline: a header, the account, then
 * per space its space line and its records kind by kind (see RECORD_KINDS), and an end line.
 * Records are read a page at a time, so a space of any size is exported in constant memory.
 * Throws NoSuchSpaceError before the first line when the one space asked for does not exist.
 */
export async function* exportLines(db: Db, options: ExportOptions): AsyncGenerator<string> {
  const all = typeof options.space !== 'string';
  const { accountId } = options;
  const first = typeof options.space === 'string' ? await spaceLine(db, accountId, options.space) : null;
  if (typeof options.space === 'string' && !first) throw new NoSuchSpaceError(`No space named "${options.space}"`);
  let count = 0;
  const line = (record: ExportLine) => {
    count += 1;
    return `${JSON.stringify(record)}\n`;
  };
  const kinds = RECORD_KINDS.filter((kind) => all || kind.level === 'space');
  const header: HeaderLine = {
    type: 'header',
    format: EXPORT_FORMAT,
    version: FORMAT_VERSION,
    exported_at: (options.now?.() ?? new Date()).toISOString(),
    scope: all ? 'account' : 'space',
    records: kinds.map((kind) => kind.type),
  };
  yield line(header);
  if (options.withAccount || all) {
    const account = await accountLine(db, accountId);
    if (account) yield line(account);
  }
  for (const kind of kinds.filter((kind) => kind.level === 'account')) {
    for await (const record of kind.lines(db, { accountId, space: '' })) yield line(record);
  }
  const spaces = all ? spaceNames(db, accountId) : [first!.name];
  for await (const name of spaces) {
    const space = name === first?.name ? first : await spaceLine(db, accountId, name);
    if (!space) continue;
    yield line(space);
    for (const kind of kinds.filter((kind) => kind.level === 'space')) {
      for await (const record of kind.lines(db, { accountId, space: name })) yield line(record);
    }
  }
  const before = count;
  yield line({ type: 'end', lines: before });
}
