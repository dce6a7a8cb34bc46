import { factsOf } from '../learn/facts-of.js';
import type { LearnFacts } from '../learn/pool.js';
import type { Db } from '../store/database.js';
import { reindexFacts } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { finishedSourcesAfter } from '../store/source-repository.js';
import { spaceNames } from '../store/space-repository.js';
import { toStore } from './index-document.js';

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
    const rows = await finishedSourcesAfter(db, scope, after, PAGE);
    for (const source of rows) {
      const { facts } = await learn(source);
      const documents = facts.map(toStore);
      memories += await db.transaction().execute((transaction) => reindexFacts(transaction, scope, source.id, documents));
      sources += 1;
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.id;
  }
  return { sources, memories };
}

/** The spaces of an account, by name ('' is the owner's own). */
export function spacesOf(db: Db, accountId: number): Promise<string[]> {
  return spaceNames(db, accountId);
}
