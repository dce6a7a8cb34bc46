import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learnSource } from '../../src/operations/learn-source.js';
import { reindexSpace } from '../../src/operations/reindex.js';
import { createAccount } from '../../src/store/account-repository.js';
import type { Store } from '../../src/store/database.js';
import { claimJob } from '../../src/store/queue-repository.js';
import type { Scope } from '../../src/store/scope.js';
import { addSource } from '../../src/store/source-repository.js';
import { openOwnStore } from '../setup/own-server.js';

// Memories learned before the learner recorded name types, lasting and the owner get them from `engram reindex`.
let own: Awaited<ReturnType<typeof openOwnStore>>;
let store: Store;
let scope: Scope;

beforeAll(async () => {
  own = await openOwnStore();
  store = own.store;
  scope = { accountId: (await createAccount(store.db, 'reindex-people-tests')).id, space: 'kemal' };
});

afterAll(async () => {
  await own?.close();
});

const people = () =>
  sql<{ id: number; text: string; about: string[]; name_types: string[] | null; lasting: boolean | null; owner: boolean | null }>`
    select id, text, about, name_types, lasting, owner from memories where account_id = ${scope.accountId} and space = ${scope.space} order by id`.execute(
    store.db,
  );

describe('reindexSpace and what people and the graph read', () => {
  it('fills in name types, lasting and the owner of memories learned before they were recorded', async () => {
    await addSource(
      store.db,
      scope,
      { kind: 'note', body: 'I work at Contoso Pharma in Ankara. My sister Elif loves opera.', messages: null, tokens: 0 },
      3,
    );
    const job = (await claimJob(store.db, 'reindex-people'))!;
    expect(await learnSource(store.db, job)).toBe(true);
    const learned = (await people()).rows;
    expect(learned.map((row) => [row.text, row.name_types, row.lasting, row.owner])).toEqual([
      ['The user works at Contoso Pharma in Ankara.', ['org', 'place'], false, true],
      ["The user's sister Elif loves opera.", ['person'], true, true],
    ]);
    await sql`update memories set name_types = null, lasting = null, owner = null where account_id = ${scope.accountId} and space = ${scope.space}`.execute(
      store.db,
    );
    expect(await reindexSpace(store.db, scope)).toEqual({ sources: 1, memories: 2 });
    expect((await people()).rows).toEqual(learned);
  });
});
