import { DomainError } from '../domain-error.js';
import { admitSave } from '../meter/metering.js';
import type { MemoryRow } from '../store/memory-repository.js';
import { deleteMemory, findMemory, markWrong } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import type { SourceRow } from '../store/source-repository.js';
import { deleteSource, findSource, insertSource } from '../store/source-repository.js';
import type { OperationContext } from './context.js';

/**
 * Corrects a memory: it is marked wrong and what is right is stored as a new source, learned in
 * the background, in one transaction. Marking a memory wrong is never refused; past the plan,
 * only learning the correction waits. Throws not_found when the space has no such memory and
 * conflict when it is already marked wrong.
 */
export async function correct(
  context: OperationContext,
  scope: Scope,
  memoryId: number,
  text: string,
): Promise<{ memory: MemoryRow; source: SourceRow }> {
  const { db } = context;
  const admitted = await admitSave(context, scope.accountId).catch(() => 'wait' as const);
  const source = await db.transaction().execute(async (transaction) => {
    const current = await findMemory(transaction, scope, memoryId);
    if (!current) throw new DomainError('not_found', `No memory ${memoryId} in this space`);
    const stored = await insertSource(
      transaction,
      scope,
      {
        kind: 'note',
        title: `Correction of memory ${memoryId}`,
        body: text,
        correctsMemoryId: memoryId,
        tokens: 0,
        waiting: admitted === 'wait',
      },
      context.config.maxAttempts,
    );
    const previous = await markWrong(transaction, scope, memoryId, text, stored.id);
    if (previous === 'wrong') throw new DomainError('conflict', `Memory ${memoryId} is already marked wrong`);
    return stored;
  });
  context.onSourceAdded?.();
  const memory = (await findMemory(db, scope, memoryId))!;
  return { memory, source: (await findSource(db, scope, source.id)) ?? source };
}

/** Forgets a memory for good. Throws not_found when the space has no such memory. */
export async function forget(context: OperationContext, scope: Scope, memoryId: number): Promise<void> {
  if (!(await deleteMemory(context.db, scope, memoryId))) throw new DomainError('not_found', `No memory ${memoryId} in this space`);
}

/** Deletes a source and the memories only it taught; returns how many memories went. Throws not_found when absent. */
export async function forgetSource(context: OperationContext, scope: Scope, sourceId: string): Promise<number> {
  const deleted = await deleteSource(context.db, scope, sourceId);
  if (deleted === null) throw new DomainError('not_found', `No source ${sourceId} in this space`);
  return deleted;
}
