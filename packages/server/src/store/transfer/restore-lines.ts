import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { Scope } from '../scope.js';
import { ensureSpace } from '../source-repository.js';
import { FORMAT_VERSION, RestoreError } from './format.js';
import { IdMap } from './id-map.js';
import type { RecordKind, RestoreContext } from './record-kind.js';
import { kindOf, RECORD_KINDS } from './registry.js';
import type { AccountLine, HeaderLine } from './structure.js';
import { AccountLineSchema, EndLineSchema, HeaderLineSchema, SpaceLineSchema } from './structure.js';

/** Where and how to restore. */
export interface RestoreOptions {
  /** Restore a file of one space into this space instead of the space it names. */
  space?: string;
  /** Restore into this account; else the file's account (by name, made when this store lacks it), else the store's first account. */
  accountId?: number;
  /** Attempts a restored source that was never learned gets. */
  maxAttempts?: number;
}

/** What a restore did, by kind of record. */
export interface RestoreSummary {
  accountId: number;
  spaces: string[];
  /** Records written, by type. */
  added: Record<string, number>;
  /** Records already there (restored before, or the same record), by type. */
  present: Record<string, number>;
}

/** What checking a file found: its header, spaces, and the highest id per table, to reserve before restoring. */
export interface CheckedFile {
  header: HeaderLine;
  spaces: number;
  lines: number;
  highestIds: Map<string, number>;
}

type Parsed = { type: string } & Record<string, any>;

/** One line parsed and checked against the schema of its type. */
function parseLine(text: string, number: number): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RestoreError('not a JSON line', number);
  }
  if (!value || typeof value !== 'object' || typeof (value as Parsed).type !== 'string') {
    throw new RestoreError('a line of an export is a JSON object with a "type"', number);
  }
  const type = (value as Parsed).type;
  const schema =
    type === 'account' ? AccountLineSchema : type === 'space' ? SpaceLineSchema : type === 'end' ? EndLineSchema : kindOf(type)?.schema;
  if (type === 'header') return checkHeader(value, number);
  if (!schema) throw new RestoreError(`unknown record type "${type}"`, number);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RestoreError(`a ${type} line whose ${issue.path.join('.') || 'value'} is not valid: ${issue.message}`, number);
  }
  return parsed.data as Parsed;
}

/** The header, refusing a file of a newer format before anything else about it. */
function checkHeader(value: unknown, number: number): HeaderLine {
  const version = (value as { version?: unknown }).version;
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new RestoreError(
      `this file was written by a newer Engram (export format version ${version}); this release restores format versions up to ${FORMAT_VERSION}. Upgrade Engram to restore it.`,
    );
  }
  const parsed = HeaderLineSchema.safeParse(value);
  if (!parsed.success || number !== 1) throw new RestoreError('not an Engram export: the first line must be its header', number);
  return parsed.data;
}

/**
 * Reads every line once and checks it, writing nothing: the header and its version, each
 * line's shape, the order of lines, and the end line that shows the file is whole. Returns
 * the highest ids by table. Holds one line at a time.
 */
export async function checkLines(lines: AsyncIterable<string>, options: Pick<RestoreOptions, 'space'> = {}): Promise<CheckedFile> {
  let header: HeaderLine | null = null;
  let number = 0;
  let spaces = 0;
  let ended = false;
  const highestIds = new Map<string, number>();
  for await (const text of lines) {
    number += 1;
    if (ended) throw new RestoreError('a line after the end line', number);
    if (number === 1) {
      header = checkHeader(parseJson(text, number), number);
      continue;
    }
    const line = parseLine(text, number);
    if (line.type === 'header') throw new RestoreError('a second header', number);
    if (line.type === 'end') {
      if (line.lines !== number - 1)
        throw new RestoreError(`the end line counts ${line.lines} lines before it, but ${number - 1} came`, number);
      ended = true;
      continue;
    }
    if (line.type === 'account') {
      if (spaces) throw new RestoreError('the account line comes before the spaces', number);
      highestIds.set('accounts', Math.max(highestIds.get('accounts') ?? 0, line.id));
      continue;
    }
    if (line.type === 'space') {
      spaces += 1;
      continue;
    }
    const kind = kindOf(line.type)!;
    if (kind.level === 'space' && !spaces) throw new RestoreError(`a ${line.type} line before any space line`, number);
    if (kind.level === 'account' && spaces) throw new RestoreError(`an ${line.type} line after a space line`, number);
    if (kind.sequence) {
      const { table, idOf } = kind.sequence;
      highestIds.set(table, Math.max(highestIds.get(table) ?? 0, idOf(line)));
    }
  }
  if (!header) throw new RestoreError('the file is empty');
  if (!ended) throw new RestoreError('the file ends before its end line: it was cut short (export it again)');
  if (options.space !== undefined && spaces > 1) {
    throw new RestoreError(`the file holds ${spaces} spaces (a whole account); --space renames the space of a file of one space`);
  }
  return { header, spaces, lines: number, highestIds };
}

function parseJson(text: string, number: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RestoreError('not an Engram export: the first line is not JSON', number);
  }
}

/**
 * Moves the identity sequences of the tables past the highest ids a file holds, so that ids
 * kept from the file are never handed out to new records afterwards.
 */
export async function reserveIds(db: Db, highestIds: Map<string, number>): Promise<void> {
  for (const [table, highest] of highestIds) {
    if (!highest) continue;
    await sql`
      select setval(seq.name, ${highest}) from (select pg_get_serial_sequence(${table}, 'id') as name) seq
      where coalesce(pg_sequence_last_value(seq.name::regclass), 0) < ${highest}`.execute(db);
  }
}

/** The highest ids of a store's tables with identity sequences that exports hold ids of. */
export async function highestIdsOf(db: Db): Promise<Map<string, number>> {
  const tables = new Set(['accounts', ...RECORD_KINDS.flatMap((kind) => (kind.sequence ? [kind.sequence.table] : []))]);
  const highest = new Map<string, number>();
  for (const table of tables) {
    const { rows } = await sql<{ id: number | null }>`select max(id) as id from ${sql.table(table)}`.execute(db);
    highest.set(table, rows[0]?.id ?? 0);
  }
  return highest;
}

/** The account that records go to (see RestoreOptions.accountId). */
async function targetAccount(db: Db, options: RestoreOptions, line: AccountLine | null): Promise<number> {
  if (options.accountId !== undefined) {
    const { rows } = await sql`select 1 from accounts where id = ${options.accountId}`.execute(db);
    if (!rows.length) throw new RestoreError(`this store has no account ${options.accountId}`);
    return options.accountId;
  }
  if (line) {
    return db.transaction().execute(async (transaction) => {
      const { rows } = await sql<{ id: number }>`select id from accounts where name = ${line.name}`.execute(transaction);
      if (rows[0]) return rows[0].id;
      const { rows: taken } = await sql`select 1 from accounts where id = ${line.id}`.execute(transaction);
      const columns = sql`name, plan, trial_ends_at, extra_on, extra_cap_usd, created_at`;
      const values = sql`${line.name}, ${line.plan}, ${line.trial_ends_at}::timestamptz, ${line.extra_on}, ${line.extra_cap_usd},
        ${line.created_at}::timestamptz`;
      const { rows: made } = taken.length
        ? await sql<{ id: number }>`insert into accounts (${columns}) values (${values}) returning id`.execute(transaction)
        : await sql<{
            id: number;
          }>`insert into accounts (id, ${columns}) overriding system value values (${line.id}, ${values}) returning id`.execute(
            transaction,
          );
      return made[0]!.id;
    });
  }
  const { rows } = await sql<{ id: number }>`select id from accounts order by id limit 1`.execute(db);
  if (!rows[0])
    throw new RestoreError('this store has no account to restore into: make one (engram accounts create NAME) or start the server once');
  return rows[0].id;
}

/** Lines restored in one transaction at most, and the text they may hold. */
const BATCH_LINES = 200;
const BATCH_CHARS = 8 * 1024 * 1024;

/**
 * Restores an export, line by line, in batches of lines per transaction. Idempotent: a record
 * already in the store (restored before) is left as it is, so restoring a file twice changes
 * nothing, and a restore cut off midway is finished by running it again. Nothing is learned:
 * memories come back with their index and history. Call checkLines first for a file (it
 * refuses a bad or cut file before anything is written) and reserveIds with what it found.
 */
export async function restoreLines(db: Db, lines: AsyncIterable<string>, options: RestoreOptions = {}): Promise<RestoreSummary> {
  const summary: RestoreSummary = { accountId: 0, spaces: [], added: {}, present: {} };
  let accountId: number | null = null;
  let accountSeen: AccountLine | null = null;
  let context: RestoreContext | null = null;
  let batch: { kind: RecordKind<any>; line: Parsed; context: RestoreContext }[] = [];
  let batchChars = 0;
  let number = 0;
  let ended = false;
  const maxAttempts = options.maxAttempts ?? 5;

  const account = async () => {
    if (accountId === null) {
      accountId = await targetAccount(db, options, accountSeen);
      summary.accountId = accountId;
    }
    return accountId;
  };
  const flush = async () => {
    if (!batch.length) return;
    const done = batch;
    batch = [];
    batchChars = 0;
    const results = await db.transaction().execute(async (transaction) => {
      const added: boolean[] = [];
      for (const item of done) added.push(await item.kind.restore(transaction, item.context, item.line));
      return added;
    });
    results.forEach((added, index) => {
      const counts = added ? summary.added : summary.present;
      const type = done[index]!.kind.type;
      counts[type] = (counts[type] ?? 0) + 1;
    });
  };

  for await (const text of lines) {
    number += 1;
    const line = number === 1 ? checkHeader(parseJson(text, number), number) : parseLine(text, number);
    if (line.type === 'header') continue;
    if (line.type === 'end') {
      ended = true;
      continue;
    }
    if (line.type === 'account') {
      accountSeen = line as AccountLine;
      continue;
    }
    if (line.type === 'space') {
      await flush();
      if (options.space !== undefined && summary.spaces.length) throw new RestoreError('--space applies to a file of one space', number);
      const scope: Scope = { accountId: await account(), space: options.space ?? line.name };
      await sql`
        insert into spaces (account_id, name, created_at) values (${scope.accountId}, ${scope.space}, ${line.created_at}::timestamptz)
        on conflict do nothing`.execute(db);
      summary.spaces.push(scope.space);
      context = { scope, ids: new IdMap(scope), maxAttempts };
      continue;
    }
    const kind = kindOf(line.type)!;
    let lineContext = context;
    if (kind.level === 'account') {
      const scope = { accountId: await account(), space: '' };
      lineContext = { scope, ids: new IdMap(scope), maxAttempts };
    }
    if (!lineContext) throw new RestoreError(`a ${line.type} line before any space line`, number);
    batch.push({ kind, line, context: lineContext });
    batchChars += text.length;
    if (batch.length >= BATCH_LINES || batchChars >= BATCH_CHARS) await flush();
  }
  await flush();
  // Every account has the owner's own memory; an account made here gets it after the file's spaces, which keep their dates.
  if (accountId !== null) await ensureSpace(db, { accountId, space: '' });
  if (!ended) throw new RestoreError('the export ended before its end line: it was cut short; what came before it is restored');
  return summary;
}
