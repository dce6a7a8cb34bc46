import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, freshSpace, saveAndLearn, waitLearned } from '../api/helpers.js';

// Learning bumps its space's memory version (migration 6), holding the space's row until its
// batch commits. A save into that space must not queue behind it.
let holder: pg.Client;
let saver: pg.Client;

beforeAll(async () => {
  holder = new pg.Client({ connectionString: inject('engramDatabaseUrl') });
  saver = new pg.Client({ connectionString: inject('engramDatabaseUrl') });
  await holder.connect();
  await saver.connect();
});

afterAll(async () => {
  await holder.end();
  await saver.end();
});

/** Writes a memory on the holder's connection, as a learning batch does (which takes the space's row). */
const writeAsBatch = (accountId: number, space: string, sourceId: string, text: string) =>
  holder.query(
    'insert into memories (account_id, space, source_id, text, kind, date, fingerprint, sentence_text, sentence_start, sentence_end, tsv) values ($1, $2, $3, $4, $5, now(), $6, $4, 0, 1, $7::tsvector)',
    [accountId, space, sourceId, text, 'detail', text.toLowerCase().replace(/[^a-z ]/g, ''), text.split(' ')[0]!.toLowerCase()],
  );

/**
 * Holds a source as a batch does after checking its job stands, sends `request` meanwhile,
 * lets it reach its locks, then writes as the batch does and commits; gives the request's reply.
 */
async function whileABatchHolds<T>(accountId: number, space: string, sourceId: string, request: () => Promise<T>): Promise<T> {
  await holder.query('begin');
  await holder.query('select 1 from sources where id = $1 for share', [sourceId]);
  const reply = request();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await writeAsBatch(accountId, space, sourceId, 'Rosa tunes them too.');
  await holder.query('commit');
  return reply;
}

describe('a space whose row a learning batch holds', () => {
  it('still takes saves: opening the space does not wait for the batch', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Pia restores old bicycles.' });
    const { rows } = await saver.query<{ account_id: number }>('select account_id from spaces where name = $1', [space]);
    const accountId = rows[0]!.account_id;

    // What a learning batch holds: the space's row, updated by the memories trigger, not yet committed.
    await holder.query('begin');
    await writeAsBatch(accountId, space, 'src_held', 'Pia sells one bicycle.');
    try {
      // A lock wait would fail here at once instead of hanging.
      await saver.query("set lock_timeout = '500ms'");
      await saver.query('begin');
      await saver.query(
        `insert into spaces (account_id, name) select $1, $2
         where not exists (select 1 from spaces where account_id = $1 and name = $2) on conflict do nothing`,
        [accountId, space],
      );
      await saver.query('rollback');
      // And through the API, with its own connection: the save is stored while the batch is open.
      const saved = await call('POST', '/v1/memories', { body: { text: 'Pia rides to work.', space } });
      expect(saved.status).toBe(201);
    } finally {
      await holder.query('rollback');
    }
  });

  it('waits with the bare form the store used before (the case the guard is for)', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Quin collects stamps.' });
    const { rows } = await saver.query<{ account_id: number }>('select account_id from spaces where name = $1', [space]);
    await holder.query('begin');
    await holder.query('update spaces set memories_version = memories_version + 1 where account_id = $1 and name = $2', [
      rows[0]!.account_id,
      space,
    ]);
    try {
      await saver.query("set lock_timeout = '200ms'");
      await expect(
        saver.query('insert into spaces (account_id, name) values ($1, $2) on conflict do nothing', [rows[0]!.account_id, space]),
      ).rejects.toThrow(/lock timeout/);
    } finally {
      await holder.query('rollback');
      await saver.query('set lock_timeout = 0');
    }
  });
});

describe('erasing a space while a learning batch is between its check and its first write', () => {
  it('waits for the batch instead of deadlocking with it, and then erases everything', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Rosa builds harpsichords.' });
    const { rows } = await holder.query<{ account_id: number; id: string }>('select account_id, id from sources where space = $1', [space]);
    const { account_id: accountId, id: sourceId } = rows[0]!;

    const reply = await whileABatchHolds(accountId, space, sourceId, () =>
      call('DELETE', '/v1/space', { headers: { 'X-Memory-Space': space } }),
    );
    expect(reply.status).toBe(200);
    const left = await holder.query('select count(*)::int as count from memories where account_id = $1 and space = $2', [accountId, space]);
    expect(left.rows[0].count).toBe(0);
  });
});

describe('deleting a file while a learning batch of it is between its check and its first write', () => {
  it('waits for the batch instead of deadlocking with it', async () => {
    const space = freshSpace();
    const written = await call('PUT', '/v1/files', { body: { path: '/notes/rosa.md', text: 'Rosa builds harpsichords.', space } });
    expect(written.status).toBe(200);
    await waitLearned(space, written.body.source.id);
    const { rows } = await holder.query<{ account_id: number }>('select account_id from spaces where name = $1', [space]);
    const accountId = rows[0]!.account_id;
    const sourceId = written.body.source.id as string;

    const reply = await whileABatchHolds(accountId, space, sourceId, () =>
      call('DELETE', `/v1/files?path=${encodeURIComponent('/notes/rosa.md')}`, { space }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ deleted: 1 });
  });
});
