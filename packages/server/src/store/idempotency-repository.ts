import { sql } from 'kysely';
import type { Db } from './database.js';
import { IDEMPOTENCY_HOURS } from './housekeeping-repository.js';

/** Which request an Idempotency-Key belongs to: the key's owner and the key the caller sent. */
export interface IdempotencyKeyRef {
  accountId: number;
  keyId: number;
  key: string;
}

/** A stored answer (status null while the first request is still running). */
export interface StoredAnswer {
  fingerprint: string;
  status: number | null;
  body: { id?: unknown; starts_with?: unknown; [field: string]: unknown } | null;
  secret_withheld: boolean;
}

/**
 * Claims an Idempotency-Key for a request with this fingerprint: true when the caller is the
 * first (or the key's stored answer has expired, which is then taken over as if it had never
 * been), false when a live request or answer already holds it.
 */
export async function claimIdempotencyKey(db: Db, ref: IdempotencyKeyRef, fingerprint: string, space: string | null): Promise<boolean> {
  const { rows } = await sql`
    insert into idempotency_keys (account_id, key_id, key, fingerprint, space) values (${ref.accountId}, ${ref.keyId}, ${ref.key}, ${fingerprint}, ${space})
    on conflict (account_id, key_id, key) do update set fingerprint = excluded.fingerprint, space = excluded.space, status = null, body = null,
      secret_withheld = false, created_at = now()
      where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
    returning key`.execute(db);
  return rows.length > 0;
}

/** The unexpired stored answer of a key, if any. */
export async function storedAnswer(db: Db, ref: IdempotencyKeyRef): Promise<StoredAnswer | undefined> {
  const { rows } = await sql<StoredAnswer>`
    select fingerprint, status, body, secret_withheld from idempotency_keys
    where account_id = ${ref.accountId} and key_id = ${ref.keyId} and key = ${ref.key}
      and created_at >= now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`.execute(db);
  return rows[0];
}

/** Forgets a key's claim (its request failed, or gave an answer a retry could change). */
export async function releaseIdempotencyKey(db: Db, ref: IdempotencyKeyRef): Promise<void> {
  await sql`delete from idempotency_keys where account_id = ${ref.accountId} and key_id = ${ref.keyId} and key = ${ref.key}`.execute(db);
}

/** Keeps a request's answer under its key, to be replayed to a retry. */
export async function keepAnswer(
  db: Db,
  ref: IdempotencyKeyRef,
  answer: { status: number; body: unknown; secretWithheld: boolean; space: string | null },
): Promise<void> {
  await sql`
    update idempotency_keys set status = ${answer.status}, body = ${JSON.stringify(answer.body)}::jsonb,
      secret_withheld = ${answer.secretWithheld}, space = coalesce(${answer.space}, space)
    where account_id = ${ref.accountId} and key_id = ${ref.keyId} and key = ${ref.key}`.execute(db);
}
