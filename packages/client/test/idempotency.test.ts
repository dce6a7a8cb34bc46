import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fetch } from '../src/index.js';
import { Engram } from '../src/index.js';
import type { TestServer } from './helpers/server.js';
import { freshSpace, startTestServer, TEST_KEY } from './helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/**
 * The real fetch, except that the first `drops` answers are lost on the way back: the server
 * has done the work, and the client sees a broken connection.
 */
function droppingFetch(drops: number) {
  const seen: { key: string | null; replayed: string | null; status: number }[] = [];
  const fetch: Fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    seen.push({
      key: new Headers(init.headers).get('idempotency-key'),
      replayed: response.headers.get('idempotent-replayed'),
      status: response.status,
    });
    if (seen.length <= drops) {
      await response.arrayBuffer();
      throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
  return { fetch, seen };
}

describe('a retried save against a real server', () => {
  it('stores one source when the first answer is dropped, and returns the replayed first answer', async () => {
    const space = freshSpace();
    const { fetch, seen } = droppingFetch(1);
    const engram = new Engram({ apiKey: TEST_KEY, baseURL: server.url, fetch, logger: null, space });
    const saved = await engram.memories.add('Yusuf repairs clocks in Izmir.');

    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(/^idem_/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[0]!.replayed).toBeNull();
    expect(seen[1]!.replayed).toBe('true');
    expect(seen.map((attempt) => attempt.status)).toEqual([201, 201]);

    const honest = new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, space });
    const sources = await honest.sources.list();
    expect(sources.total).toBe(1);
    expect(sources.sources[0]!.id).toBe(saved.source.id);
  });

  it('stores one batch when two answers in a row are dropped', async () => {
    const space = freshSpace();
    const { fetch, seen } = droppingFetch(2);
    const engram = new Engram({ apiKey: TEST_KEY, baseURL: server.url, fetch, logger: null, space });
    const answer = await engram.memories.batch({ items: [{ text: 'Eda bakes bread.' }, { text: 'Eda runs a bakery.' }] });
    expect(answer.added).toBe(2);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((attempt) => attempt.key)).size).toBe(1);
    const honest = new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, space });
    expect((await honest.sources.list()).total).toBe(2);
  });

  it('saves twice when the caller makes two calls (each call has its own key)', async () => {
    const space = freshSpace();
    const engram = new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, space });
    await engram.memories.add('Same words.');
    await engram.memories.add('Same words.');
    expect((await engram.sources.list()).total).toBe(2);
  });

  it('replays the same answer to a caller that reuses its own idempotencyKey', async () => {
    const space = freshSpace();
    const engram = new Engram({ apiKey: TEST_KEY, baseURL: server.url, logger: null, space });
    const key = `order-${space}`;
    const first = await engram.memories.add('Only once.', { idempotencyKey: key });
    const again = await engram.memories.add('Only once.', { idempotencyKey: key });
    expect(again.source.id).toBe(first.source.id);
    expect((await engram.sources.list()).total).toBe(1);
  });
});
