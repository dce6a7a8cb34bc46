import type { Usage } from '@engram/protocol';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { HttpError } from '../http/errors.js';
import { learnSource } from '../jobs/learn-source.js';
import type { Job } from '../jobs/queue.js';
import type { LearnFacts } from '../learn/pool.js';
import type { Model, ModelUsage } from '../model/model-client.js';
import type { Parsers, ReadConfig } from '../read/read-source.js';
import { readOptionsFrom } from '../read/read-source.js';
import type { Db } from '../store/database.js';
import { deleteRawPassages, storeRawPassages } from '../store/passage-repository.js';
import type { Scope } from '../store/scope.js';
import { loadSourceContent } from '../store/source-repository.js';
import {
  accountsWithWaiting,
  addLearnedTokens,
  addModelTokens,
  releaseWaiting,
  sweepRateCounters,
  usageSnapshot,
} from '../store/usage-repository.js';
import { billedTokens, canLearn, periodOf, usageRecord } from './usage.js';

/** What metering needs: the store, the plans, and the clock (tests move it). */
export interface MeterContext {
  db: Db;
  config: Pick<Config, 'plans' | 'maxAttempts'> & ReadConfig;
  now: () => Date;
  /** Where the learner runs and pages and files are parsed (learner threads); this thread when absent. */
  learn?: LearnFacts;
  parsers?: Parsers;
  /** The optional model, which learns facts when set (the offline learner takes what it fails on). */
  model?: Model | null;
}

/** The usage record of an account, or one space's share of it. */
export async function currentUsage(context: MeterContext, accountId: number, space: string | null = null): Promise<Usage> {
  const now = context.now();
  const snapshot = await usageSnapshot(context.db, accountId, periodOf(now).start, space);
  if (!snapshot) throw new HttpError('authentication_error', "The key's account no longer exists");
  return usageRecord(context.config, snapshot.account, snapshot.figures, now, snapshot.shown);
}

/**
 * Whether a new save is learned now or waits for the plan: 'learn' or 'wait'.
 * Throws 402 usage_paused when the account is paused (nothing is stored).
 */
export async function admitSave(context: MeterContext, accountId: number): Promise<'learn' | 'wait'> {
  const usage = await currentUsage(context, accountId);
  if (usage.state === 'paused') {
    throw new HttpError(
      'usage_paused',
      'This account has used its plan and a month of saves is already waiting; saving resumes next period, or with extra learning on',
    );
  }
  return canLearn(usage.state) ? 'learn' : 'wait';
}

/**
 * Learns a claimed job's source when the plan allows, and counts its tokens (at least
 * 100 a save). When it does not, the source waits: its text stays searchable as raw
 * passages and it is queued again when a new period (or extra learning) allows.
 */
export async function learnMetered(context: MeterContext, job: Job): Promise<void> {
  const { db } = context;
  const scope: Scope = { accountId: job.accountId, space: job.space };
  const usage = await currentUsage(context, job.accountId);
  if (!canLearn(usage.state)) {
    await db.transaction().execute(async (transaction) => {
      const source = await loadSourceContent(transaction, scope, job.sourceId);
      await sql`delete from jobs where id = ${job.id}`.execute(transaction);
      if (!source) return;
      await sql`update sources set status = 'waiting' where account_id = ${job.accountId} and id = ${source.id}`.execute(transaction);
      await deleteRawPassages(transaction, scope, source.id);
      await storeRawPassages(transaction, scope, source, source.written_at);
    });
    return;
  }
  await db.transaction().execute((transaction) => deleteRawPassages(transaction, scope, job.sourceId));
  // A job that lost its source to a rewrite or a delete is not billed: the rewrite's job is.
  const options = {
    read: readOptionsFrom(context.config),
    learn: context.learn,
    parsers: context.parsers,
    model: context.model,
    countModel: (usage: ModelUsage) => addModelTokens(db, scope, periodOf(context.now()).start, usage),
  };
  if (!(await learnSource(db, job, options))) return;
  const { rows } = await sql<{ tokens: number; status: string }>`
    select tokens, status from sources where id = ${job.sourceId} and account_id = ${job.accountId}`.execute(db);
  if (rows[0]?.status === 'finished') {
    await addLearnedTokens(db, scope, periodOf(context.now()).start, billedTokens(rows[0].tokens));
  }
}

/** Queues the waiting sources of every account whose plan now allows learning; sweeps old rate counters. */
export async function releaseAllWaiting(context: MeterContext): Promise<number> {
  let released = 0;
  for (const accountId of await accountsWithWaiting(context.db)) {
    const usage = await currentUsage(context, accountId);
    if (canLearn(usage.state)) released += await releaseWaiting(context.db, accountId, context.config.maxAttempts);
  }
  await sweepRateCounters(context.db);
  return released;
}
