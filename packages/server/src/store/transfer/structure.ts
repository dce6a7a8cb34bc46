import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../database.js';
import { EXPORT_FORMAT, iso } from './format.js';

const timestamp = z.string().min(1).max(40);

/** The first line: what the file is, its format version, and what was exported. */
export const HeaderLineSchema = z.object({
  type: z.literal('header'),
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int().positive(),
  exported_at: timestamp,
  /** 'space': one space; 'account': every space of one account, with the account's own keys. */
  scope: z.enum(['space', 'account']),
  /** The kinds of record lines this file may hold, in their order. */
  records: z.array(z.string()),
});

/** The header line of an export. */
export type HeaderLine = z.infer<typeof HeaderLineSchema>;

/** The account the records belong to. An export made with a key limited to one space leaves it out. */
export const AccountLineSchema = z.object({
  type: z.literal('account'),
  id: z.number().int().positive(),
  name: z.string().min(1),
  plan: z.string(),
  trial_ends_at: timestamp.nullable(),
  extra_on: z.boolean(),
  extra_cap_usd: z.number().nonnegative(),
  created_at: timestamp,
});

/** An account line. */
export type AccountLine = z.infer<typeof AccountLineSchema>;

/** Opens a space: the record lines after it, up to the next space line, are that space's. */
export const SpaceLineSchema = z.object({ type: z.literal('space'), name: z.string().max(128), created_at: timestamp });

/** A space line. */
export type SpaceLine = z.infer<typeof SpaceLineSchema>;

/** The last line: how many lines came before it, so that a file cut short is known to be. */
export const EndLineSchema = z.object({ type: z.literal('end'), lines: z.number().int().positive() });

/** The account line of an account, or null when there is none. */
export async function accountLine(db: Db, accountId: number): Promise<AccountLine | null> {
  const { rows } = await sql<Omit<AccountLine, 'type'>>`
    select id, name, plan, ${iso(sql.ref('trial_ends_at'))} as trial_ends_at, extra_on, extra_cap_usd,
      ${iso(sql.ref('created_at'))} as created_at
    from accounts where id = ${accountId}`.execute(db);
  return rows[0] ? { type: 'account', ...rows[0] } : null;
}

/** The space line of a space, or null when the account has no such space. */
export async function spaceLine(db: Db, accountId: number, name: string): Promise<SpaceLine | null> {
  const { rows } = await sql<{ name: string; created_at: string }>`
    select name, ${iso(sql.ref('created_at'))} as created_at from spaces where account_id = ${accountId} and name = ${name}`.execute(db);
  return rows[0] ? { type: 'space', ...rows[0] } : null;
}

/** Every space of the account, the owner's own ('') first, then by name, a page at a time. */
export async function* spaceNames(db: Db, accountId: number): AsyncIterable<string> {
  let after: string | null = null;
  for (;;) {
    const { rows } = await sql<{ name: string }>`
      select name from spaces where account_id = ${accountId} and ${after === null ? sql`true` : sql`(name collate "C") > ${after}`}
      order by (name collate "C") limit 500`.execute(db);
    for (const row of rows) yield row.name;
    if (rows.length < 500) return;
    after = rows.at(-1)!.name;
  }
}
