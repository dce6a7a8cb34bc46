import type { Labels } from '@engram/protocol';
import { DomainError } from '../domain-error.js';
import type { KnownUsage } from '../meter/metering.js';
import { admitSave } from '../meter/metering.js';
import type { WriteResult } from '../store/file-repository.js';
import { writeFile } from '../store/file-repository.js';
import type { Scope } from '../store/scope.js';
import type { NewSource, SourceRow } from '../store/source-repository.js';
import { addSource, insertSource, insertSources, storeSourceFile } from '../store/source-repository.js';
import type { OperationContext } from './context.js';

/**
 * Saves a note, a conversation or a page's address: the source is stored and queued for
 * learning, or kept waiting when the plan is used up. Throws usage_paused (DomainError) when
 * the account is paused; nothing is stored then. `known`: the account's usage as the caller
 * already read it (the HTTP call's, with its key), judged instead of reading it again.
 */
export async function save(context: OperationContext, scope: Scope, source: NewSource, known?: KnownUsage): Promise<SourceRow> {
  const admitted = await admitSave(context, scope.accountId, known);
  const stored = await addSource(context.db, scope, { ...source, waiting: admitted === 'wait' }, context.config.maxAttempts);
  context.onSourceAdded?.();
  return stored;
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
  // The accepted items' sources in one statement and their jobs in another, in one transaction.
  const stored: BatchOutcome[] = accepted.length
    ? await context.db.transaction().execute(async (transaction) => {
        const rows = await insertSources(transaction, accepted, context.config.maxAttempts);
        return accepted.map((item, at) => ({ index: item.index, source: rows[at]! }));
      })
    : [];
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
