import type { BaseStore } from '@langchain/langgraph-checkpoint';
import { InMemoryStore } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { EngramStore } from '../src/index.js';
import { freshSpace, learned, recordingClient } from './helpers/server.js';

const keysOf = (items: Array<{ key: string }>) => items.map((item) => item.key);

describe('EngramStore', { timeout: 30_000 }, () => {
  it('puts, gets, overwrites and deletes items as JSON files', async () => {
    const space = freshSpace('nina');
    const { client } = recordingClient();
    const store = new EngramStore({ client, space });
    await store.put(['profile', 'prefs'], 'theme', { mode: 'dark', size: 14 });
    const item = await store.get(['profile', 'prefs'], 'theme');
    expect(item).toMatchObject({ namespace: ['profile', 'prefs'], key: 'theme', value: { mode: 'dark', size: 14 } });
    expect(item!.createdAt).toBeInstanceOf(Date);
    expect(item!.updatedAt.getTime()).toBe(item!.createdAt.getTime());
    expect((await client.files.read('/langgraph/profile/prefs/theme', { space })).text).toBe('{\n  "mode": "dark",\n  "size": 14\n}');
    // Beside the JSON, the text Engram learns: the value's strings, labelled with the namespace.
    expect(await client.files.read('/langgraph/profile/prefs/theme.txt', { space })).toMatchObject({
      text: 'dark',
      labels: { langgraph: '/langgraph', 'langgraph:1': 'profile', 'langgraph:2': 'profile/prefs' },
    });

    await store.put(['profile', 'prefs'], 'theme', { mode: 'light' });
    expect((await store.get(['profile', 'prefs'], 'theme'))!.value).toEqual({ mode: 'light' });
    await store.delete(['profile', 'prefs'], 'theme');
    expect(await store.get(['profile', 'prefs'], 'theme')).toBeNull();
    expect((await client.files.list({ prefix: '/langgraph/profile/', space })).total).toBe(0);
    await store.delete(['profile', 'prefs'], 'theme'); // deleting what is gone is fine
    expect(await store.get(['profile', 'nothing'], 'here')).toBeNull();

    // Keys with slashes and dots are kept as one path part.
    await store.put(['docs'], 'a/b', { text: 'slash' });
    await store.put(['docs'], '..', { text: 'dots' });
    await store.put(['docs'], 'notes.txt', { text: 'a key ending as the text files do' });
    expect(keysOf(await store.search(['docs']))).toEqual(['..', 'a/b', 'notes.txt']);
    expect((await store.get(['docs'], 'notes.txt'))!.value).toEqual({ text: 'a key ending as the text files do' });
    expect((await store.get(['docs'], 'a/b'))!.value).toEqual({ text: 'slash' });
  });

  it('lists a namespace and the ones beneath it without a query, with filter, limit and offset', async () => {
    const space = freshSpace('omar');
    const { client } = recordingClient();
    const store = new EngramStore({ client, space });
    await store.put(['tasks'], 'a', { status: 'open', points: 1 });
    await store.put(['tasks'], 'b', { status: 'done', points: 3 });
    await store.put(['tasks', 'archived'], 'c', { status: 'done', points: 5 });
    await store.put(['notes'], 'd', { status: 'open', points: 8 });

    expect(keysOf(await store.search(['tasks']))).toEqual(['a', 'b', 'c']);
    expect((await store.search(['tasks']))[2]).toMatchObject({ namespace: ['tasks', 'archived'], key: 'c' });
    expect(keysOf(await store.search(['tasks'], { filter: { status: 'done' } }))).toEqual(['b', 'c']);
    expect(keysOf(await store.search(['tasks'], { filter: { points: { $gte: 3 } }, limit: 1 }))).toEqual(['b']);
    expect(keysOf(await store.search(['tasks'], { filter: { status: 'done' }, offset: 1 }))).toEqual(['c']);
    expect(keysOf(await store.search(['tasks'], { limit: 2, offset: 1 }))).toEqual(['b', 'c']);
    expect(keysOf(await store.search([]))).toEqual(['d', 'a', 'b', 'c']);
  });

  it("answers listNamespaces as LangGraph's own store does", async () => {
    const space = freshSpace('pia');
    const { client } = recordingClient();
    const engram = new EngramStore({ client, space });
    const memory = new InMemoryStore();
    for (const store of [engram, memory] as BaseStore[]) {
      await store.put(['users', 'pia', 'facts'], 'one', { text: 'x' });
      await store.put(['users', 'pia', 'prefs'], 'two', { text: 'x' });
      await store.put(['users', 'rob', 'facts'], 'three', { text: 'x' });
      await store.put(['teams', 'blue'], 'four', { text: 'x' });
    }
    const questions = [
      {},
      { prefix: ['users'] },
      { suffix: ['facts'] },
      { prefix: ['users', '*', 'facts'] },
      { prefix: ['users'], maxDepth: 2 },
      { limit: 2, offset: 1 },
    ];
    for (const question of questions) {
      const expected = await memory.listNamespaces(question);
      expect(await engram.listNamespaces(question), JSON.stringify(question)).toEqual(expected);
    }
    expect(await engram.listNamespaces({ prefix: ['users'], maxDepth: 2 })).toEqual([
      ['users', 'pia'],
      ['users', 'rob'],
    ]);
  });

  it('searches with a query through recall over the namespace, best first, with a score', async () => {
    const space = freshSpace('quinn');
    const { client } = recordingClient();
    const store = new EngramStore({ client, space });
    await store.put(['memories'], 'diet', { text: 'Quinn stopped eating meat in 2024 and now cooks lentil stews.' });
    await store.put(['memories'], 'sport', { text: 'Quinn rows on the river every Saturday morning.' });
    await store.put(['memories', 'work'], 'job', { text: 'Quinn repairs church organs for a living.' });
    await store.put(['elsewhere'], 'diet', { text: "Quinn's neighbour eats lentil soup daily." });
    await store.put(['memories'], 'secret', { text: 'Quinn hums while cooking lentil stews.' }, false);
    await store.put(['memories'], 'trip', { title: 'Quinn flies to Oslo in June.', packing: 'Quinn packs lentil crackers.' }, ['title']);
    await learned(client, space);

    // Engram learned the values' words, not their JSON, and only the fields named when put names them.
    const learnedTexts: string[] = [];
    for await (const memory of client.memories.list({ space })) learnedTexts.push(memory.text);
    expect(learnedTexts.join('\n')).toMatch(/Oslo/);
    expect(learnedTexts.join('\n')).not.toMatch(/crackers|hums|[{}"]/);

    const found = await store.search(['memories'], { query: 'What does Quinn cook with lentils?' });
    expect(found[0]).toMatchObject({ namespace: ['memories'], key: 'diet', value: { text: expect.stringMatching(/lentil stews/) } });
    expect(found[0]!.score).toBeGreaterThan(0);
    expect(found[0]!.score).toBeLessThanOrEqual(1);
    // Another namespace and an item put with index false are not recalled.
    expect(keysOf(found)).not.toContain('secret');
    expect(found.every((item) => item.namespace[0] === 'memories')).toBe(true);
    for (let index = 1; index < found.length; index++) expect(found[index]!.score!).toBeLessThanOrEqual(found[index - 1]!.score!);

    expect(keysOf(await store.search(['memories'], { query: 'Who repairs church organs?' }))[0]).toBe('job');
    expect(keysOf(await store.search(['memories', 'work'], { query: 'What does Quinn cook with lentils?' }))).not.toContain('diet');
    expect(keysOf(await store.search(['elsewhere'], { query: 'Who eats lentil soup?' }))).toEqual(['diet']);
    expect(await store.search(['memories'], { query: 'What does Quinn cook?', filter: { text: 'no such text' } })).toEqual([]);
    // The item put with index false is kept all the same.
    expect((await store.get(['memories'], 'secret'))!.value.text).toMatch(/hums/);
  });

  it("takes each user's space from the namespace, and one user never finds another's items", async () => {
    const [rosa, sam] = [freshSpace('rosa'), freshSpace('sam')];
    const { client } = recordingClient();
    const store = new EngramStore({ client, spaceFromNamespace: true });
    await store.put([rosa, 'memories'], 'pet', { text: 'Rosa adopted a grey cat called Pepper.' });
    await store.put([sam, 'memories'], 'pet', { text: 'Sam keeps a tortoise named Bolt.' });
    await learned(client, rosa);
    await learned(client, sam);

    expect((await client.files.read('/langgraph/memories/pet', { space: rosa })).text).toMatch(/Pepper/);
    expect((await store.get([rosa, 'memories'], 'pet'))!.value.text).toMatch(/Pepper/);
    expect((await store.get([sam, 'memories'], 'pet'))!.value.text).toMatch(/Bolt/);
    const rosas = await store.search([rosa, 'memories'], { query: 'What pet does Sam keep? tortoise Bolt' });
    expect(rosas.map((item) => item.value.text).join('\n')).not.toMatch(/Bolt|tortoise/);
    expect((await store.search([sam], { query: 'Which tortoise?' }))[0]).toMatchObject({ namespace: [sam, 'memories'], key: 'pet' });
    expect(await store.listNamespaces({ prefix: [rosa] })).toEqual([[rosa, 'memories']]);
    const all = await store.listNamespaces({ suffix: ['memories'] });
    expect(all).toEqual(
      expect.arrayContaining([
        [rosa, 'memories'],
        [sam, 'memories'],
      ]),
    );
    await expect(store.search([])).rejects.toThrow(/start every namespace with the user's id/);
  });

  it('runs a batch of operations in order', async () => {
    const space = freshSpace('tia');
    const { client } = recordingClient();
    const store = new EngramStore({ client, space });
    const results = await store.batch([
      { namespace: ['a'], key: 'k', value: { n: 1 } },
      { namespace: ['a'], key: 'k' },
      { namespacePrefix: ['a'], limit: 10, offset: 0 },
      { namespace: ['a'], key: 'k', value: null },
      { namespace: ['a'], key: 'k' },
      { limit: 10, offset: 0 },
    ]);
    expect(results[0]).toBeUndefined();
    expect(results[1]).toMatchObject({ key: 'k', value: { n: 1 } });
    expect(keysOf(results[2] as unknown as Array<{ key: string }>)).toEqual(['k']);
    expect(results[3]).toBeUndefined();
    expect(results[4]).toBeNull();
    expect(results[5]).toEqual([]);
  });
});
