import type { Usage } from '@engram/protocol';
import type { Config } from '../config.js';
import { DomainError } from '../domain-error.js';
import type { LearnFacts } from '../learn/pool.js';
import type { Model } from '../model/model-client.js';
import type { Parsers, ReadConfig } from '../read/read-source.js';
import type { Db } from '../store/database.js';
import { accountsWithWaiting, releaseWaiting, sweepRateCounters, usageSnapshot } from '../store/usage-repository.js';
import { canLearn, periodOf, usageRecord } from './usage.js';

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
  if (!snapshot) throw new DomainError('authentication_error', "The key's account no longer exists");
  return usageRecord(context.config, snapshot.account, snapshot.figures, now, snapshot.shown);
}

/**
 * Whether a new save is learned now or waits for the plan: 'learn' or 'wait'.
 * Throws usage_paused (a DomainError; 402 over HTTP) when the account is paused (nothing is stored).
 */
export async function admitSave(context: MeterContext, accountId: number): Promise<'learn' | 'wait'> {
  const usage = await currentUsage(context, accountId);
  if (usage.state === 'paused') {
    throw new DomainError(
      'usage_paused',
      'This account has used its plan and a month of saves is already waiting; saving resumes next period, or with extra learning on',
    );
  }
  return canLearn(usage.state) ? 'learn' : 'wait';
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
