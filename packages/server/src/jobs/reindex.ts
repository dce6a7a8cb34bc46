import { sql } from 'kysely';
import type { LearnableSource } from '../learn/facts-of.js';
import { factsOf } from '../learn/facts-of.js';
import type { LearnFacts } from '../learn/pool.js';
import type { Db } from '../store/database.js';
import { reindexFacts } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { toStore } from './learn-source.js';

/** Sources read per page while indexing a space again. */
const PAGE = 100;

/**
 * Indexes every current memory of a space again as the learner indexes them now (after an
 * upgrade that changed what a memory is found by): each finished source is learned again in
 * memory and its facts matched to its memories by fingerprint. Nothing is learned anew, no
 * memory changes its text, id or history, and nothing is billed. A file is read from its
 * current text. Returns the sources read and the memories indexed again.
 */
export async function reindexSpace(db: Db, scope: Scope, learn: LearnFacts = factsOf): Promise<{ sources: number; memories: number }> {
  let sources = 0;
  let memories = 0;
  for (let after = ''; ; ) {
    const { rows } = await sql<LearnableSource & { id: string }>`
      select s.id, s.kind, coalesce(f.text, s.body) as body, s.messages, s.written_at
      from sources s left join files f on f.account_id = s.account_id and f.source_id = s.id
      where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.status = 'finished' and s.id > ${after}
      order by s.id limit ${PAGE}`.execute(db);
    for (const source of rows) {
      const { facts } = await learn(source);
      memories += await db.transaction().execute((transaction) => reindexFacts(transaction, scope, source.id, facts.map(toStore)));
      sources += 1;
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
  }
  return { sources, memories };
}

/** The spaces of an account, by name ('' is the owner's own). */
export async function spacesOf(db: Db, accountId: number): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from spaces where account_id = ${accountId} order by name`.execute(db);
  return rows.map((row) => row.name);
}
