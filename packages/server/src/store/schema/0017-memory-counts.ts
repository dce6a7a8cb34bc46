import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Counts kept as memories change instead of counted on every listing: how many current
 * memories (not raw passages) each source taught, shown by the sources listing, and how many
 * current memories of each kind a space holds (raw passages under 'raw'), shown by the memories
 * and spaces listings and weighed by search. Counting them per request read every link of a
 * page's sources, or every memory of a space.
 *
 * The repositories keep them in the statements that add or remove links and change a memory's
 * status (store/memory-counts.ts), not triggers: they hold on a sharded store too, where the
 * statement triggers of migration 6 do not run (docs/citus.sql). A source's count lives apart
 * from its row, which learning holds for share while it runs. Each count row goes with its
 * source or space (on delete cascade); the counts of what is here already are taken now.
 */
export const memoryCounts: Migration = {
  id: 17,
  name: 'memory-counts',
  async up(db) {
    await sql`
      create table source_memory_counts (
        account_id integer not null,
        source_id text not null,
        count integer not null default 0,
        primary key (account_id, source_id),
        foreign key (account_id, source_id) references sources (account_id, id) on delete cascade
      )`.execute(db);
    await sql`
      create table space_memory_counts (
        account_id integer not null,
        space text not null,
        kind text not null,
        count integer not null default 0,
        primary key (account_id, space, kind),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`
      insert into source_memory_counts (account_id, source_id, count)
      select ms.account_id, ms.source_id, count(*)::int from memory_sources ms
        join memories m on m.account_id = ms.account_id and m.id = ms.memory_id
      where m.status = 'current' and not m.raw
      group by ms.account_id, ms.source_id`.execute(db);
    await sql`
      insert into space_memory_counts (account_id, space, kind, count)
      select m.account_id, m.space, case when m.raw then 'raw' else m.kind end, count(*)::int from memories m
      where m.status = 'current'
      group by 1, 2, 3`.execute(db);
  },
};
