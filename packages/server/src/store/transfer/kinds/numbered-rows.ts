import { sql } from 'kysely';
import type { Db } from '../../database.js';
import type { Scope } from '../../scope.js';
import { keysetRows } from '../record-kind.js';

/** Rows of these tables read at once; each is a sentence or two (a health run holds its few questions). */
const PAGE = 500;

/**
 * The rows of a briefing table (state items, intentions, lessons, episodes, health runs) of a
 * space in id order, a page at a time, as `select` reads them (which names the other columns).
 */
export function numberedRows<Row extends { id: number }>(
  db: Db,
  scope: Scope,
  table: string,
  select: ReturnType<typeof sql>,
): AsyncIterable<Row> {
  return keysetRows(
    async (after: number | null) => {
      const { rows } = await sql<Row>`
        select id, ${select} from ${sql.table(table)}
        where account_id = ${scope.accountId} and space = ${scope.space} and id > ${after ?? 0}
        order by id limit ${PAGE}`.execute(db);
      return rows;
    },
    (row) => row.id,
    PAGE,
  );
}

/**
 * The id a restored row gets: the file's when no row of the store holds it (so intentions keep
 * the ids the API showed, and a restore into a fresh store is the same store), else a new one.
 * Nothing else refers to these ids, so they need no map.
 */
export async function rowId(transaction: Db, table: string, original: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    select case when exists (select 1 from ${sql.table(table)} where id = ${original}) then nextval(pg_get_serial_sequence(${table}, 'id'))::integer
      else ${original}::integer end as id`.execute(transaction);
  return rows[0]!.id;
}

/** The condition that the restored row's source is a source of the target space (it always is when the file is whole). */
export const sourceInSpace = (scope: Scope, sourceId: string) =>
  sql`exists (select 1 from sources s where s.id = ${sourceId} and s.account_id = ${scope.accountId} and s.space = ${scope.space})`;
