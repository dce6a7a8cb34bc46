import type { HealthItem, MemoryHealthResponse } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Scope } from './scope.js';

/** The memory health tests of spaces (health_runs): who claimed a test, and what it found. */

/** What a finished test found. */
export interface HealthRunResult {
  asked: number;
  score: number;
  health: number | null;
  items: HealthItem[];
}

/** Ids of a space's current memories learned in [from, to), oldest first (at most 2,000). */
export async function memoryIdsLearned(db: Db, scope: Scope, from: Date, to: Date): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select id from memories
    where account_id = ${scope.accountId} and space = ${scope.space} and status = 'current' and not raw
      and created_at >= ${from} and created_at < ${to}
    order by created_at, id limit 2000`.execute(db);
  return rows.map((row) => row.id);
}

/** Ids of a space's newest current memories, newest first. */
export async function newestMemoryIdsLearned(db: Db, scope: Scope, limit: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select id from memories
    where account_id = ${scope.accountId} and space = ${scope.space} and status = 'current' and not raw
    order by created_at desc, id desc limit ${limit}`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * Starts a test asked for by a request, only in a space that exists (one statement: a space
 * deleted meanwhile is not an error). Returns the run's id, or null when there is no such space.
 */
export async function startRequestedRun(db: Db, scope: Scope, day: string): Promise<number | null> {
  const { rows } = await sql<{ id: number }>`
    insert into health_runs (account_id, space, day, nightly, claimed_by)
    select ${scope.accountId}, ${scope.space}, ${day}, false, 'request'
    where exists (select 1 from spaces where account_id = ${scope.accountId} and name = ${scope.space})
    returning id`.execute(db);
  return rows[0]?.id ?? null;
}

/** Records what a run found. */
export async function finishRun(db: Db, accountId: number, runId: number, result: HealthRunResult): Promise<void> {
  await sql`
    update health_runs set finished_at = now(), asked = ${result.asked}, score = ${result.score}, health = ${result.health},
      items = ${JSON.stringify(result.items)}::jsonb
    where account_id = ${accountId} and id = ${runId}`.execute(db);
}

/** The last finished test of a space; health is null before the first. */
export async function latestHealth(db: Db, scope: Scope): Promise<MemoryHealthResponse> {
  const { rows } = await sql<{ health: number | null; finished_at: Date; asked: number; score: number; items: HealthItem[] }>`
    select health, finished_at, asked, score, items from health_runs
    where account_id = ${scope.accountId} and space = ${scope.space} and finished_at is not null
    order by finished_at desc, id desc limit 1`.execute(db);
  const row = rows[0];
  if (!row) return { health: null, tested_at: null, asked: 0, score: 0, items: [] };
  return { health: row.health, tested_at: row.finished_at.toISOString(), asked: row.asked, score: row.score, items: row.items };
}

/** The spaces (of every account) that learned a current memory in [from, to) and have no nightly test of `day` yet. */
export async function spacesToTest(db: Db, from: Date, to: Date, day: string): Promise<{ accountId: number; space: string }[]> {
  const { rows } = await sql<{ account_id: number; space: string }>`
    select distinct m.account_id, m.space from memories m
    where m.created_at >= ${from} and m.created_at < ${to} and m.status = 'current' and not m.raw
      and not exists (
        select 1 from health_runs h where h.account_id = m.account_id and h.space = m.space and h.day = ${day} and h.nightly)`.execute(db);
  return rows.map((row) => ({ accountId: row.account_id, space: row.space }));
}

/**
 * Claims the nightly test of a space for a day: the run's id for the first caller, null for every
 * other (so the test runs once however many processes try).
 */
export async function claimNightlyRun(db: Db, scope: Scope, day: string, claimedBy: string): Promise<number | null> {
  const { rows } = await sql<{ id: number }>`
    insert into health_runs (account_id, space, day, nightly, claimed_by)
    values (${scope.accountId}, ${scope.space}, ${day}, true, ${claimedBy})
    on conflict (account_id, space, day) where nightly do nothing
    returning id`.execute(db);
  return rows[0]?.id ?? null;
}
