import { describe, expect, it } from 'vitest';
import { call, freshSpace, type Reply, saveAndLearn } from './helpers.js';

/** Every page of a listing from the first, following `next`; the ids of each page. */
async function pages(path: string, key: 'sources' | 'memories', space: string, limit: number): Promise<(string | number)[][]> {
  const found: (string | number)[][] = [];
  let cursor: number | undefined = 0;
  while (cursor !== undefined) {
    const reply: Reply = await call('GET', `${path}?limit=${limit}&cursor=${cursor}`, { space });
    expect(reply.status).toBe(200);
    found.push(reply.body[key].map((row: { id: string | number }) => row.id));
    if (reply.body.next !== undefined) expect(reply.body.next).toBeGreaterThan(cursor);
    cursor = reply.body.next;
    if (found.length > 50) throw new Error('the listing never ends');
  }
  return found;
}

describe('listings paged by key', () => {
  it('walks every source once, newest first, at any depth, and old counting cursors still work', async () => {
    const space = freshSpace();
    const ids: string[] = [];
    for (let index = 0; index < 9; index++) {
      ids.push(
        (await call('POST', '/v1/memories', { body: { text: `Yusra keeps note number ${index} about her allotment.`, space } })).body.source
          .id,
      );
    }
    const newestFirst = [...ids].reverse();
    const walked = await pages('/v1/sources', 'sources', space, 2);
    expect(walked.map((page) => page.length)).toEqual([2, 2, 2, 2, 1]);
    expect(walked.flat()).toEqual(newestFirst);
    for (const offset of [0, 3, 7, 9]) {
      const counted = await call('GET', `/v1/sources?limit=4&cursor=${offset}`, { space });
      expect(counted.body.sources.map((source: { id: string }) => source.id)).toEqual(newestFirst.slice(offset, offset + 4));
      expect(counted.body.total).toBe(9);
    }
  });

  it('neither repeats nor skips sources when the last one of a page, or one further on, is deleted meanwhile', async () => {
    const space = freshSpace();
    const ids: string[] = [];
    for (let index = 0; index < 7; index++) {
      ids.push(
        (await call('POST', '/v1/memories', { body: { text: `Emeka logged bird sighting ${index} at the reservoir.`, space } })).body.source
          .id,
      );
    }
    const newestFirst = [...ids].reverse();
    const first = await call('GET', '/v1/sources?limit=3', { space });
    expect(first.body.sources.map((source: { id: string }) => source.id)).toEqual(newestFirst.slice(0, 3));
    // The page's last source (the one its cursor names) and one on the next page go.
    expect((await call('DELETE', `/v1/sources/${newestFirst[2]}`, { space })).status).toBe(200);
    expect((await call('DELETE', `/v1/sources/${newestFirst[4]}`, { space })).status).toBe(200);
    const second = await call('GET', `/v1/sources?limit=3&cursor=${first.body.next}`, { space });
    expect(second.body.sources.map((source: { id: string }) => source.id)).toEqual([newestFirst[3], newestFirst[5], newestFirst[6]]);
    expect(second.body.next).toBeUndefined();
    expect(second.body.total).toBe(5);
  });

  it('walks every current memory once, newest first, also after the page-ending memory is deleted', async () => {
    const space = freshSpace();
    for (const text of [
      'Oksana grows chillies on her balcony. Oksana plays the cello.',
      'Oksana repairs clocks at the weekend. Oksana speaks Greek.',
      'Oksana moved to Tallinn in 2019. Oksana keeps two cats.',
    ]) {
      await saveAndLearn(space, { text });
    }
    const all = await call('GET', '/v1/memories?limit=200', { space });
    const newestFirst: number[] = all.body.memories.map((memory: { id: number }) => memory.id);
    expect(newestFirst.length).toBeGreaterThanOrEqual(5);
    const walked = await pages('/v1/memories', 'memories', space, 2);
    expect(walked.flat()).toEqual(newestFirst);
    expect(walked.slice(0, -1).every((page) => page.length === 2)).toBe(true);

    const first = await call('GET', '/v1/memories?limit=2', { space });
    expect((await call('DELETE', `/v1/memories/${newestFirst[1]}`, { space })).status).toBe(200);
    const rest = await pages(`/v1/memories`, 'memories', space, 200);
    expect(rest.flat()).toEqual(newestFirst.filter((id) => id !== newestFirst[1]));
    const second = await call('GET', `/v1/memories?limit=2&cursor=${first.body.next}`, { space });
    expect(second.body.memories.map((memory: { id: number }) => memory.id)).toEqual(newestFirst.slice(2, 4));
  });

  it('answers a cursor past every key, which no page gave, from the newest row rather than failing', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Oksana grows chillies on her balcony. Oksana plays the cello.' });
    const all = await call('GET', '/v1/memories?limit=200', { space });
    const sources = await call('GET', '/v1/sources?limit=200', { space });
    // A keyed cursor names a key 2^40 below the largest safe integer: beyond any memory's 32-bit id.
    const farCursor = Number.MAX_SAFE_INTEGER - 2 ** 40;
    const memories = await call('GET', `/v1/memories?limit=200&cursor=${farCursor}`, { space });
    expect(memories.status).toBe(200);
    expect(memories.body.memories.map((memory: { id: number }) => memory.id)).toEqual(
      all.body.memories.map((memory: { id: number }) => memory.id),
    );
    const pastSources = await call('GET', `/v1/sources?limit=200&cursor=${farCursor}`, { space });
    expect(pastSources.status).toBe(200);
    expect(pastSources.body.sources.map((source: { id: string }) => source.id)).toEqual(
      sources.body.sources.map((source: { id: string }) => source.id),
    );
  });
});
