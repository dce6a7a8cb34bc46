import { sql } from 'kysely';
import type { Db } from './database.js';
import { countChanged } from './memory-counts.js';
import type { Scope } from './scope.js';

/** A list of ids as a SQL set, passed as one JSON parameter. */
export const jsonIds = (ids: readonly number[]) => sql`(select value::int from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/**
 * Takes the sources away from the given memories (all of the sources' memories when
 * `memoryIds` is null). A memory left with no source is deleted; one that another source
 * also taught stays, and names the oldest of those as its own. Returns how many memories went.
 */
export async function unlinkMemories(
  transaction: Db,
  scope: Scope,
  sourceIds: readonly string[],
  memoryIds: readonly number[] | null,
): Promise<number> {
  if (memoryIds !== null && memoryIds.length === 0) return 0;
  const sources = sql`(select value from jsonb_array_elements_text(${JSON.stringify(sourceIds)}::jsonb))`;
  const chosen = memoryIds === null ? sql`true` : sql`ms.memory_id in ${jsonIds(memoryIds)}`;
  // Each source's count loses the links to current memories it gives up (store/memory-counts.ts).
  const { rows } = await sql<{ memory_id: number }>`
    with removed as (
      delete from memory_sources ms where ms.account_id = ${scope.accountId} and ms.source_id in ${sources} and ${chosen}
      returning ms.memory_id, ms.source_id),
    source_counts as (
      insert into source_memory_counts (account_id, source_id, count)
      select ${scope.accountId}, r.source_id, -count(*)::int from removed r
        join memories m on m.account_id = ${scope.accountId} and m.id = r.memory_id
      where m.status = 'current' and not m.raw
      group by r.source_id order by r.source_id
      on conflict (account_id, source_id) do update set count = source_memory_counts.count + excluded.count)
    select memory_id from removed`.execute(transaction);
  if (!rows.length) return 0;
  const touched = jsonIds([...new Set(rows.map((row) => row.memory_id))]);
  const deleted = await sql`
    with changed as (
      delete from memories m
      where m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.id in ${touched}
        and not exists (select 1 from memory_sources ms where ms.account_id = m.account_id and ms.memory_id = m.id)
      returning m.id, m.kind, m.status, m.raw),
    ${countChanged(scope, -1)}
    select id from changed`.execute(transaction);
  await sql`
    update memories m set source_id = other.source_id, sentence_text = other.sentence_text,
      message_index = other.message_index, sentence_start = other.sentence_start, sentence_end = other.sentence_end,
      updated_at = now()
    from (
      select distinct on (ms.memory_id) ms.memory_id, ms.source_id, ms.sentence_text, ms.message_index,
        ms.sentence_start, ms.sentence_end
      from memory_sources ms where ms.account_id = ${scope.accountId} and ms.memory_id in ${touched}
      order by ms.memory_id, ms.created_at, ms.source_id
    ) other
    where m.account_id = ${scope.accountId} and m.id = other.memory_id and m.source_id in ${sources}`.execute(transaction);
  return deleted.rows.length;
}
