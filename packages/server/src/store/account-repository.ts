import { createHash, timingSafeEqual } from 'node:crypto';
import { KEY_PREFIX, KEY_STARTS_WITH_CHARS } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db, Row } from './database.js';
import { newKeySecret } from './ids.js';

/** A key as the auth layer sees it. */
export interface KeyRecord {
  id: number;
  accountId: number;
  /** null for a key that reaches the whole account. */
  space: string | null;
  rpm: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** When the key was last used (recorded at most twice a minute), or null. */
  lastUsedAt: Date | null;
}

/** Only a hash of a key is kept; SHA-256 suffices because keys are long random strings. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares two key hashes in constant time. */
export function sameHash(left: string, right: string): boolean {
  const a = Buffer.from(left, 'hex');
  const b = Buffer.from(right, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A key as its row stands (revoked and expired keys included: callers judge). */
export function keyRecordOf(
  row: Pick<Row<'api_keys'>, 'id' | 'account_id' | 'space' | 'rpm' | 'expires_at' | 'revoked_at' | 'last_used_at'>,
): KeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    space: row.space,
    rpm: row.rpm,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** How often a key's last use is written at most. */
export const TOUCH_EVERY_MS = 30_000;

/** Makes an account. New accounts start on free with the 14-day Pro trial. */
export async function createAccount(db: Db, name: string): Promise<{ id: number; name: string }> {
  const account = await db
    .insertInto('accounts')
    .values({ name, trial_ends_at: sql<Date>`now() + interval '14 days'` })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  await sql`insert into spaces (account_id, name) values (${account.id}, '') on conflict do nothing`.execute(db);
  return account;
}

/** Lists accounts, oldest first. */
export async function listAccounts(db: Db): Promise<{ id: number; name: string; plan: string; created_at: Date }[]> {
  return db.selectFrom('accounts').select(['id', 'name', 'plan', 'created_at']).orderBy('id').execute();
}

/** Stores an account key (its hash) and returns its id. `key` defaults to a new random key. */
export async function createAccountKey(
  db: Db,
  accountId: number,
  options: { key?: string; name?: string | null } = {},
): Promise<{ id: number; key: string }> {
  const key = options.key ?? `${KEY_PREFIX.account}${newKeySecret()}`;
  const { id } = await db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      space: null,
      name: options.name ?? null,
      hash: hashKey(key),
      starts_with: key.slice(0, KEY_STARTS_WITH_CHARS),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, key };
}

/** Lists an account's own keys (not the limited ones). */
export async function listAccountKeys(db: Db, accountId: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'starts_with', 'created_at', 'last_used_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .where('space', 'is', null)
    .orderBy('id')
    .execute();
}

/** Revokes an account key; false when the account has no such key. */
export async function revokeAccountKey(db: Db, accountId: number, keyId: number): Promise<boolean> {
  const { rows } = await sql`
    update api_keys set revoked_at = coalesce(revoked_at, now())
    where id = ${keyId} and account_id = ${accountId} and space is null returning id`.execute(db);
  return rows.length > 0;
}

/** The shortest ENGRAM_BOOTSTRAP_KEY accepted: a guessable owner key opens every space. */
export const MIN_BOOTSTRAP_KEY_CHARS = 32;

/**
 * Refuses an ENGRAM_BOOTSTRAP_KEY that cannot be a safe account key: it must start with
 * `egk_`, have at least 32 characters and no white space or control characters.
 */
export function checkBootstrapKey(key: string): void {
  const problems: string[] = [];
  if (!key.startsWith(KEY_PREFIX.account)) problems.push(`start with ${KEY_PREFIX.account}`);
  if (key.length < MIN_BOOTSTRAP_KEY_CHARS) problems.push(`have at least ${MIN_BOOTSTRAP_KEY_CHARS} characters (it has ${key.length})`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\s\u0000-\u001f\u007f]/.test(key) || !/^[\x21-\x7e]*$/.test(key)) problems.push('hold only printable ASCII, without white space');
  if (problems.length) throw new Error(`ENGRAM_BOOTSTRAP_KEY must ${problems.join(', ')}`);
}

/**
 * On first start, when no account exists, makes the owner account and its key.
 * Returns the key text when one was made (so it can be printed once); `ignored` when a
 * bootstrap key was given but an account already exists and the key is none of its keys.
 */
export async function bootstrapOwner(
  db: Db,
  bootstrapKey: string | null,
): Promise<{ key: string; generated: boolean; ignored?: false } | { ignored: true; key?: undefined; generated?: undefined } | null> {
  return db.transaction().execute(async (transaction) => {
    await sql`select pg_advisory_xact_lock(727275)`.execute(transaction);
    const { rows } = await sql`select id from accounts limit 1`.execute(transaction);
    if (rows.length) {
      if (bootstrapKey === null) return null;
      const known =
        await sql`select id from api_keys where hash = ${hashKey(bootstrapKey)} and space is null and revoked_at is null`.execute(
          transaction,
        );
      return known.rows.length ? null : { ignored: true };
    }
    const account = await createAccount(transaction, 'owner');
    const { key } = await createAccountKey(transaction, account.id, { key: bootstrapKey ?? undefined, name: 'bootstrap' });
    return { key, generated: bootstrapKey === null };
  });
}
