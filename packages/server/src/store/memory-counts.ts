import type { Counts, MemoryKind } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Scope } from './scope.js';

/*
 * The counts the listings show, kept as memories change (migration 17): per source, its links to
 * current memories that are not raw passages; per space and kind, its current memories, raw
 * passages (stored as details) under a kind of their own, 'raw'. Every
 * statement that adds or removes a link or a memory, or changes a memory's status, changes them
 * by what it changed, in the same transaction. Count rows are taken in key order, so that two
 * writers never wait on each other's.
 */

/**
 * Two CTEs (`source_counts`, `kind_counts`) that add `sign` times the memories of a CTE named
 * `changed` (columns id, kind, status, raw: as the memories stand on the counted side of the
 * change) to the counts: each link of a current, not raw, memory to its source, and each current
 * memory to its kind. The links are read as the statement starts, so a statement deleting
 * memories still finds theirs.
 */
export const countChanged = (scope: Scope, sign: 1 | -1) => sql`
  source_counts as (
    insert into source_memory_counts (account_id, source_id, count)
    select ms.account_id, ms.source_id, ${sign}::int * count(*)::int
    from changed c cross join lateral (
      select l.account_id, l.source_id from memory_sources l where l.account_id = ${scope.accountId} and l.memory_id = c.id) ms
    where c.status = 'current' and not c.raw
    group by ms.account_id, ms.source_id order by ms.source_id
    on conflict (account_id, source_id) do update set count = source_memory_counts.count + excluded.count),
  kind_counts as (
    insert into space_memory_counts (account_id, space, kind, count)
    select ${scope.accountId}, ${scope.space}, k.kind, ${sign}::int * count(*)::int
    from changed c cross join lateral (select case when c.raw then 'raw' else c.kind end as kind) k
    where c.status = 'current'
    group by k.kind order by k.kind
    on conflict (account_id, space, kind) do update set count = space_memory_counts.count + excluded.count)`;

/**
 * Counts memories of the scope in (`sign` 1) or out (-1) as they stand now, with their links:
 * after storing them with their links, or before changing them (their rows locked first).
 */
export async function countMemoriesOf(transaction: Db, scope: Scope, ids: readonly number[], sign: 1 | -1): Promise<void> {
  if (!ids.length) return;
  await sql`
    with changed as (
      select m.id, m.kind, m.status, m.raw from memories m
      where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.id = any(${[...new Set(ids)]}::int[])),
    ${countChanged(scope, sign)}
    select 1`.execute(transaction);
}

/** A CTE (`kind_counts`) adding one current memory of each kind given ('raw' for a raw passage) to the scope's counts. */
export const countKinds = (scope: Scope, kinds: readonly (MemoryKind | 'raw')[]) => {
  const deltas = new Map<string, number>();
  for (const kind of kinds) deltas.set(kind, (deltas.get(kind) ?? 0) + 1);
  const rows = [...deltas].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, n]) => ({ kind, n }));
  return sql`
    kind_counts as (
      insert into space_memory_counts (account_id, space, kind, count)
      select ${scope.accountId}, ${scope.space}, d.kind, d.n from json_to_recordset(${JSON.stringify(rows)}::json) as d(kind text, n integer)
      order by d.kind
      on conflict (account_id, space, kind) do update set count = space_memory_counts.count + excluded.count)`;
};

/** Adds new current memories of the given kinds ('raw' for a raw passage) to the scope's counts. */
export async function addKindCounts(transaction: Db, scope: Scope, kinds: readonly (MemoryKind | 'raw')[]): Promise<void> {
  if (!kinds.length) return;
  await sql`with ${countKinds(scope, kinds)} select 1`.execute(transaction);
}

/** The scope's current memories by kind, as kept; raw passages count as details. */
export async function keptCounts(db: Db, scope: Scope): Promise<Counts> {
  const { rows } = await sql<{ kind: MemoryKind | 'raw'; count: number }>`
    select kind, count from space_memory_counts where account_id = ${scope.accountId} and space = ${scope.space}`.execute(db);
  const counts: Counts = { all: 0, people: 0, plan: 0, pref: 0, detail: 0 };
  for (const row of rows) {
    counts[row.kind === 'raw' ? 'detail' : row.kind] += row.count;
    counts.all += row.count;
  }
  return counts;
}

/** The scope's current memories, raw passages included, as kept: one small read. */
export async function keptTotal(db: Db, scope: Scope): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select coalesce(sum(count), 0)::int as count from space_memory_counts
    where account_id = ${scope.accountId} and space = ${scope.space}`.execute(db);
  return rows[0]?.count ?? 0;
}
