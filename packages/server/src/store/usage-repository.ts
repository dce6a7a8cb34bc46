import type { Plan } from '@engram/protocol';
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { KeyRecord } from './account-repository.js';
import { keyRecordOf, TOUCH_EVERY_MS } from './account-repository.js';
import type { Db, Row } from './database.js';
import type { Scope } from './scope.js';

/** An account's plan settings, as stored. */
export interface AccountPlan {
  id: number;
  plan: Plan;
  trialEndsAt: Date | null;
  extraOn: boolean;
  extraCapUsd: number;
}

/** What was used in a period: by the account, or by one space. */
export interface UsageFigures {
  learnedTokens: number;
  waitingTokens: number;
  answers: number;
  /** Tokens sent to and received from the optional model. */
  modelInputTokens: number;
  modelOutputTokens: number;
}

/** Sets an account's plan; choosing a paid plan ends the trial. */
export async function setPlan(db: Db, accountId: number, plan: Plan): Promise<boolean> {
  const { rows } = await sql`
    update accounts set plan = ${plan},
      trial_ends_at = case when ${plan} = 'free' then trial_ends_at else least(trial_ends_at, now()) end
    where id = ${accountId} returning id`.execute(db);
  return rows.length > 0;
}

/** Switches extra learning on (with its monthly cap) or off. */
export async function setExtra(db: Db, accountId: number, on: boolean, capUsd?: number): Promise<boolean> {
  const { rows } = await sql`
    update accounts set extra_on = ${on}, extra_cap_usd = coalesce(${capUsd ?? null}::numeric, extra_cap_usd)
    where id = ${accountId} returning id`.execute(db);
  return rows.length > 0;
}

/** Adds learned tokens to a space's count for the period. */
export async function addLearnedTokens(db: Db, scope: Scope, periodStart: Date, tokens: number): Promise<void> {
  await sql`
    insert into usage_counters (account_id, space, period_start, learned_tokens)
    values (${scope.accountId}, ${scope.space}, ${periodStart}, ${tokens})
    on conflict (account_id, period_start, space) do update set learned_tokens = usage_counters.learned_tokens + excluded.learned_tokens`.execute(
    db,
  );
}

/** Adds what the optional model's calls cost to a space's count for the period. */
export async function addModelTokens(db: Db, scope: Scope, periodStart: Date, usage: { input: number; output: number }): Promise<void> {
  if (!usage.input && !usage.output) return;
  await sql`
    insert into usage_counters (account_id, space, period_start, model_input_tokens, model_output_tokens)
    values (${scope.accountId}, ${scope.space}, ${periodStart}, ${usage.input}, ${usage.output})
    on conflict (account_id, period_start, space) do update set
      model_input_tokens = usage_counters.model_input_tokens + excluded.model_input_tokens,
      model_output_tokens = usage_counters.model_output_tokens + excluded.model_output_tokens`.execute(db);
}

/** Counts one written answer or context block for a space. */
export async function addAnswer(db: Db, scope: Scope, periodStart: Date): Promise<void> {
  await sql`
    insert into usage_counters (account_id, space, period_start, answers)
    values (${scope.accountId}, ${scope.space}, ${periodStart}, 1)
    on conflict (account_id, period_start, space) do update set answers = usage_counters.answers + 1`.execute(db);
}

/**
 * The usage columns of an account `a` for a period, its totals beside the share of the space
 * named by `share`: each table is read once.
 */
const usageLaterals = (periodStart: Date, share: RawBuilder<unknown>) => sql`
  lateral (select coalesce(sum(learned_tokens), 0)::bigint as learned, coalesce(sum(answers), 0)::bigint as answers,
      coalesce(sum(learned_tokens) filter (where space = ${share}), 0)::bigint as space_learned,
      coalesce(sum(answers) filter (where space = ${share}), 0)::bigint as space_answers,
      coalesce(sum(model_input_tokens), 0)::bigint as model_in, coalesce(sum(model_output_tokens), 0)::bigint as model_out,
      coalesce(sum(model_input_tokens) filter (where space = ${share}), 0)::bigint as space_model_in,
      coalesce(sum(model_output_tokens) filter (where space = ${share}), 0)::bigint as space_model_out
    from usage_counters where account_id = a.id and period_start = ${periodStart}) u,
  lateral (select coalesce(sum(greatest(tokens, 100)), 0)::bigint as waiting,
      coalesce(sum(greatest(tokens, 100)) filter (where space = ${share}), 0)::bigint as space_waiting
    from sources where account_id = a.id and status = 'waiting') w`;

/** The columns `usageLaterals` adds to a row: sums, read as numbers or (bigint) as text. */
type UsageColumns = Record<
  | 'learned'
  | 'answers'
  | 'space_learned'
  | 'space_answers'
  | 'model_in'
  | 'model_out'
  | 'space_model_in'
  | 'space_model_out'
  | 'waiting'
  | 'space_waiting',
  number | string
>;

/** An account's plan columns beside `usageLaterals`. */
type AccountUsageRow = { account_id: number } & Pick<Row<'accounts'>, 'plan' | 'trial_ends_at' | 'extra_on' | 'extra_cap_usd'> &
  UsageColumns;

/** An account's plan and usage from a row of `usageLaterals` beside the account's columns. */
function snapshotOf(row: AccountUsageRow, space: string | null): UsageSnapshot {
  const account: AccountPlan = {
    id: row.account_id,
    plan: row.plan as Plan,
    trialEndsAt: row.trial_ends_at,
    extraOn: row.extra_on,
    extraCapUsd: Number(row.extra_cap_usd),
  };
  const figures = {
    learnedTokens: Number(row.learned),
    answers: Number(row.answers),
    waitingTokens: Number(row.waiting),
    modelInputTokens: Number(row.model_in),
    modelOutputTokens: Number(row.model_out),
  };
  const shown =
    space === null
      ? figures
      : {
          learnedTokens: Number(row.space_learned),
          answers: Number(row.space_answers),
          waitingTokens: Number(row.space_waiting),
          modelInputTokens: Number(row.space_model_in),
          modelOutputTokens: Number(row.space_model_out),
        };
  return { account, figures, shown };
}

/** An account's plan with its usage figures for a period, and the share of one space (or the whole account's). */
export interface UsageSnapshot {
  account: AccountPlan;
  figures: UsageFigures;
  shown: UsageFigures;
}

/**
 * An account's plan and its usage figures for a period, with one space's share when a space
 * is given, in one round trip (the usage headers of every answer read them).
 */
export async function usageSnapshot(db: Db, accountId: number, periodStart: Date, space: string | null): Promise<UsageSnapshot | null> {
  const { rows } = await sql<AccountUsageRow>`
    select a.id as account_id, a.plan, a.trial_ends_at, a.extra_on, a.extra_cap_usd, u.*, w.*
    from accounts a, ${usageLaterals(periodStart, sql`${space ?? ''}`)}
    where a.id = ${accountId}`.execute(db);
  return rows[0] ? snapshotOf(rows[0], space) : null;
}

/** What one statement finds about a call's key: the key, its request counted, the account's usage. */
export interface Admission {
  key: KeyRecord;
  /** The key's requests so far this minute and the seconds until it turns; null for a key refused (revoked or expired). */
  rate: { count: number; left: number } | null;
  /** The account's plan and usage, with the key's space's share for a limited key; null for a key refused. */
  usage: UsageSnapshot | null;
}

/**
 * Everything a keyed call needs before its work, in one round trip: the key by its hash; when it
 * is neither revoked nor expired at `now`, its last use recorded (at most twice a minute), the
 * request counted in the key's current minute (in the database, so the limit holds across API
 * processes) and the account's usage for the period starting `periodStart`. Null for no such key.
 */
export async function admitCall(db: Db, hash: string, now: Date, periodStart: Date): Promise<Admission | null> {
  /** The key's columns; the count and the account's columns are null for a key refused. */
  type AdmissionRow = Pick<Row<'api_keys'>, 'id' | 'account_id' | 'space' | 'rpm' | 'expires_at' | 'revoked_at' | 'last_used_at'> & {
    count: number | null;
    left: number | null;
  } & Omit<AccountUsageRow, 'account_id' | 'plan'> & { plan: string | null };
  const { rows } = await sql<AdmissionRow>`
    with k as (
      select id, account_id, space, rpm, expires_at, revoked_at, last_used_at from api_keys where hash = ${hash}),
    valid as (
      select id, account_id, space from k where revoked_at is null and (expires_at is null or expires_at > ${now}::timestamptz)),
    touched as (
      update api_keys t set last_used_at = now() from valid v
      where t.id = v.id and (t.last_used_at is null or t.last_used_at < now() - make_interval(secs => ${TOUCH_EVERY_MS / 1_000})) returning t.id),
    counted as (
      insert into rate_counters (key_id, window_start, count) select id, date_trunc('minute', now()), 1 from valid
      on conflict (key_id, window_start) do update set count = rate_counters.count + 1
      returning count, extract(epoch from date_trunc('minute', now()) + interval '1 minute' - now())::float8 as left)
    select k.id, k.account_id, k.space, k.rpm, k.expires_at, k.revoked_at, k.last_used_at, c.count, c.left,
      a.plan, a.trial_ends_at, a.extra_on, a.extra_cap_usd, u.*, w.*
    from k left join counted c on true
      left join accounts a on a.id = k.account_id and c.count is not null
      cross join ${usageLaterals(periodStart, sql`coalesce(k.space, '')`)}`.execute(db);
  const row = rows[0];
  if (!row) return null;
  const key = keyRecordOf(row);
  if (row.count === null) return { key, rate: null, usage: null };
  const { plan } = row;
  return { key, rate: { count: row.count, left: row.left ?? 0 }, usage: plan === null ? null : snapshotOf({ ...row, plan }, row.space) };
}

/**
 * `admitCall` for several calls at once, in one round trip (calls that come together: http/
 * admission.ts): each call's key by its hash, each key's use recorded once, and each call that
 * its key admits at the call's own time (neither revoked nor expired) counted in the key's
 * minute, one after another in the order given, so each gets the count it would have got alone,
 * as if the calls had come one after another. The account's usage is read once for all, for the
 * period starting `periodStart` (the same for all the calls). Answers in the order of `calls`.
 */
export async function admitCalls(db: Db, calls: readonly { hash: string; at: Date }[], periodStart: Date): Promise<(Admission | null)[]> {
  if (!calls.length) return [];
  type AdmissionRow = Pick<Row<'api_keys'>, 'id' | 'account_id' | 'space' | 'rpm' | 'expires_at' | 'revoked_at' | 'last_used_at'> & {
    hash: string;
    count: number | null;
    left: number | null;
  } & Omit<AccountUsageRow, 'account_id' | 'plan'> & { plan: string | null };
  const { rows } = await sql<AdmissionRow>`
    with asked as (
      select hash, at from unnest(${calls.map((call) => call.hash)}::text[], ${calls.map((call) => call.at.toISOString())}::timestamptz[]) as c(hash, at)),
    k as (
      select id, account_id, space, rpm, expires_at, revoked_at, last_used_at, hash from api_keys
      where hash in (select hash from asked)),
    valid as (
      select k.id, count(*)::int as calls from k join asked on asked.hash = k.hash
      where k.revoked_at is null and (k.expires_at is null or k.expires_at > asked.at) group by k.id),
    touched as (
      update api_keys t set last_used_at = now() from valid v
      where t.id = v.id and (t.last_used_at is null or t.last_used_at < now() - make_interval(secs => ${TOUCH_EVERY_MS / 1_000})) returning t.id),
    counted as (
      insert into rate_counters (key_id, window_start, count) select id, date_trunc('minute', now()), calls from valid
      on conflict (key_id, window_start) do update set count = rate_counters.count + excluded.count
      returning key_id, count, extract(epoch from date_trunc('minute', now()) + interval '1 minute' - now())::float8 as left)
    select k.hash, k.id, k.account_id, k.space, k.rpm, k.expires_at, k.revoked_at, k.last_used_at, c.count, c.left,
      a.plan, a.trial_ends_at, a.extra_on, a.extra_cap_usd, u.*, w.*
    from k left join counted c on c.key_id = k.id
      left join accounts a on a.id = k.account_id and c.count is not null
      cross join ${usageLaterals(periodStart, sql`coalesce(k.space, '')`)}`.execute(db);
  const byHash = new Map(rows.map((row) => [row.hash, row]));
  // Each key's count is its last call's: the calls it admitted before it are counted down from there.
  const admittedAfter = new Map<string, number>();
  const admits = (row: AdmissionRow, at: Date) =>
    row.revoked_at === null && (row.expires_at === null || row.expires_at.getTime() > at.getTime());
  const answers: (Admission | null)[] = [];
  for (let index = calls.length - 1; index >= 0; index--) {
    const { hash, at } = calls[index]!;
    const row = byHash.get(hash);
    if (!row) {
      answers.push(null);
      continue;
    }
    const key = keyRecordOf(row);
    if (row.count === null || !admits(row, at)) {
      answers.push({ key, rate: null, usage: null });
      continue;
    }
    const later = admittedAfter.get(hash) ?? 0;
    admittedAfter.set(hash, later + 1);
    const { plan } = row;
    answers.push({
      key,
      rate: { count: row.count - later, left: row.left ?? 0 },
      usage: plan === null ? null : snapshotOf({ ...row, plan }, row.space),
    });
  }
  return answers.reverse();
}

/** Accounts holding sources that wait for the plan to allow learning. */
export async function accountsWithWaiting(db: Db): Promise<number[]> {
  const { rows } = await sql<{ account_id: number }>`select distinct account_id from sources where status = 'waiting'`.execute(db);
  return rows.map((row) => row.account_id);
}

/** Queues an account's waiting sources for learning again, oldest first. Returns how many. */
export async function releaseWaiting(db: Db, accountId: number, maxAttempts: number): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    // `returning` keeps no order: the jobs are inserted oldest source first, so the claim (by run_at, id) takes them in that order.
    const { rows } = await sql<{ id: string; space: string }>`
      with released as (
        update sources set status = 'queued' where account_id = ${accountId} and status = 'waiting' returning id, space, created_at
      )
      select id, space from released order by created_at, id`.execute(transaction);
    for (const row of rows) {
      await sql`
        insert into jobs (account_id, space, source_id, max_attempts) values (${accountId}, ${row.space}, ${row.id}, ${maxAttempts})
        on conflict (source_id) do update set run_at = now(), locked_at = null`.execute(transaction);
    }
    return rows.length;
  });
}

/** Deletes rate counters of minutes long past. */
export async function sweepRateCounters(db: Db): Promise<void> {
  await sql`delete from rate_counters where window_start < now() - interval '5 minutes'`.execute(db);
}

/**
 * Counts one request of a key in the current minute, in the database so that the limit holds
 * across API processes; returns the count so far and the seconds until the minute turns.
 */
export async function countRequest(db: Db, keyId: number): Promise<{ count: number; left: number }> {
  const { rows } = await sql<{ count: number; left: number }>`
    insert into rate_counters (key_id, window_start, count) values (${keyId}, date_trunc('minute', now()), 1)
    on conflict (key_id, window_start) do update set count = rate_counters.count + 1
    returning count, extract(epoch from date_trunc('minute', now()) + interval '1 minute' - now())::float8 as left`.execute(db);
  return rows[0]!;
}
