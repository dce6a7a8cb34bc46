import type { Usage, UsageState } from '@engram/protocol';
import { LIMITS } from '@engram/protocol';
import type { Config } from '../config.js';
import type { AccountPlan, UsageFigures } from '../store/usage-repository.js';

export type { AccountPlan, UsageFigures } from '../store/usage-repository.js';

/** A counting period: the calendar month (UTC) holding `now`. */
export function periodOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Whether the account is on its one 14-day Pro trial at `now` (accounts on free only). */
export const onTrial = (account: AccountPlan, now: Date) =>
  account.plan === 'free' && account.trialEndsAt !== null && now.getTime() < account.trialEndsAt.getTime();

/** What extra learning has cost this period at the SPEC.md prices, up to the cap. */
export function extraCost(account: AccountPlan, figures: UsageFigures, included: { tokens: number; answers: number }): number {
  if (!account.extraOn) return 0;
  const tokens = Math.max(0, figures.learnedTokens - included.tokens);
  const answers = Math.max(0, figures.answers - included.answers);
  const cost = (tokens / 1_000_000) * LIMITS.extraPriceUsd.perMillionTokens + (answers / 1_000) * LIMITS.extraPriceUsd.perThousandAnswers;
  return Math.min(account.extraCapUsd, Math.round(cost * 10_000) / 10_000);
}

/**
 * The usage state machine, driven by learned tokens:
 * - ok: under 80 % of the plan's tokens and answers;
 * - near: at 80 % of either;
 * - over: the plan's tokens are used; new saves are kept and searchable, and wait for the next period;
 * - extra: over, with extra learning on and under its cap; learning goes on, cost accrues;
 * - paused: over (extra off or capped) and a whole month's allowance already waits; new saves are refused.
 * Answers past the plan are still given (recall is never blocked) and cost extra when extra is on.
 */
export function usageState(account: AccountPlan, figures: UsageFigures, included: { tokens: number; answers: number }): UsageState {
  if (figures.learnedTokens >= included.tokens) {
    if (account.extraOn && extraCost(account, figures, included) < account.extraCapUsd) return 'extra';
    return figures.waitingTokens >= included.tokens ? 'paused' : 'over';
  }
  const near = LIMITS.usageNearShare;
  if (figures.learnedTokens >= near * included.tokens || figures.answers >= near * included.answers) return 'near';
  return 'ok';
}

/** Whether sources may be learned now. */
export const canLearn = (state: UsageState) => state === 'ok' || state === 'near' || state === 'extra';

/**
 * The usage record. `account` figures decide the state; `shown` are the figures reported
 * (the account's, or one space's share).
 */
export function usageRecord(
  config: Pick<Config, 'plans'>,
  account: AccountPlan,
  accountFigures: UsageFigures,
  now: Date,
  shown: UsageFigures = accountFigures,
): Usage {
  const trial = onTrial(account, now);
  const included = config.plans[trial ? 'pro' : account.plan];
  const period = periodOf(now);
  return {
    plan: account.plan,
    trial,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    learned_tokens: shown.learnedTokens,
    included_tokens: included.tokens,
    waiting_tokens: shown.waitingTokens,
    answers: shown.answers,
    included_answers: included.answers,
    extra_on: account.extraOn,
    extra_cap_usd: account.extraCapUsd,
    extra_used_usd: extraCost(account, accountFigures, included),
    state: usageState(account, accountFigures, included),
    model_input_tokens: shown.modelInputTokens,
    model_output_tokens: shown.modelOutputTokens,
  };
}

/** Tokens a save counts for: what it holds, at least 100 (SPEC.md section 8). */
export const billedTokens = (tokens: number) => Math.max(LIMITS.minLearnedTokensPerSave, tokens);
