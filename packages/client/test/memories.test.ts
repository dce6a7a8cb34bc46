import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../src/index.js';
import { BadRequestError, ConflictError, NotFoundError } from '../src/index.js';
import type { TestServer } from './helpers/server.js';
import { clientOf, freshSpace, startTestServer } from './helpers/server.js';

let server: TestServer;
let engram: Engram;

beforeAll(async () => {
  server = await startTestServer();
  engram = clientOf(server);
});

afterAll(async () => {
  await server.close();
});

describe('memories against a real server', () => {
  it('adds a note and returns the queued source, then with wait returns it learned', async () => {
    const user = engram.forSpace(freshSpace());
    const queued = await user.memories.add('Lena keeps bees in her garden.');
    expect(queued.source.id).toMatch(/^src_/);
    expect(queued.source.kind).toBe('note');

    const learned = await user.memories.add({ text: 'Lena works as a nurse in Leeds.', title: 'Work' }, { wait: true });
    expect(learned.source.status).toBe('finished');
    expect(learned.source.title).toBe('Work');
    expect(learned.source.memories).toBeGreaterThan(0);
    const { memories } = await user.memories.list();
    expect(memories.some((memory) => /nurse/.test(memory.text))).toBe(true);
  });

  it("adds a conversation and learns the user's words as facts about the user", async () => {
    const user = engram.forSpace(freshSpace());
    const saved = await user.memories.add(
      {
        messages: [
          { role: 'user', content: 'My sister Mira lives in Oslo.' },
          { role: 'assistant', content: 'Noted!' },
        ],
      },
      { wait: { timeout: 20_000 } },
    );
    expect(saved.source.kind).toBe('conversation');
    expect(saved.source.status).toBe('finished');
    const listed = await user.memories.list();
    expect(listed.memories.some((memory) => /Oslo/.test(memory.text))).toBe(true);
  });

  it('lists a page with counts and next, and iterates every memory across pages', async () => {
    const user = engram.forSpace(freshSpace());
    await user.memories.add('Omar plays the oud. Omar speaks Arabic. Omar lives in Cairo. Omar drives a taxi. Omar likes mango.', {
      wait: true,
    });
    const page = await user.memories.list({ limit: 2 });
    expect(page.memories).toHaveLength(2);
    expect(page.items).toEqual(page.memories);
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.counts.all).toBe(page.total);
    // `next` is opaque: an integer that names where the following page starts (by key, on the server).
    expect(page.next).toBeGreaterThan(0);
    expect(page.hasNextPage()).toBe(true);

    const all = [];
    for await (const memory of user.memories.list({ limit: 2 })) all.push(memory);
    expect(all).toHaveLength(page.total);
    expect(new Set(all.map((memory) => memory.id)).size).toBe(page.total);
    const everyOnOnePage = await user.memories.list({ limit: 200 });
    expect(all.map((memory) => memory.id)).toEqual(everyOnOnePage.memories.map((memory) => memory.id));

    const pages = [];
    for await (const each of page.iterPages()) pages.push(each.memories.length);
    expect(pages.reduce((sum, count) => sum + count, 0)).toBe(page.total);
    expect(JSON.parse(JSON.stringify(page))).toEqual({ memories: page.memories, counts: page.counts, total: page.total, next: page.next });
  });

  it("gets one memory with its sentence and history, and 404s another space's", async () => {
    const space = freshSpace();
    const user = engram.forSpace(space);
    await user.memories.add('Priya collects vinyl records.', { wait: true });
    const [first] = (await user.memories.list()).memories;
    const detail = await user.memories.get(first!.id);
    expect(detail.memory.id).toBe(first!.id);
    expect(detail.sentence.text).toMatch(/vinyl/);
    expect(detail.history[0]!.event).toBe('learned');
    const viaField = await engram.memories.get(first!.id, { space });
    expect(viaField.memory.id).toBe(first!.id);
    await expect(engram.forSpace(freshSpace()).memories.get(first!.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('corrects a memory: marked wrong, the correction learned from a new source', async () => {
    const user = engram.forSpace(freshSpace());
    await user.memories.add('Tomas lives in Riga.', { wait: true });
    const [wrong] = (await user.memories.list()).memories;
    const corrected = await user.memories.correct(wrong!.id, 'Tomas lives in Vilnius.', { wait: true });
    expect(corrected.memory.id).toBe(wrong!.id);
    expect(corrected.memory.status).toBe('wrong');
    expect(corrected.source.status).toBe('finished');
    const texts = (await user.memories.list()).memories.map((memory) => memory.text);
    expect(texts.some((text) => /Vilnius/.test(text))).toBe(true);
    expect(texts.some((text) => /Riga/.test(text))).toBe(false);
    await expect(user.memories.correct(wrong!.id, { text: 'Again.' }, { maxRetries: 0 })).rejects.toBeInstanceOf(ConflictError);
  });

  it('deletes a memory for good', async () => {
    const user = engram.forSpace(freshSpace());
    await user.memories.add('Sven sails a small boat.', { wait: true });
    const [first] = (await user.memories.list()).memories;
    expect(await user.memories.delete(first!.id)).toEqual({ id: first!.id, deleted: true });
    await expect(user.memories.get(first!.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(user.memories.delete(first!.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('saves a batch item by item, each in its own space, and waits for every saved source', async () => {
    const space = freshSpace();
    const other = freshSpace();
    const answer = await engram.memories.batch(
      { space, items: [{ text: 'Ines paints murals.' }, { text: '' }, { text: 'Ines owns a kiln.', space: other }] },
      { wait: true },
    );
    expect(answer.added).toBe(2);
    expect(answer.failed).toBe(1);
    expect(answer.results.map((row) => row.ok)).toEqual([true, false, true]);
    for (const row of answer.results) if (row.ok) expect(row.source.status).toBe('finished');
    expect((await engram.forSpace(space).sources.list()).total).toBe(1);
    expect((await engram.forSpace(other).sources.list()).total).toBe(1);
  });

  it('refuses a call whose space field disagrees with the scoped client', async () => {
    const user = engram.forSpace(freshSpace());
    const error = await user.memories.add({ text: 'x', space: freshSpace() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).details).toMatchObject({ field: 'space' });
  });

  it("keeps spaces apart: one user's client sees nothing of another's", async () => {
    const ana = engram.forSpace(freshSpace('ana'));
    const ben = engram.forSpace(freshSpace('ben'));
    await ana.memories.add('Ana is allergic to peanuts.', { wait: true });
    expect((await ana.memories.list()).total).toBeGreaterThan(0);
    expect((await ben.memories.list()).total).toBe(0);
    expect((await ben.search('peanuts')).memories).toEqual([]);
  });
});
