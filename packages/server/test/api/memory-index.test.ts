import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { factFingerprint, learnFromMessages, readMessages } from '../../src/learn/index.js';
import { toStore } from '../../src/operations/index-document.js';
import { textVector } from '../../src/recall/dense.js';
import { createAccount } from '../../src/store/account-repository.js';
import type { Store } from '../../src/store/database.js';
import { MemoryIndexCache, memoryIndexOf, parseTsvector } from '../../src/store/memory-index.js';
import type { LexemeSearch } from '../../src/store/memory-repository.js';
import { lexemesAndVersion, rankMemories, searchMemories, storeFacts } from '../../src/store/memory-repository.js';
import { insertRequestLog, recentRecallSpaces } from '../../src/store/request-log-repository.js';
import type { Scope } from '../../src/store/scope.js';
import { addSource } from '../../src/store/source-repository.js';
import { openOwnStore, startOwnServer } from '../setup/own-server.js';
import { createTestDatabase } from '../setup/postgres.js';
import { call } from './helpers.js';

// The in-process copy of a space's index must answer exactly as the store's own search, on the
// store of the project running it: PGlite, or a fresh PostgreSQL database.
let store: Store;
let own: Awaited<ReturnType<typeof openOwnStore>>;
let accountId: number;
const scopeOf = (space: string): Scope => ({ accountId, space });

const CONVERSATION = [
  ['Maria', 'Hi Tom! I went swimming with the kids yesterday, and on Saturday we painted a sunset together.'],
  ['Tom', "Lovely. I adopted a dog named Rex last month - he's a beagle and loves the beach."],
  ['Maria', 'I moved to Lisbon in 2021 and I work as a nurse at the city hospital.'],
  ['Tom', "I'm learning the violin, and my sister Ana plays the piano in a jazz band."],
  ['Maria', "My favourite book is 'The Little Prince'. I'm reading it to my daughter again."],
  ['Tom', 'Next month I am running a half marathon in Porto; my brother is coming too.'],
  ['Maria', 'What kind of training do you do? I only go hiking on weekends.'],
  ['Tom', 'Mostly long runs and yoga twice a week. Rex comes on the runs with me.'],
] as const;

async function learnInto(space: string, turns: readonly (readonly [string, string])[]) {
  const scope = scopeOf(space);
  const at = '2023-05-08T10:00:00.000Z';
  const source = await addSource(store.db, scope, { kind: 'note', body: 'conversation', tokens: 0 }, 3);
  const facts = learnFromMessages(readMessages(turns.map(([name, content]) => ({ role: 'user' as const, name, content, at }))), {
    writtenAt: new Date(at),
  });
  await store.db.transaction().execute((transaction) => storeFacts(transaction, scope, source.id, facts.map(toStore), {}));
  return source.id;
}

beforeAll(async () => {
  own = await openOwnStore();
  store = own.store;
  accountId = (await createAccount(store.db, 'index-tests')).id;
  await learnInto('maria', CONVERSATION);
  await learnInto('other', [['Zed', 'Zed swims in the lake and paints sunsets every weekend with his beagle.']]);
});

afterAll(async () => {
  await own?.close();
});

const QUESTIONS: { words: string[]; options?: Partial<LexemeSearch> }[] = [
  { words: ['swimming', 'kids'] },
  { words: ['dog', 'beach', 'rex'], options: { scoreOnly: new Set(['rex']) } },
  { words: ['live', 'lisbon', 'work'] },
  { words: ['instrument', 'play', 'violin', 'piano'], options: { factOnly: new Set(['instrument']) } },
  { words: ['book', 'read', 'daughter'], options: { kind: 'pref' } },
  { words: ['marathon', 'porto', 'brother', 'run'] },
  { words: ['training', 'yoga', 'hiking'] },
  { words: ['sunset', 'paint'], options: { kind: 'all' } },
  // A span brings in what was said in it (every memory here was said on 8 May 2023), or nothing outside it.
  { words: ['violin'], options: { said: { start: Date.UTC(2023, 4, 8), end: Date.UTC(2023, 4, 9) } } },
  { words: ['violin'], options: { kind: 'people', said: { start: Date.UTC(2023, 4, 1), end: Date.UTC(2023, 5, 1) } } },
  { words: ['violin'], options: { said: { start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 1, 1) } } },
  // A slot asked about brings in the memories in it ("Maria moved to Lisbon…" for where she lives), or none when none is in it.
  { words: ['violin'], options: { slots: ['home'] } },
  { words: ['violin'], options: { kind: 'people', slots: ['home', 'work'] } },
  { words: ['violin'], options: { slots: ['partner'] } },
];

async function lexemesOfWords(space: string, words: string[]) {
  const { lexemes } = await lexemesAndVersion(store.db, scopeOf(space), words);
  return [...new Set(lexemes.flat())];
}

describe('the in-process copy of a space index', () => {
  it('finds the same memories with the same levels and counts as the store', async () => {
    const cache = new MemoryIndexCache();
    const scope = scopeOf('maria');
    const { version } = await lexemesAndVersion(store.db, scope, ['x']);
    const copy = await cache.current(store.db, scope, version);
    expect(copy).not.toBeNull();
    let compared = 0;
    for (const question of QUESTIONS) {
      const lexemes = await lexemesOfWords('maria', question.words);
      const options: LexemeSearch = { lexemes, kind: 'all', ...question.options };
      const fromStore = await searchMemories(store.db, scope, options);
      const fromCopy = copy!.search(options);
      const byId = (hits: { id: number }[]) => [...hits].sort((left, right) => left.id - right.id);
      expect(byId(fromCopy.hits)).toEqual(byId(fromStore.hits));
      expect(fromCopy.total).toBe(fromStore.total);
      expect([...fromCopy.counts]).toEqual([...fromStore.counts]);
      const ids = fromStore.hits.map((hit) => hit.id);
      const storeRanks = await rankMemories(store.db, scope, ids, lexemes);
      const copyRanks = copy!.rank(ids, lexemes);
      for (const id of ids) expect(copyRanks.get(id)).toBeCloseTo(storeRanks.get(id)!, 6);
      compared += fromStore.hits.length;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('brings in the memories in a slot asked about, in the copy as in the store', async () => {
    const scope = scopeOf('maria');
    const { version } = await lexemesAndVersion(store.db, scope, ['x']);
    const copy = await new MemoryIndexCache().current(store.db, scope, version);
    const lexemes = await lexemesOfWords('maria', ['violin']);
    const slotted = await sql<{ id: number }>`select id from memories where space = 'maria' and slot like '%|home'`.execute(store.db);
    expect(slotted.rows.length).toBe(1);
    for (const found of [
      await searchMemories(store.db, scope, { lexemes, kind: 'all', slots: ['home'] }),
      copy!.search({ lexemes, kind: 'all', slots: ['home'] }),
    ]) {
      expect(found.hits.map((hit) => hit.id)).toContain(slotted.rows[0]!.id);
    }
    const without = await searchMemories(store.db, scope, { lexemes, kind: 'all' });
    expect(without.hits.map((hit) => hit.id)).not.toContain(slotted.rows[0]!.id);
  });

  it('built in chunks, answers as one read whole', async () => {
    const scope = scopeOf('maria');
    const { version } = await lexemesAndVersion(store.db, scope, ['x']);
    const whole = await new MemoryIndexCache().current(store.db, scope, version);
    // Three memories a statement: the space is read in several chunks.
    const chunked = await new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0, buildChunk: 3 }).current(
      store.db,
      scope,
      version,
    );
    expect(chunked!.size).toBe(whole!.size);
    expect(chunked!.size).toBeGreaterThan(6);
    expect(chunked!.ids()).toEqual(whole!.ids());
    for (const question of QUESTIONS) {
      const options: LexemeSearch = { lexemes: await lexemesOfWords('maria', question.words), kind: 'all', ...question.options };
      expect(chunked!.search(options)).toEqual(whole!.search(options));
    }
  });

  it('holds only its own space: another space with the same words is never in it', async () => {
    const cache = new MemoryIndexCache();
    const { version } = await lexemesAndVersion(store.db, scopeOf('maria'), ['x']);
    const copy = await cache.current(store.db, scopeOf('maria'), version);
    const lexemes = await lexemesOfWords('maria', ['zed', 'lake', 'swim']);
    const texts = await sql<{ id: number }>`select id from memories where space = 'other'`.execute(store.db);
    const otherIds = new Set(texts.rows.map((row) => row.id));
    expect(otherIds.size).toBeGreaterThan(0);
    const found = copy!.search({ lexemes, kind: 'all' });
    expect(found.hits.some((hit) => otherIds.has(hit.id))).toBe(false);
    expect(copy!.ids().every((id) => !otherIds.has(id))).toBe(true);
  });

  it('is given up when any memory of its space is added, changed or removed, and not for another space', async () => {
    const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0 });
    const scope = scopeOf('changing');
    await learnInto('changing', CONVERSATION.slice(0, 2));
    const versionOf = async (space: string) => (await lexemesAndVersion(store.db, scopeOf(space), ['x'])).version;
    const first = await versionOf('changing');
    const copy = await cache.current(store.db, scope, first);
    expect(copy?.version).toBe(first);
    const firstSize = copy!.size;

    const otherBefore = await versionOf('other');
    const source = await learnInto('changing', CONVERSATION.slice(2, 4));
    const added = await versionOf('changing');
    expect(added).not.toBe(first);
    expect(await versionOf('other')).toBe(otherBefore);
    // The old copy is not handed out for the new version; a fresh one holds the new memories.
    const fresh = await cache.current(store.db, scope, added);
    expect(fresh!.version).toBe(added);
    const freshSize = fresh!.size;
    expect(freshSize).toBeGreaterThan(firstSize);

    await sql`update memories set status = 'wrong' where id = ${fresh!.ids()[0]!}`.execute(store.db);
    const changed = await versionOf('changing');
    expect(changed).not.toBe(added);
    const afterChange = await cache.current(store.db, scope, changed);
    const changedSize = afterChange!.size;
    expect(changedSize).toBe(freshSize - 1);

    // Removing memories (as deleting the source that taught them does) moves the version too.
    await sql`delete from memories where source_id = ${source}`.execute(store.db);
    const removed = await versionOf('changing');
    expect(removed).not.toBe(changed);
    const afterDelete = await cache.current(store.db, scope, removed);
    expect(afterDelete!.size).toBeLessThan(changedSize);
  });

  it('never repeats a version when a space is erased and made again', async () => {
    await learnInto('again', CONVERSATION.slice(0, 1));
    const before = (await lexemesAndVersion(store.db, scopeOf('again'), ['x'])).version!;
    await sql`delete from spaces where account_id = ${accountId} and name = 'again'`.execute(store.db);
    expect((await lexemesAndVersion(store.db, scopeOf('again'), ['x'])).version).toBeNull();
    await learnInto('again', CONVERSATION.slice(0, 1));
    const after = (await lexemesAndVersion(store.db, scopeOf('again'), ['x'])).version!;
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
  });

  it('holds no more memories than configured, dropping the least recently used copy, and none at 0', async () => {
    const versionOf = async (space: string) => (await lexemesAndVersion(store.db, scopeOf(space), ['x'])).version;
    const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0 });
    const maria = await cache.current(store.db, scopeOf('maria'), await versionOf('maria'));
    cache.configure({ maxHeld: maria!.size });
    // Room for maria's copy alone: taking other's drops maria's, which is then built again.
    const other = await cache.current(store.db, scopeOf('other'), await versionOf('other'));
    expect(other).not.toBeNull();
    const again = await cache.current(store.db, scopeOf('maria'), await versionOf('maria'));
    expect(again).not.toBe(maria);
    expect(again?.size).toBe(maria!.size);
    cache.configure({ maxHeld: 0 });
    expect(await cache.current(store.db, scopeOf('maria'), await versionOf('maria'))).toBeNull();
  });

  it('brought up to date change by change, answers as a copy built whole, over random additions, changes and removals', async () => {
    const scope = scopeOf('random-changes');
    const versionOf = async () => (await lexemesAndVersion(store.db, scope, ['x'])).version;
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const NAMES = ['Odile', 'Bram', 'Kasia', 'Tunde'];
    const VERBS = ['painted', 'repaired', 'sold', 'planted', 'borrowed'];
    const THINGS = ['a blue kayak', 'an old piano', 'three apple trees', 'a bicycle', 'a sunset mural', 'the garden shed'];
    const PLACES = ['in Lisbon', 'near the harbour', 'at the market', 'in Porto', 'by the lake'];
    let written = 0;
    async function addFacts(count: number) {
      const source = await addSource(store.db, scope, { kind: 'note', body: 'generated', tokens: 0 }, 3);
      const facts = Array.from({ length: count }, () => {
        const name = pick(NAMES);
        const text = `${name} ${pick(VERBS)} ${pick(THINGS)} ${pick(PLACES)} on day ${(written += 1)}.`;
        return {
          text,
          kind: pick(['detail', 'plan', 'pref'] as const),
          about: [name],
          date: '2024-03-0' + (1 + (written % 9)),
          fingerprint: factFingerprint(text),
          sentence: { text, messageIndex: null, start: 0, end: text.length },
          index: { broader: '', kinds: '', around: '' },
        };
      });
      await store.db.transaction().execute((transaction) => storeFacts(transaction, scope, source.id, facts));
    }
    await addFacts(20);
    const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0 });
    const kept = await cache.current(store.db, scope, await versionOf());
    expect(kept).not.toBeNull();
    // Another copy whose added postings join the shared arrays at every change (the first keeps them apart).
    const mergingCache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0, mergeAt: 0 });
    const merging = await mergingCache.current(store.db, scope, await versionOf());
    expect(merging).not.toBeNull();
    const questions = [
      ['painted', 'kayak'],
      ['odile', 'piano', 'sold'],
      ['trees', 'lisbon', 'harbour'],
      ['bicycle', 'market', 'bram'],
      ['mural', 'lake', 'kasia', 'tunde'],
    ];
    const boats = textVector(['kayak', 'boat'])!;
    for (let round = 0; round < 12; round++) {
      const { rows } = await sql<{ id: number }>`
        select id from memories where account_id = ${accountId} and space = ${scope.space} and status = 'current' order by id`.execute(
        store.db,
      );
      const ids = rows.map((row) => row.id);
      const action = round % 4;
      if (action === 0) await addFacts(1 + Math.floor(random() * 8));
      else if (action === 1) await sql`delete from memories where id = any(${ids.filter(() => random() < 0.2)}::int[])`.execute(store.db);
      else if (action === 2)
        await sql`update memories set status = 'wrong' where id = any(${ids.filter(() => random() < 0.15)}::int[])`.execute(store.db);
      else {
        await addFacts(3);
        await sql`update memories set status = 'replaced' where id = ${pick(ids)}`.execute(store.db);
        // Changed and still current: held again at the end of the copy under its old id, out of id order.
        await sql`update memories set labels = '{"trip":"lake"}' where id = ${pick(ids)} and status = 'current'`.execute(store.db);
      }
      // Found before the copy is brought up to date: their vectors are read where the search found them.
      const stale = kept!.searchColumns({ lexemes: await lexemesOfWords(scope.space, questions[round % questions.length]!), kind: 'all' });
      const version = await versionOf();
      const updated = await cache.current(store.db, scope, version);
      // The same copy, brought up to date: not one built again.
      expect(updated).toBe(kept);
      // A memory removed or changed since the search is looked for by id, as `similarities` does.
      const stalePlaces = Int32Array.from({ length: stale.hits.length }, (_, place) => stale.hits.length - 1 - place);
      expect(Array.from(updated!.similaritiesOfHits(stale.hits, stalePlaces, stalePlaces.length, boats)!)).toEqual(
        Array.from(
          updated!.similarities(
            Int32Array.from(stalePlaces, (place) => stale.hits.id[place]!),
            stalePlaces.length,
            boats,
          )!,
        ),
      );
      const merged = await mergingCache.current(store.db, scope, version);
      expect(merged).toBe(merging);
      expect(updated!.version).toBe(version);
      const rebuilt = await new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 0 }).current(store.db, scope, version);
      expect(updated!.ids()).toEqual(rebuilt!.ids());
      expect(merged!.ids()).toEqual(rebuilt!.ids());
      expect(updated!.size).toBe(rebuilt!.size);
      for (const words of questions) {
        const lexemes = await lexemesOfWords(scope.space, words);
        for (const options of [
          { lexemes, kind: 'all' as const },
          { lexemes, kind: 'plan' as const, scoreOnly: new Set([lexemes[0]!]) },
          { lexemes, kind: 'all' as const, factOnly: new Set([lexemes.at(-1)!]) },
        ]) {
          const fromUpdated = updated!.search(options);
          const fromRebuilt = rebuilt!.search(options);
          expect(fromUpdated.hits).toEqual(fromRebuilt.hits);
          expect(merged!.search(options)).toEqual(fromUpdated);
          expect(fromUpdated.total).toBe(fromRebuilt.total);
          expect([...fromUpdated.counts]).toEqual([...fromRebuilt.counts]);
          const hitIds = fromRebuilt.hits.map((hit) => hit.id);
          expect([...updated!.rank(hitIds, lexemes)].sort()).toEqual([...rebuilt!.rank(hitIds, lexemes)].sort());
          expect([...merged!.rank(hitIds, lexemes)].sort()).toEqual([...rebuilt!.rank(hitIds, lexemes)].sort());
          // Each memory's word vector (recall/dense.ts) is kept as a build makes it.
          const similar = updated!.similarities(Int32Array.from(hitIds), hitIds.length, boats);
          expect(similar).not.toBeNull();
          expect(Array.from(similar!)).toEqual(Array.from(rebuilt!.similarities(Int32Array.from(hitIds), hitIds.length, boats)!));
          if (hitIds.length) expect(Math.max(...similar!)).toBeGreaterThan(0);
          // The same read by the places of the copy's own search, in any order.
          const { hits } = updated!.searchColumns(options);
          const places = Int32Array.from({ length: hits.length }, (_, place) => (place * 5 + 3) % hits.length);
          if (hits.length % 5 === 0) places.forEach((_, index) => (places[index] = hits.length - 1 - index));
          expect(Array.from(updated!.similaritiesOfHits(hits, places, places.length, boats)!)).toEqual(
            Array.from(
              updated!.similarities(
                Int32Array.from(places, (place) => hits.id[place]!),
                places.length,
                boats,
              )!,
            ),
          );
        }
      }
    }
  });

  it('makes every request that finds its space cold wait for one build, none left to search the store', async () => {
    const scope = scopeOf('maria');
    const { version } = await lexemesAndVersion(store.db, scope, ['x']);
    // Statements counted through a plugin: those of one build, then those of 32 requests at once.
    let statements = 0;
    const counted = store.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const limits = { maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 60_000, buildChunk: 3 };
    const alone = await new MemoryIndexCache(limits).current(counted, scope, version);
    expect(alone).not.toBeNull();
    const oneBuild = statements;
    // Three memories a statement: the build takes several round trips, and the requests all arrive during it.
    expect(oneBuild).toBeGreaterThan(3);
    statements = 0;
    const cache = new MemoryIndexCache(limits);
    const copies = await Promise.all(Array.from({ length: 32 }, () => cache.current(counted, scope, version)));
    expect(statements).toBe(oneBuild);
    expect(copies[0]).not.toBeNull();
    expect(new Set(copies).size).toBe(1);
    expect(copies[0]!.ids()).toEqual(alone!.ids());
    // Built once: the next requests get the same copy without a statement.
    expect(await cache.current(counted, scope, version)).toBe(copies[0]);
    expect(statements).toBe(oneBuild);
  });

  it('catches up in the background after learning wrote to a space it holds, and leaves other spaces uncopied', async () => {
    const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 60_000 });
    const scope = scopeOf('kept-up');
    await learnInto('kept-up', CONVERSATION.slice(0, 2));
    const versionOf = async (space: string) => (await lexemesAndVersion(store.db, scopeOf(space), ['x'])).version!;
    const copy = (await cache.current(store.db, scope, await versionOf('kept-up')))!;
    const before = copy.size;
    await learnInto('kept-up', CONVERSATION.slice(2, 5));
    const after = await versionOf('kept-up');
    expect(cache.heldVersion(scope)).not.toBe(after);
    cache.keepUp(store.db, scope);
    cache.keepUp(store.db, scope);
    for (let tries = 0; tries < 200 && cache.heldVersion(scope) !== after; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    // Brought up to date by its changes, with no search asking: the same copy, holding the new memories.
    expect(cache.heldVersion(scope)).toBe(after);
    expect(await cache.current(store.db, scope, after)).toBe(copy);
    expect(copy.size).toBeGreaterThan(before);
    // A space this process holds no copy of gets none from a write.
    await learnInto('never-searched', CONVERSATION.slice(0, 1));
    cache.keepUp(store.db, scopeOf('never-searched'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(cache.heldVersion(scopeOf('never-searched'))).toBeNull();
  });

  // On PostgreSQL only: holding a read's result holds its connection, and the embedded store's one
  // connection held would keep the write below from ever running. The cache's logic is the same on both.
  it.runIf(inject('engramStore') === 'postgres')(
    'catches up once more after a refresh that was under way when learning wrote, which may have read the space before it',
    async () => {
      const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: 200_000, rebuildMs: 60_000 });
      const scope = scopeOf('kept-up-during');
      await learnInto('kept-up-during', CONVERSATION.slice(0, 2));
      const versionOf = async () => (await lexemesAndVersion(store.db, scope, ['x'])).version!;
      await cache.current(store.db, scope, await versionOf());
      await learnInto('kept-up-during', CONVERSATION.slice(2, 4));
      const first = await versionOf();
      // A search's refresh reads what changed up to `first`, and is held before it applies it.
      let release = () => {};
      let held: Promise<void> | null = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = store.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          if (held) await held;
          return args.result;
        },
      });
      const searching = cache.current(slow, scope, first);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Learning writes meanwhile, and the worker asks for the copy to catch up; its wait ends while the refresh is still held.
      await learnInto('kept-up-during', CONVERSATION.slice(4, 6));
      const last = await versionOf();
      cache.keepUp(store.db, scope);
      await new Promise((resolve) => setTimeout(resolve, 400));
      held = null;
      release();
      await searching;
      for (let tries = 0; tries < 200 && cache.heldVersion(scope) !== last; tries++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(cache.heldVersion(scope)).toBe(last);
    },
  );

  it('is kept up by the server once a source is learned, before any search asks', async () => {
    const own = await startOwnServer({});
    try {
      const send = (method: string, path: string, body?: unknown) => call(method, path, { body, key: own.key, base: own.server.url });
      const learned = async (text: string) => {
        const saved = await send('POST', '/v1/memories', { text, space: 'kept' });
        expect(saved.status).toBe(201);
        const waited = await send('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=kept`);
        expect(waited.body.source.status).toBe('finished');
      };
      await learned('Odile restores harpsichords in her workshop.');
      expect((await send('POST', '/v1/search', { q: 'harpsichords', space: 'kept' })).body.memories).toHaveLength(1);
      const db = own.server.store.db;
      const { rows } = await sql<{ id: number }>`select account_id as id from spaces where name = 'kept'`.execute(db);
      const scope = { accountId: rows[0]!.id, space: 'kept' };
      const held = memoryIndexOf(db).heldVersion(scope);
      expect(held).not.toBeNull();
      await learned('Odile tunes church organs on Sundays.');
      const { version } = await lexemesAndVersion(db, scope, ['x']);
      expect(version).not.toBe(held);
      for (let tries = 0; tries < 200 && memoryIndexOf(db).heldVersion(scope) !== version; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(memoryIndexOf(db).heldVersion(scope)).toBe(version);
    } finally {
      await own.close();
    }
  });

  it('warms the spaces it is given, most wanted first, never past what it may hold', async () => {
    await learnInto('warm-a', CONVERSATION.slice(0, 2));
    await learnInto('warm-b', CONVERSATION.slice(2, 4));
    await learnInto('warm-c', CONVERSATION);
    const sizes: Record<string, number> = {};
    for (const space of ['warm-a', 'warm-b', 'warm-c']) {
      const { rows } = await sql<{ count: number }>`
        select count(*)::int as count from memories where account_id = ${accountId} and space = ${space} and status = 'current'`.execute(
        store.db,
      );
      sizes[space] = rows[0]!.count;
    }
    // The copies may hold warm-a and warm-b together, but not warm-c beside warm-b.
    const cache = new MemoryIndexCache({ maxSpace: 20_000, maxHeld: sizes['warm-a']! + sizes['warm-b']!, rebuildMs: 60_000 });
    expect(sizes['warm-c']!).toBeGreaterThan(sizes['warm-a']!);
    const wanted = ['warm-b', 'warm-c', 'warm-a', 'warm-missing'].map((space) => ({ accountId, space, memories: sizes[space] ?? 0 }));
    expect(await cache.warm(store.db, wanted)).toBe(2);
    expect(cache.heldVersion(scopeOf('warm-b'))).not.toBeNull();
    expect(cache.heldVersion(scopeOf('warm-a'))).not.toBeNull();
    expect(cache.heldVersion(scopeOf('warm-c'))).toBeNull();
    expect(cache.heldVersion(scopeOf('warm-missing'))).toBeNull();
    expect(cache.heldMemories).toBe(sizes['warm-a']! + sizes['warm-b']!);
    // Warming again builds nothing: both are held.
    expect(await cache.warm(store.db, wanted)).toBe(0);
  });

  it('reads the spaces recall was last asked of from the request log, newest first, recall calls only', async () => {
    const entry = (space: string | null, route: string, status: number, minutesAgo: number) => ({
      accountId,
      at: new Date(Date.now() - minutesAgo * 60_000),
      method: 'POST',
      route,
      status,
      space,
      keyPrefix: 'egk_test',
      requestId: `req_${Math.random().toString(36).slice(2)}`,
      durationMs: 5,
      errorType: null,
    });
    await insertRequestLog(store.db, [
      entry('maria', '/v1/search', 200, 30),
      entry('other', '/v1/context', 200, 20),
      entry('maria', '/v1/ask', 200, 10),
      entry('changing', '/v1/memories', 201, 1),
      entry('again', '/v1/search', 400, 1),
      entry(null, '/v1/search', 200, 1),
    ]);
    const spaces = (await recentRecallSpaces(store.db, { limit: 10 })).filter((row) => row.accountId === accountId);
    expect(spaces.map((row) => row.space)).toEqual(['maria', 'other']);
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from memories where account_id = ${accountId} and space = 'maria' and status = 'current' and kind <> 'raw'`.execute(
      store.db,
    );
    expect(spaces[0]!.memories).toBe(rows[0]!.count);
    // Only the newest calls are read: the last two here are both of 'maria'.
    expect((await recentRecallSpaces(store.db, { limit: 10, scanned: 1 })).map((row) => row.space)).toEqual(['maria']);
  });

  it('warms at start the spaces recall was last asked of before the server stopped', async () => {
    const database = inject('engramStore') === 'postgres' ? await createTestDatabase() : null;
    const dataDir = database ? null : await mkdtemp(join(tmpdir(), 'engram-warm-'));
    const env: Record<string, string> = database ? { DATABASE_URL: database.url } : { ENGRAM_DATA_DIR: dataDir! };
    try {
      const first = await startOwnServer(env);
      let scope: Scope;
      try {
        const send = (method: string, path: string, body?: unknown) => call(method, path, { body, key: first.key, base: first.server.url });
        const saved = await send('POST', '/v1/memories', { text: 'Odile restores harpsichords in her workshop.', space: 'warmed' });
        expect((await send('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=warmed`)).body.source.status).toBe('finished');
        expect((await send('POST', '/v1/search', { q: 'harpsichords', space: 'warmed' })).body.memories).toHaveLength(1);
        const { rows } = await sql<{ id: number }>`select account_id as id from spaces where name = 'warmed'`.execute(
          first.server.store.db,
        );
        scope = { accountId: rows[0]!.id, space: 'warmed' };
      } finally {
        await first.close();
      }
      // The same store, a new process's copies: the space is warmed with no search asking.
      const again = await startOwnServer({ ...env, ENGRAM_BOOTSTRAP_KEY: first.key });
      try {
        const cache = memoryIndexOf(again.server.store.db);
        for (let tries = 0; tries < 200 && cache.heldVersion(scope) === null; tries++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(cache.heldVersion(scope)).not.toBeNull();
      } finally {
        await again.close();
      }
    } finally {
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves spaces larger than its limit to the store', async () => {
    const cache = new MemoryIndexCache({ maxSpace: 3, maxHeld: 200_000, rebuildMs: 0 });
    const { version } = await lexemesAndVersion(store.db, scopeOf('maria'), ['x']);
    expect(await cache.current(store.db, scopeOf('maria'), version)).toBeNull();
  });
});

describe('parseTsvector', () => {
  it('reads levels and cover weights from a tsvector text, quotes and broader words included', () => {
    const { levels, weights } = parseTsvector("'dog':1A,9C 'it''s':4 'rex':2B '^anim' 'walk':3,7D");
    expect(Object.fromEntries(levels)).toEqual({ dog: 3, "it's": 1, rex: 3, '^anim': 3, walk: 1 });
    // In tenths: A 10, B 4, C 2, D 1 (a position without a letter is a D).
    expect(weights.get('dog')).toBe(12);
    expect(weights.get('walk')).toBe(2);
    expect(weights.has('^anim')).toBe(false);
  });
});

describe('lexemesAndVersion', () => {
  it("reads each word's lexemes once per store, and the space's version every time", async () => {
    const scope = scopeOf('paddling');
    // The word lists each statement sent (its array parameters), through a plugin: the store seen
    // through it keeps words apart from the store itself.
    const sent: unknown[][] = [];
    const watched = store.db.withPlugin({
      transformQuery: (args) => {
        const node = args.node as unknown as { parameters?: readonly { value?: unknown }[] };
        for (const parameter of node.parameters ?? []) if (Array.isArray(parameter.value)) sent.push(parameter.value);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const stemmed = async (words: string[]) =>
      (
        await sql<{ lexemes: string[] }>`
          select tsvector_to_array(to_tsvector('english', w)) as lexemes from unnest(${words}::text[]) with ordinality as t(w, n) order by n`.execute(
          store.db,
        )
      ).rows.map((row) => row.lexemes);

    const first = await lexemesAndVersion(watched, scope, ['kayaks', 'the', 'paddled', 'kayaks']);
    expect(first.lexemes).toEqual(await stemmed(['kayaks', 'the', 'paddled', 'kayaks']));
    expect(first.version).toBeNull();
    expect(sent.at(-1)).toEqual(['kayaks', 'the', 'paddled']);

    const second = await lexemesAndVersion(watched, scope, ['paddled', 'rivers', 'the']);
    expect(second.lexemes).toEqual(await stemmed(['paddled', 'rivers', 'the']));
    expect(sent.at(-1)).toEqual(['rivers']);

    // The version is read whatever the words: a space written to since is seen at once.
    await learnInto('paddling', [['Odalys', 'Odalys paddled a kayak down the river at dawn.']]);
    const third = await lexemesAndVersion(watched, scope, ['kayaks', 'rivers']);
    expect(sent.at(-1)).toEqual([]);
    const { rows } = await sql<{ version: string }>`
      select memories_version::text as version from spaces where account_id = ${accountId} and name = 'paddling'`.execute(store.db);
    expect(third.version).toBe(rows[0]!.version);
    expect(third.lexemes).toEqual(await stemmed(['kayaks', 'rivers']));
  });
});
