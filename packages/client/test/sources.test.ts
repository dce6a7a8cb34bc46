import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../src/index.js';
import { BadRequestError, NotFoundError, UnreadableError } from '../src/index.js';
import { source } from './helpers/fixtures.js';
import { fakeClient, json } from './helpers/recording-fetch.js';
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

describe('sources against a real server', () => {
  it('lists sources newest first, page by page and all at once', async () => {
    const user = engram.forSpace(freshSpace());
    const ids: string[] = [];
    for (const text of ['Kai runs.', 'Kai swims.', 'Kai cycles.']) ids.push((await user.memories.add(text)).source.id);
    const page = await user.sources.list({ limit: 2 });
    expect(page.sources.map((each) => each.id)).toEqual([ids[2], ids[1]]);
    expect(page.total).toBe(3);
    expect(page.next).toBeGreaterThan(0);
    const second = await page.getNextPage();
    expect(second!.sources.map((each) => each.id)).toEqual([ids[0]]);
    expect(second!.hasNextPage()).toBe(false);
    expect(await second!.getNextPage()).toBeNull();

    const all: string[] = [];
    for await (const each of user.sources.list({ limit: 1 })) all.push(each.id);
    expect(all).toEqual([ids[2], ids[1], ids[0]]);
    const fromCursor = await user.sources.list({ limit: 2, cursor: 1 });
    expect(fromCursor.sources.map((each) => each.id)).toEqual([ids[1], ids[0]]);
  });

  it('gets a source at once, and with wait once learned', async () => {
    const user = engram.forSpace(freshSpace());
    const saved = await user.memories.add('Nadia teaches piano on Tuesdays.');
    const now = await user.sources.get(saved.source.id);
    expect(now.source.id).toBe(saved.source.id);
    const waited = await user.sources.get(saved.source.id, { wait: 20 });
    expect(waited.source.status).toBe('finished');
    expect(waited.source.learned_at).not.toBeNull();
    await expect(user.sources.get(saved.source.id, { wait: 61 })).rejects.toBeInstanceOf(BadRequestError);
    await expect(user.sources.get('src_nothing')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('waits for a source until it is finished', async () => {
    const space = freshSpace();
    const saved = await engram.memories.add({ text: 'Hugo brews cider every autumn.', space });
    const learned = await engram.sources.wait(saved.source.id, { space, timeout: 20_000 });
    expect(learned.id).toBe(saved.source.id);
    expect(learned.status).toBe('finished');
    expect(learned.memories).toBeGreaterThan(0);
  });

  it('deletes a source with the memories only it taught', async () => {
    const user = engram.forSpace(freshSpace());
    const saved = await user.memories.add('Rosa fixes old radios.', { wait: true });
    const before = (await user.memories.list()).total;
    expect(before).toBeGreaterThan(0);
    expect(await user.sources.delete(saved.source.id)).toEqual({ id: saved.source.id, deleted: true, memories_deleted: before });
    expect((await user.memories.list()).total).toBe(0);
    await expect(user.sources.get(saved.source.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('sources.wait with an injected fetch', () => {
  it('asks the server to hold each GET for what is left of the timeout, until the source ends', async () => {
    const { engram: fake, calls } = fakeClient((_, index) => json({ source: source({ status: index < 2 ? 'learning' : 'waiting' }) }));
    const waited = await fake.sources.wait('src_abcdefgh12345678', { timeout: 90_000, space: 'u1' });
    expect(waited.status).toBe('waiting');
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.method).toBe('GET');
      expect(call.url.pathname).toBe('/v1/sources/src_abcdefgh12345678');
      expect(call.url.searchParams.get('space')).toBe('u1');
      const wait = Number(call.url.searchParams.get('wait'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
    }
  });

  it('returns the source as it stands when the timeout passes first', async () => {
    const { engram: fake, calls } = fakeClient(() => json({ source: source({ status: 'learning' }) }));
    const waited = await fake.sources.wait('src_abcdefgh12345678', { timeout: 1 });
    expect(waited.status).toBe('learning');
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });

  it('throws UnreadableError carrying the source when it failed as unreadable', async () => {
    const failed = source({
      status: 'failed',
      kind: 'page',
      url: 'https://example.test/x',
      error: { type: 'unreadable', message: 'The page has no text' },
    });
    const { engram: fake } = fakeClient(() => json({ source: failed }, 200, { 'x-request-id': 'req_wait' }));
    const error = await fake.sources.wait(failed.id).catch((caught: unknown) => caught);
    expect(UnreadableError.isInstance(error)).toBe(true);
    const unreadable = error as UnreadableError;
    expect(unreadable.source).toEqual(failed);
    expect(unreadable.source!.error!.message).toBe('The page has no text');
    expect(unreadable.status).toBe(422);
    expect(unreadable.type).toBe('unreadable');
    expect(unreadable.requestId).toBe('req_wait');
    expect(unreadable.message).toContain('The page has no text');
  });

  it('makes { wait: true } on a save throw UnreadableError for an unreadable page', async () => {
    const failed = source({ status: 'failed', kind: 'page', error: { type: 'unreadable', message: 'Not a page' } });
    const { engram: fake, calls } = fakeClient((request) =>
      request.method === 'POST' ? json({ source: source({ kind: 'page' }) }, 201) : json({ source: failed }),
    );
    const error = await fake.memories.add({ url: 'https://example.test/x' }, { wait: true }).catch((caught: unknown) => caught);
    expect(UnreadableError.isInstance(error)).toBe(true);
    expect((error as UnreadableError).source!.error).toEqual({ type: 'unreadable', message: 'Not a page' });
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual(['POST /v1/memories', `GET /v1/sources/${failed.id}`]);
  });

  it('returns a source that failed for another reason without throwing', async () => {
    const failed = source({ status: 'failed', error: { type: 'internal_error', message: 'gave up' } });
    const { engram: fake } = fakeClient(() => json({ source: failed }));
    expect(await fake.sources.wait(failed.id)).toEqual(failed);
  });

  it('gives each held GET longer than the wait it asks for', async () => {
    const { engram: fake, calls } = fakeClient(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return json({ source: source({ status: 'finished' }) });
      },
      { timeout: 10 },
    );
    // The client's 10 ms timeout would cut a held GET short; a waiting GET gets the hold plus slack.
    const { source: got } = await fake.sources.get('src_abcdefgh12345678', { wait: 5 });
    expect(got.status).toBe('finished');
    expect(calls[0]!.url.searchParams.get('wait')).toBe('5');
  });
});
