import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/database.js';
import { addSource } from '../../src/store/source-repository.js';
import { checkLines, reserveIds, restoreLines } from '../../src/store/transfer/index.js';
import { releaseWaiting } from '../../src/store/usage-repository.js';
import { openOwnStore, startOwnServer } from '../setup/own-server.js';
import { call as callWith, freshSpace } from './helpers.js';

// The counts the listings show are kept as memories change (migration 17, store/memory-counts.ts).
// After each kind of change, what is kept equals what counting the rows gives, on the store of
// the project running it.
let own: Awaited<ReturnType<typeof startOwnServer>>;
let db: Db;
const space = freshSpace('counts');

const call = (method: string, path: string, body?: unknown) =>
  callWith(method, path, { base: own.server.url, key: own.key, space, ...(body === undefined ? {} : { body }) });

/** Every source and space whose kept count differs from the rows counted now. */
async function mismatches(store: Db) {
  const { rows: sources } = await sql<{ id: string; kept: number; counted: number }>`
    select s.id, coalesce(c.count, 0) as kept,
      (select count(*)::int from memory_sources ms join memories m on m.account_id = ms.account_id and m.id = ms.memory_id
        where ms.account_id = s.account_id and ms.source_id = s.id and m.status = 'current' and not m.raw) as counted
    from sources s left join source_memory_counts c on c.account_id = s.account_id and c.source_id = s.id`.execute(store);
  const { rows: kinds } = await sql<{ space: string; kind: string; kept: number; counted: number }>`
    select coalesce(k.space, n.space) as space, coalesce(k.kind, n.kind) as kind, coalesce(k.count, 0) as kept, coalesce(n.count, 0) as counted
    from space_memory_counts k
    full join (
      select account_id, space, case when raw then 'raw' else kind end as kind, count(*)::int as count
      from memories where status = 'current' group by 1, 2, 3) n
      on n.account_id = k.account_id and n.space = k.space and n.kind = k.kind`.execute(store);
  return [...sources.filter((row) => row.kept !== row.counted), ...kinds.filter((row) => row.kept !== row.counted)];
}

/** Waits until the source is learned (or has failed for good). */
async function learned(sourceId: string) {
  const waited = await call('GET', `/v1/sources/${sourceId}?wait=20`);
  expect(waited.body.source.status).toBe('finished');
  return waited.body.source;
}

async function saveLearned(text: string, at?: string) {
  const saved = await call('POST', '/v1/memories', at ? { text, at } : { text });
  expect(saved.status).toBe(201);
  return learned(saved.body.source.id);
}

/** The memories listing's counts. */
const listedCounts = async () => (await call('GET', '/v1/memories?limit=1')).body.counts;

beforeAll(async () => {
  own = await startOwnServer({});
  db = own.server.store.db;
});

afterAll(async () => {
  await own?.close();
});

describe('kept memory counts', () => {
  it('stay exact through learning, linking, correcting, replacing, forgetting, files, waiting sources, deleting and restoring', async () => {
    const first = await saveLearned('Aiko keeps three goats. Aiko lives in Osaka.', '2026-03-01T10:00:00Z');
    expect(first.memories).toBeGreaterThan(0);
    expect(await mismatches(db)).toEqual([]);
    const counts = await listedCounts();
    expect(counts.all).toBeGreaterThan(0);

    // The same fact from another source links to the memory: both sources count it.
    const second = await saveLearned('Aiko keeps three goats.', '2026-03-02T10:00:00Z');
    expect(second.memories).toBe(1);
    expect(await mismatches(db)).toEqual([]);

    // A later fact in the same slot replaces the older one.
    await saveLearned('Aiko lives in Kyoto.', '2026-04-01T10:00:00Z');
    expect(await mismatches(db)).toEqual([]);

    // A correction marks a memory wrong and learns what is right.
    const listed = (await call('GET', '/v1/memories?limit=100')).body.memories as { id: number; text: string }[];
    const goats = listed.find((memory) => /goats/.test(memory.text))!;
    const corrected = await call('PATCH', `/v1/memories/${goats.id}`, { text: 'Aiko keeps four goats.' });
    expect(corrected.status).toBe(200);
    await learned(corrected.body.source.id);
    expect(await mismatches(db)).toEqual([]);
    // The sources listing and a source's own record show the kept counts.
    const { rows: counted } = await sql<{ id: string; counted: number }>`
      select s.id, (select count(*)::int from memory_sources ms join memories m on m.account_id = ms.account_id and m.id = ms.memory_id
        where ms.account_id = s.account_id and ms.source_id = s.id and m.status = 'current' and not m.raw) as counted
      from sources s where s.space = ${space}`.execute(db);
    const page = (await call('GET', '/v1/sources?limit=100')).body.sources as { id: string; memories: number }[];
    expect(Object.fromEntries(page.map((source) => [source.id, source.memories]))).toEqual(
      Object.fromEntries(counted.map((row) => [row.id, row.counted])),
    );
    expect((await call('GET', `/v1/sources/${first.id}`)).body.source.memories).toBe(counted.find((row) => row.id === first.id)!.counted);
    expect(counted.find((row) => row.id === first.id)!.counted).toBeLessThan(first.memories);

    // Forgetting a memory takes it from every source that taught it.
    const kyoto = ((await call('GET', '/v1/memories?limit=100')).body.memories as { id: number; text: string }[]).find((memory) =>
      /Kyoto/.test(memory.text),
    )!;
    expect((await call('DELETE', `/v1/memories/${kyoto.id}`)).status).toBe(200);
    expect(await mismatches(db)).toEqual([]);

    // A file learned, changed (some memories go, some come) and deleted.
    const written = await call('PUT', '/v1/files', {
      path: '/notes/pets.md',
      text: 'Bruno walks the dog every morning. Bruno owns a red bicycle.',
    });
    expect(written.status).toBeLessThan(300);
    await learned(written.body.source.id);
    expect(await mismatches(db)).toEqual([]);
    const changed = await call('PUT', '/v1/files', {
      path: '/notes/pets.md',
      text: 'Bruno walks the dog every morning. Bruno plays the cello.',
    });
    if (changed.body.source?.id) await learned(changed.body.source.id);
    expect(await mismatches(db)).toEqual([]);
    expect((await call('DELETE', `/v1/files?path=${encodeURIComponent('/notes/pets.md')}`)).status).toBe(200);
    expect(await mismatches(db)).toEqual([]);

    // A source waiting for the plan: its raw passages count in the space (not for the source), until it is learned.
    const { rows } = await sql<{ id: number }>`select id from accounts order by id limit 1`.execute(db);
    const accountId = rows[0]!.id;
    const waiting = await addSource(
      db,
      { accountId, space },
      { kind: 'note', body: 'Chidi grows peppers on the balcony.', tokens: 0, waiting: true },
      3,
    );
    expect(waiting.memories).toBe(0);
    expect(await mismatches(db)).toEqual([]);
    expect((await listedCounts()).detail).toBeGreaterThan(0);
    // The spaces listing counts memories without raw passages; the memories listing with them.
    const { rows: current } = await sql<{ learned: number; raw: number }>`
      select count(*) filter (where not raw)::int as learned, count(*) filter (where raw)::int as raw
      from memories where space = ${space} and status = 'current'`.execute(db);
    expect(current[0]!.raw).toBeGreaterThan(0);
    const spaces = (await callWith('GET', '/v1/spaces?limit=100', { base: own.server.url, key: own.key })).body.spaces as {
      name: string;
      memories: number;
    }[];
    expect(spaces.find((row) => row.name === space)!.memories).toBe(current[0]!.learned);
    expect((await listedCounts()).all).toBe(current[0]!.learned + current[0]!.raw);
    await releaseWaiting(db, accountId, 3);
    await learned(waiting.id);
    expect(await mismatches(db)).toEqual([]);

    // Deleting a source takes the memories only it taught; the others lose its link.
    expect((await call('DELETE', `/v1/sources/${second.id}`)).status).toBe(200);
    expect(await mismatches(db)).toEqual([]);
    const before = await listedCounts();
    expect(before.all).toBeGreaterThan(0);

    // Restored into another store, the space's counts are the same.
    const exported = await fetch(`${own.server.url}/v1/export?space=${encodeURIComponent(space)}`, {
      headers: { Authorization: `Bearer ${own.key}` },
    });
    const text = await exported.text();
    async function* lines() {
      for (const line of text.trimEnd().split('\n')) yield line;
    }
    const target = await openOwnStore();
    try {
      const checked = await checkLines(lines());
      await reserveIds(target.store.db, checked.highestIds);
      const summary = await restoreLines(target.store.db, lines());
      expect(await mismatches(target.store.db)).toEqual([]);
      const { rows: restored } = await sql<{ kind: string; count: number }>`
        select kind, count from space_memory_counts where account_id = ${summary.accountId} and space = ${space} and count > 0 order by kind`.execute(
        target.store.db,
      );
      const expected = Object.entries(before)
        .filter(([kind, count]) => kind !== 'all' && (count as number) > 0)
        .map(([kind, count]) => ({ kind, count }))
        .sort((a, b) => (a.kind < b.kind ? -1 : 1));
      expect(restored).toEqual(expected);
    } finally {
      await target.close();
    }

    // Erasing the space takes its counts with it.
    expect((await call('DELETE', '/v1/space')).status).toBe(200);
    const { rows: left } = await sql`select 1 from space_memory_counts where space = ${space}`.execute(db);
    expect(left).toEqual([]);
    expect(await mismatches(db)).toEqual([]);
  });
});
