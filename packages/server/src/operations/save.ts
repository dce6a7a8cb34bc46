import type { Labels } from '@engram/protocol';
import { DomainError } from '../domain-error.js';
import type { KnownUsage } from '../meter/metering.js';
import { admitSave } from '../meter/metering.js';
import type { Db } from '../store/database.js';
import { primaryOf } from '../store/database.js';
import type { WriteResult } from '../store/file-repository.js';
import { writeFile } from '../store/file-repository.js';
import type { Scope } from '../store/scope.js';
import type { NewSource, SourceRow } from '../store/source-repository.js';
import { addQueuedSources, insertSource, insertSources, storeSourceFile } from '../store/source-repository.js';
import type { OperationContext } from './context.js';

/**
 * Saves a note, a conversation or a page's address: the source is stored and queued for
 * learning, or kept waiting when the plan is used up. Throws usage_paused (DomainError) when
 * the account is paused; nothing is stored then. `known`: the account's usage as the caller
 * already read it (the HTTP call's, with its key), judged instead of reading it again.
 */
export async function save(context: OperationContext, scope: Scope, source: NewSource, known?: KnownUsage): Promise<SourceRow> {
  const admitted = await admitSave(context, scope.accountId, known);
  const stored = await groupOf(context.db, context.config.maxAttempts, oneStatementOf(context)).add(scope, {
    ...source,
    waiting: admitted === 'wait',
  });
  context.onSourceAdded?.();
  return stored;
}

/** The most saves stored in one grouped transaction (as many as a batch holds). */
const MAX_GROUP = 100;

interface Waiting {
  scope: Scope;
  source: NewSource;
  resolve(row: SourceRow): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the saves of concurrent calls stored together. A save that finds no group being
 * stored starts one at once (on the next turn of the event loop, so that saves arriving together
 * go together); the saves that come while a group's transaction runs wait and go in the next
 * one, all of them in the same statements as one save (store/source-repository.ts
 * `insertSources`). So under load a store runs one short transaction for many saves instead of
 * one each, and an idle store stores a lone save as before. Each caller still gets its own
 * source, or its own error: when a group's transaction is refused by the database, nothing of it
 * was stored, and each of its saves is stored again on its own, in a transaction of its own, so
 * that only the save at fault is refused. Admission (the plan's usage) is judged per call before
 * a save joins a group.
 */
export class SaveGroups {
  #waiting: Waiting[] = [];
  #running = false;

  /**
   * `oneStatement`: a group of queued saves is stored in one statement on its own rather than a
   * transaction of four (store/source-repository.ts `addQueuedSources`), where the queue lives
   * beside the sources (the embedded store: `oneStatementOf`).
   */
  constructor(
    private readonly db: Db,
    private readonly maxAttempts: number,
    private readonly oneStatement = false,
  ) {}

  /** Stores one save with the next group; resolves with its stored source or rejects with its own error. */
  add(scope: Scope, source: NewSource): Promise<SourceRow> {
    return new Promise<SourceRow>((resolve, reject) => {
      this.#waiting.push({ scope, source, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length) await this.#store(this.#waiting.splice(0, MAX_GROUP));
    } finally {
      this.#running = false;
    }
  }

  async #store(group: Waiting[]): Promise<void> {
    try {
      const rows = await this.#insert(group);
      group.forEach((item, at) => item.resolve(rows[at]!));
    } catch (error) {
      // A statement the database refused rolled the whole group back: each save is tried again
      // alone. Any other failure (the connection lost) may have left the commit's outcome unknown,
      // so it is every save's error, as it would have been for a save stored alone.
      if (group.length === 1 || !refusedByDatabase(error)) {
        for (const item of group) item.reject(error);
        return;
      }
      for (const item of group) {
        try {
          item.resolve((await this.#insert([item]))[0]!);
        } catch (alone) {
          item.reject(alone);
        }
      }
    }
  }

  /** Stores a group's saves: in one statement when they may be (all queued), else in one transaction. */
  #insert(group: readonly Waiting[]): Promise<SourceRow[]> {
    if (this.oneStatement && group.every((item) => !item.source.waiting)) return addQueuedSources(this.db, group, this.maxAttempts);
    return this.db.transaction().execute((transaction) => insertSources(transaction, group, this.maxAttempts));
  }
}

/**
 * Whether saves may store their sources and jobs in one statement (`addQueuedSources`): on the
 * embedded store (no DATABASE_URL), whose queue is never a table apart and whose every round trip
 * crosses to its thread; not on PostgreSQL, where the queue may live apart (docs/citus.sql).
 */
function oneStatementOf(context: Pick<OperationContext, 'config'>): boolean {
  return context.config.databaseUrl === null;
}

/** An error the database answered a statement with (an SQLSTATE), rather than a lost connection. */
function refusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
}

const groups = new WeakMap<Db, Map<string, SaveGroups>>();

/** The save groups of a store (one queue per store, number of attempts and way of storing). */
function groupOf(db: Db, maxAttempts: number, oneStatement: boolean): SaveGroups {
  const store = primaryOf(db);
  let byAttempts = groups.get(store);
  if (!byAttempts) groups.set(store, (byAttempts = new Map()));
  const key = `${maxAttempts}/${oneStatement}`;
  let group = byAttempts.get(key);
  if (!group) byAttempts.set(key, (group = new SaveGroups(store, maxAttempts, oneStatement)));
  return group;
}

/** One item of a batch: what to save, or why it was refused before the batch was saved. */
export type BatchItem = { index: number; scope: Scope; source: NewSource } | { index: number; error: DomainError };

/** One item's outcome: its stored source, or the refusal. */
export type BatchOutcome = { index: number; source: SourceRow } | { index: number; error: DomainError };

/**
 * Saves a batch of one account's items in one transaction; each is saved or refused on its own.
 * One usage judgement covers the whole batch: when the account is paused, every item that was
 * not already refused is refused with usage_paused. Outcomes come back in the order of `index`.
 */
export async function saveBatch(
  context: OperationContext,
  accountId: number,
  items: BatchItem[],
  known?: KnownUsage,
): Promise<BatchOutcome[]> {
  const admitted = await admitSave(context, accountId, known).catch((error: unknown) => {
    if (error instanceof DomainError) return error;
    throw error;
  });
  const outcomes: BatchOutcome[] = [];
  const accepted: { index: number; scope: Scope; source: NewSource }[] = [];
  for (const item of items) {
    if ('error' in item) outcomes.push(item);
    else if (admitted instanceof DomainError) outcomes.push({ index: item.index, error: admitted });
    else accepted.push({ ...item, source: { ...item.source, waiting: admitted === 'wait' } });
  }
  // The accepted items' sources in one statement and their jobs in another, in one transaction;
  // on the embedded store, queued ones in one statement on its own (`addQueuedSources`).
  const rows = !accepted.length
    ? []
    : oneStatementOf(context) && admitted !== 'wait'
      ? await addQueuedSources(context.db, accepted, context.config.maxAttempts)
      : await context.db.transaction().execute((transaction) => insertSources(transaction, accepted, context.config.maxAttempts));
  const stored: BatchOutcome[] = accepted.map((item, at) => ({ index: item.index, source: rows[at]! }));
  if (stored.length) context.onSourceAdded?.();
  return [...outcomes, ...stored].sort((left, right) => left.index - right.index);
}

/**
 * Saves an uploaded PDF or Word file: its source and its bytes in one transaction; a worker
 * reads the bytes into text once. Throws usage_paused when the account is paused.
 */
export async function saveUpload(context: OperationContext, scope: Scope, source: NewSource, bytes: Uint8Array): Promise<SourceRow> {
  const admitted = await admitSave(context, scope.accountId);
  const stored = await context.db.transaction().execute(async (transaction) => {
    const row = await insertSource(transaction, scope, { ...source, waiting: admitted === 'wait' }, context.config.maxAttempts);
    await storeSourceFile(transaction, scope.accountId, row.id, bytes);
    return row;
  });
  context.onSourceAdded?.();
  return stored;
}

/** A file as written through the API. */
export interface FileToWrite {
  path: string;
  text: string;
  labels?: Labels;
  learn?: false;
  project?: string | null;
}

/**
 * Writes a file: writing a path again replaces it and only what changed is learned. Throws
 * usage_paused when the account is paused.
 */
export async function saveFile(context: OperationContext, scope: Scope, file: FileToWrite): Promise<WriteResult> {
  const admitted = await admitSave(context, scope.accountId);
  const written = await writeFile(context.db, scope, file, { waiting: admitted === 'wait', maxAttempts: context.config.maxAttempts });
  if (written.queued) context.onSourceAdded?.();
  return written;
}
