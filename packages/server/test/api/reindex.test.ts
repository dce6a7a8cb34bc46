import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learnSource } from '../../src/operations/learn-source.js';
import { reindexSpace, spacesOf } from '../../src/operations/reindex.js';
import { createAccount } from '../../src/store/account-repository.js';
import type { Store } from '../../src/store/database.js';
import { BROADER_MARK, lexemesAndVersion, searchMemories } from '../../src/store/memory-repository.js';
import { claimJob } from '../../src/store/queue-repository.js';
import type { Scope } from '../../src/store/scope.js';
import { addSource } from '../../src/store/source-repository.js';
import { openOwnStore } from '../setup/own-server.js';

// Memories indexed by an earlier release (their own words only, here) are indexed again as the
// learner indexes them now, on the store of the project running it.
let own: Awaited<ReturnType<typeof openOwnStore>>;
let store: Store;
let scope: Scope;

beforeAll(async () => {
  own = await openOwnStore();
  store = own.store;
  scope = { accountId: (await createAccount(store.db, 'reindex-tests')).id, space: 'noor' };
});

afterAll(async () => {
  await own?.close();
});

/** Memories found by the words (or, with `broader`, by memories naming a kind of them). */
const found = async (words: string[], broader = false) => {
  const { lexemes } = await lexemesAndVersion(store.db, scope, words);
  const asked = lexemes.flat().map((lexeme) => (broader ? BROADER_MARK + lexeme : lexeme));
  const hits = await searchMemories(store.db, scope, { lexemes: asked, kind: 'all' });
  return hits.hits.map((hit) => hit.id).sort((left, right) => left - right);
};

describe('reindexSpace', () => {
  it('gives memories indexed the old way what they are found by now, keeping their ids and text', async () => {
    const at = '2026-11-20T10:00:00Z';
    await addSource(
      store.db,
      scope,
      {
        kind: 'conversation',
        body: null,
        messages: [
          { role: 'user', name: 'Noor', content: 'We went sailing on the lake last week!', at },
          { role: 'user', name: 'Ilse', content: 'Sounds great. The lake is lovely in autumn.', at },
          { role: 'user', name: 'Noor', content: 'We roasted marshmallows and my daughter played the violin by the fire.', at },
        ],
        tokens: 0,
      },
      3,
    );
    const job = (await claimJob(store.db, 'reindex'))!;
    expect(await learnSource(store.db, job)).toBe(true);
    const before = await sql<{ id: number; text: string }>`select id, text from memories where space = ${scope.space} order by id`.execute(
      store.db,
    );
    expect(before.rows.length).toBeGreaterThan(1);
    const remarks = await sql<{ text: string }>`select text from memories where space = ${scope.space} and reported order by id`.execute(
      store.db,
    );
    expect(remarks.rows.map((row) => row.text)).toEqual(['Ilse said the lake is lovely in autumn.']);
    // Found by the topic two messages back ("sailing") and by a class of what it names ("instrument").
    const sailing = await found(['sailing']);
    const instrument = await found(['instrument'], true);
    expect(sailing.length).toBeGreaterThan(0);
    expect(instrument.length).toBeGreaterThan(0);

    // As an earlier release would have left them: indexed by their own words alone, no remark marked.
    await sql`update memories set tsv = setweight(to_tsvector('english', text), 'A'), reported = false where space = ${scope.space}`.execute(
      store.db,
    );
    expect(await found(['instrument'], true)).toEqual([]);

    expect(await spacesOf(store.db, scope.accountId)).toContain('noor');
    const done = await reindexSpace(store.db, scope);
    expect(done).toEqual({ sources: 1, memories: before.rows.length });
    expect(await found(['sailing'])).toEqual(sailing);
    expect(await found(['instrument'], true)).toEqual(instrument);
    const after = await sql<{ id: number; text: string }>`select id, text from memories where space = ${scope.space} order by id`.execute(
      store.db,
    );
    expect(after.rows).toEqual(before.rows);
    const marked = await sql<{ text: string }>`select text from memories where space = ${scope.space} and reported order by id`.execute(
      store.db,
    );
    expect(marked.rows).toEqual(remarks.rows);
  });
});
