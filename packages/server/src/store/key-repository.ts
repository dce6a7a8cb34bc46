import type { KeyOut } from '@engram/protocol';
import { KEY_PREFIX, KEY_STARTS_WITH_CHARS } from '@engram/protocol';
import { sql } from 'kysely';
import { hashKey } from './account-repository.js';
import type { Db } from './database.js';
import { newKeySecret } from './ids.js';

interface KeyRow {
  id: number;
  name: string | null;
  space: string;
  starts_with: string;
  rpm: number;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  note: string | null;
}

const toKeyOut = (row: KeyRow): KeyOut => ({
  id: row.id,
  name: row.name,
  space: row.space,
  starts_with: row.starts_with,
  rpm: row.rpm,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  expires_at: row.expires_at?.toISOString() ?? null,
  note: row.note,
});

const keyColumns = sql`id, name, space, starts_with, rpm, created_at, last_used_at, expires_at, note`;

/** Makes a key limited to one space; the key text is returned this once and only its hash kept. */
export async function createLimitedKey(
  db: Db,
  accountId: number,
  input: { space: string; name: string | null; rpm: number; expiresAt: Date | null; note: string | null },
): Promise<KeyOut & { key: string }> {
  const key = `${KEY_PREFIX.limited}${newKeySecret()}`;
  const { rows } = await sql<KeyRow>`
    insert into api_keys (account_id, space, name, note, hash, starts_with, rpm, expires_at)
    values (${accountId}, ${input.space}, ${input.name}, ${input.note}, ${hashKey(key)}, ${key.slice(0, KEY_STARTS_WITH_CHARS)},
      ${input.rpm}, ${input.expiresAt})
    returning ${keyColumns}`.execute(db);
  return { ...toKeyOut(rows[0]!), key };
}

/** The account's keys limited to a space (all spaces when `space` is null), revoked ones left out. */
export async function listLimitedKeys(db: Db, accountId: number, space: string | null): Promise<KeyOut[]> {
  const { rows } = await sql<KeyRow>`
    select ${keyColumns} from api_keys
    where account_id = ${accountId} and space is not null and revoked_at is null
      and ${space === null ? sql`true` : sql`space = ${space}`}
    order by id`.execute(db);
  return rows.map(toKeyOut);
}

/** Revokes a limited key of the account (within `space` when given); null when there is none. */
export async function revokeLimitedKey(
  db: Db,
  accountId: number,
  keyId: number,
  space: string | null,
): Promise<{ id: number; space: string } | null> {
  const { rows } = await sql<{ id: number; space: string }>`
    update api_keys set revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, 'revoked')
    where id = ${keyId} and account_id = ${accountId} and space is not null
      and ${space === null ? sql`true` : sql`space = ${space}`}
    returning id, space`.execute(db);
  return rows[0] ?? null;
}
