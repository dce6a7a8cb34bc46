import type { SpaceRow } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db, Row } from './database.js';
import type { Scope } from './scope.js';

/** A page of the account's end-user spaces (the owner's own memory is not listed), oldest first. */
export async function listSpaces(db: Db, accountId: number, limit: number, cursor: number): Promise<{ rows: SpaceRow[]; total: number }> {
  const { rows } = await sql<Pick<Row<'spaces'>, 'name' | 'created_at'> & { memories: number; sources: number }>`
    select sp.name, sp.created_at,
      (select coalesce(sum(k.count), 0)::int from space_memory_counts k
        where k.account_id = sp.account_id and k.space = sp.name and k.kind <> 'raw') as memories,
      (select count(*)::int from sources s where s.account_id = sp.account_id and s.space = sp.name) as sources
    from spaces sp where sp.account_id = ${accountId} and sp.name <> ''
    order by sp.created_at, sp.name limit ${limit} offset ${cursor}`.execute(db);
  const count = await sql<{ total: number }>`
    select count(*)::int as total from spaces where account_id = ${accountId} and name <> ''`.execute(db);
  return {
    rows: rows.map((row) => ({ name: row.name, created_at: row.created_at.toISOString(), memories: row.memories, sources: row.sources })),
    total: count.rows[0]!.total,
  };
}

/**
 * Erases a space: every source, memory, link, history event and job goes with it (by cascade),
 * its stored idempotent answers and usage share are kept out of reach, and every key limited
 * to it is revoked. Returns how many keys were revoked.
 */
export async function eraseSpace(db: Db, scope: Scope): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    // Sources first, then the space, the order a learning batch takes them in (it holds its
    // source, then the space's row): taken the other way round, the two could deadlock.
    await sql`select 1 from sources where account_id = ${scope.accountId} and space = ${scope.space} for update`.execute(transaction);
    await sql`delete from spaces where account_id = ${scope.accountId} and name = ${scope.space}`.execute(transaction);
    await sql`delete from idempotency_keys where account_id = ${scope.accountId} and space = ${scope.space}`.execute(transaction);
    const { rows } = await sql`
      update api_keys set revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, 'space erased')
      where account_id = ${scope.accountId} and space = ${scope.space} and revoked_at is null returning id`.execute(transaction);
    // The owner's own memory always exists.
    if (scope.space === '') {
      await sql`insert into spaces (account_id, name) values (${scope.accountId}, '') on conflict do nothing`.execute(transaction);
    }
    return rows.length;
  });
}

/** The names of an account's spaces ('' is the owner's own), in order. */
export async function spaceNames(db: Db, accountId: number): Promise<string[]> {
  const rows = await db.selectFrom('spaces').select('name').where('account_id', '=', accountId).orderBy('name').execute();
  return rows.map((row) => row.name);
}
