import type { Usage } from '@engram/protocol';
import type { Config } from '../config.js';
import { DomainError } from '../domain-error.js';
import type { LearnFacts } from '../learn/pool.js';
import type { Model } from '../model/model-client.js';
import type { Parsers, ReadConfig } from '../read/read-source.js';
import type { Db } from '../store/database.js';
import type { UsageSnapshot } from '../store/usage-repository.js';
import { accountsWithWaiting, releaseWaiting, sweepRateCounters, usageSnapshot } from '../store/usage-repository.js';
import { billedTokens, canLearn, periodOf, usageRecord } from './usage.js';

/** What metering needs: the store, the plans, and the clock (tests move it). */
export interface MeterContext {
  db: Db;
  config: Pick<Config, 'plans' | 'maxAttempts' | 'databaseUrl'> & ReadConfig;
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
 * `known` is the account's usage as the call read it with its key (middleware `authenticate`,
 * the same request, a moment before): judged on it, the save reads nothing more. Without it the
 * usage is read now.
 */
export async function admitSave(context: MeterContext, accountId: number, known?: KnownUsage): Promise<'learn' | 'wait'> {
  const usage =
    known && known.snapshot.account.id === accountId
      ? usageRecord(context.config, known.snapshot.account, known.snapshot.figures, known.at)
      : await currentUsage(context, accountId);
  if (usage.state === 'paused') {
    throw new DomainError(
      'usage_paused',
      'This account has used its plan and a month of saves is already waiting; saving resumes next period, or with extra learning on',
    );
  }
  return canLearn(usage.state) ? 'learn' : 'wait';
}

/** An account's usage as a call already read it, and when. */
export interface KnownUsage {
  snapshot: UsageSnapshot;
  at: Date;
}

/**
 * The usage snapshot after saves whose stored sources are `saved`: each one kept waiting adds its
 * billed tokens to the waiting figures (the account's, and the shown share of `shownSpace` when it
 * is the saved one; null shows the account's); a queued one changes no figure until it is learned.
 */
export function afterSaves(
  snapshot: UsageSnapshot,
  shownSpace: string | null,
  saved: readonly { space: string; status: string; tokens: number }[],
): UsageSnapshot {
  let account = 0;
  let shown = 0;
  for (const source of saved) {
    if (source.status !== 'waiting') continue;
    account += billedTokens(source.tokens);
    if (shownSpace === null || shownSpace === source.space) shown += billedTokens(source.tokens);
  }
  if (!account) return snapshot;
  const figures = { ...snapshot.figures, waitingTokens: snapshot.figures.waitingTokens + account };
  // An account key is shown the account's figures; a limited key its space's share.
  const shownFigures = shownSpace === null ? figures : { ...snapshot.shown, waitingTokens: snapshot.shown.waitingTokens + shown };
  return { account: snapshot.account, figures, shown: shownFigures };
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
