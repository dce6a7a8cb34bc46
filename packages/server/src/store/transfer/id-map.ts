import { sql } from 'kysely';
import type { Db } from '../database.js';
import { newSourceId } from '../ids.js';
import type { Scope } from '../scope.js';

/** A kind of record whose ids are global in a store: who holds an id, and how a new id is made. */
export interface IdKind {
  holder(transaction: Db, id: string): Promise<Scope | null>;
  allocate(transaction: Db): Promise<string>;
}

/** The account and space holding an id of a table (by its primary key, so it reads one row). */
const holderIn =
  (table: string, numeric: boolean) =>
  async (transaction: Db, id: string): Promise<Scope | null> => {
    if (numeric && !/^\d{1,15}$/.test(id)) return null;
    const { rows } = await sql<{ account_id: number; space: string }>`
      select account_id, space from ${sql.table(table)} where id = ${numeric ? Number(id) : id}`.execute(transaction);
    return rows[0] ? { accountId: rows[0].account_id, space: rows[0].space } : null;
  };

/** The next number of a table's identity sequence. */
const nextNumber = (table: string) => async (transaction: Db) => {
  const { rows } = await sql<{ id: string }>`select nextval(pg_get_serial_sequence(${table}, 'id'))::text as id`.execute(transaction);
  return rows[0]!.id;
};

/** Kinds of records referred to by id across lines. A new table family with global ids adds its entry. */
export const ID_KINDS: Record<string, IdKind> = {
  memory: { holder: holderIn('memories', true), allocate: nextNumber('memories') },
  source: { holder: holderIn('sources', false), allocate: async () => newSourceId() },
};

/**
 * The ids of a file as they are in this store. An id is kept when it is free in the store (or
 * already a record of the target space: the file was restored before); else a new one is made
 * and remembered in `restored_ids`, so that restoring the file again finds it. An id is settled
 * the first time any line names it, so a record may be referred to before its own line.
 */
export class IdMap {
  private readonly settled = new Map<string, string>();

  constructor(private readonly scope: Scope) {}

  /** The id in this store of a record of the file, settling it when this is the first mention. */
  async settle(transaction: Db, kind: string, original: string): Promise<string> {
    const cacheKey = `${kind}\u0000${original}`;
    const cached = this.settled.get(cacheKey);
    if (cached !== undefined) return cached;
    const idKind = ID_KINDS[kind];
    if (!idKind) throw new Error(`No id kind ${kind}`);
    const { accountId, space } = this.scope;
    const { rows: mapped } = await sql<{ restored: string }>`
      select restored from restored_ids
      where account_id = ${accountId} and space = ${space} and kind = ${kind} and original = ${original}`.execute(transaction);
    let id = mapped[0]?.restored;
    if (id === undefined) {
      const holder = await idKind.holder(transaction, original);
      if (!holder || (holder.accountId === accountId && holder.space === space)) id = original;
      else {
        id = await idKind.allocate(transaction);
        await sql`
          insert into restored_ids (account_id, space, kind, original, restored)
          values (${accountId}, ${space}, ${kind}, ${original}, ${id})`.execute(transaction);
      }
    }
    this.settled.set(cacheKey, id);
    return id;
  }

  /** A memory's id in this store. */
  async memory(transaction: Db, original: number): Promise<number> {
    return Number(await this.settle(transaction, 'memory', String(original)));
  }

  /** A source's id in this store. */
  source(transaction: Db, original: string): Promise<string> {
    return this.settle(transaction, 'source', original);
  }

  /**
   * The id of a reference that may name a record the file does not hold (history naming a
   * deleted source): its new id when the record was restored under one, else as written.
   */
  async reference(transaction: Db, kind: string, original: string): Promise<string> {
    const cached = this.settled.get(`${kind}\u0000${original}`);
    if (cached !== undefined) return cached;
    const { rows } = await sql<{ restored: string }>`
      select restored from restored_ids
      where account_id = ${this.scope.accountId} and space = ${this.scope.space} and kind = ${kind} and original = ${original}`.execute(
      transaction,
    );
    return rows[0]?.restored ?? original;
  }
}
