import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../database.js';
import type { Scope } from '../../scope.js';
import { iso } from '../format.js';
import type { RecordKind, RestoreContext } from '../record-kind.js';
import { keysetRows } from '../record-kind.js';

const timestamp = z.string().min(1).max(40);

const KeyLineSchema = z.object({
  type: z.enum(['key', 'account_key']),
  id: z.number().int().positive(),
  name: z.string().nullable(),
  note: z.string().nullable(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  starts_with: z.string().max(16),
  rpm: z.number().int().nullable(),
  expires_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
  revoked_reason: z.string().nullable(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});

/** A key as exported: its SHA-256 hash, never its text. */
export type KeyLine = z.infer<typeof KeyLineSchema>;

const PAGE = 500;

/** The keys of a space (limited keys), or the account's own keys when `space` is null. */
function keyLines(type: KeyLine['type'], db: Db, scope: Scope, space: string | null): AsyncIterable<KeyLine> {
  return keysetRows(
    async (after: number | null) => {
      const { rows } = await sql<Omit<KeyLine, 'type'>>`
        select id, name, note, hash, starts_with, rpm, ${iso(sql.ref('expires_at'))} as expires_at,
          ${iso(sql.ref('revoked_at'))} as revoked_at, revoked_reason, ${iso(sql.ref('created_at'))} as created_at,
          ${iso(sql.ref('last_used_at'))} as last_used_at
        from api_keys
        where account_id = ${scope.accountId} and ${space === null ? sql`space is null` : sql`space = ${space}`}
          and id > ${after ?? 0}
        order by id limit ${PAGE}`.execute(db);
      return rows.map((row) => ({ type, ...row }));
    },
    (row) => row.id,
    PAGE,
  );
}

/** Stores a key unless its hash is already known (it then already works here); keeps its id when free. */
async function restoreKey(transaction: Db, context: RestoreContext, line: KeyLine, space: string | null): Promise<boolean> {
  const { rows: known } = await sql`select 1 from api_keys where hash = ${line.hash}`.execute(transaction);
  if (known.length) return false;
  const { rows: taken } = await sql`select 1 from api_keys where id = ${line.id}`.execute(transaction);
  const values = sql`${context.scope.accountId}, ${space}, ${line.name}, ${line.note}, ${line.hash}, ${line.starts_with}, ${line.rpm},
    ${line.expires_at}::timestamptz, ${line.revoked_at}::timestamptz, ${line.revoked_reason}, ${line.created_at}::timestamptz,
    ${line.last_used_at}::timestamptz`;
  const columns = sql`account_id, space, name, note, hash, starts_with, rpm, expires_at, revoked_at, revoked_reason, created_at, last_used_at`;
  if (taken.length) {
    await sql`insert into api_keys (${columns}) values (${values})`.execute(transaction);
  } else {
    await sql`insert into api_keys (id, ${columns}) overriding system value values (${line.id}, ${values})`.execute(transaction);
  }
  return true;
}

/** Keys limited to the space: they keep working on the restored space (their hashes move, never their text). */
export const limitedKeys: RecordKind<KeyLine> = {
  type: 'key',
  level: 'space',
  description: 'keys limited to the space, as SHA-256 hashes with their names, limits, expiry and revocation',
  schema: KeyLineSchema,
  lines: (db, scope) => keyLines('key', db, scope, scope.space),
  restore: (transaction, context, line) => restoreKey(transaction, context, line, context.scope.space),
  sequence: { table: 'api_keys', idOf: (line) => line.id },
};

/** The account's own keys (reaching every space), in an export of the whole account. */
export const accountKeys: RecordKind<KeyLine> = {
  type: 'account_key',
  level: 'account',
  description: "the account's own keys (every space), as SHA-256 hashes",
  schema: KeyLineSchema,
  lines: (db, scope) => keyLines('account_key', db, scope, null),
  restore: (transaction, context, line) => restoreKey(transaction, context, line, null),
  sequence: { table: 'api_keys', idOf: (line) => line.id },
};
