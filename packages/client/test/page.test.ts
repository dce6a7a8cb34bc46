import { describe, expect, it } from 'vitest';
import { NotFoundError, Page, PagePromise } from '../src/index.js';
import { source } from './helpers/fixtures.js';
import { errorBody, fakeClient, json } from './helpers/recording-fetch.js';

const sourcesPage = (ids: string[], total: number, next?: number) => ({
  sources: ids.map((id) => source({ id })),
  total,
  ...(next === undefined ? {} : { next }),
});

describe('pages', () => {
  it("is a Page you can await, with the answer's fields and items", async () => {
    const { engram } = fakeClient(() => json(sourcesPage(['src_a'], 1)));
    const listing = engram.sources.list();
    expect(listing).toBeInstanceOf(PagePromise);
    const page = await listing;
    expect(page).toBeInstanceOf(Page);
    expect(page.total).toBe(1);
    expect(page.items.map((item) => item.id)).toEqual(['src_a']);
    expect(page.hasNextPage()).toBe(false);
  });

  it('iterates page after page, following next with the same parameters', async () => {
    const pages: Record<string, object> = {
      0: sourcesPage(['src_a', 'src_b'], 5, 2),
      2: sourcesPage(['src_c', 'src_d'], 5, 4),
      4: sourcesPage(['src_e'], 5),
    };
    const { engram, calls } = fakeClient((request) => json(pages[request.url.searchParams.get('cursor')!]));
    const ids: string[] = [];
    for await (const item of engram.forSpace('u1').sources.list({ limit: 2 })) ids.push(item.id);
    expect(ids).toEqual(['src_a', 'src_b', 'src_c', 'src_d', 'src_e']);
    expect(calls.map((call) => call.url.search)).toEqual(['?limit=2&cursor=0', '?limit=2&cursor=2', '?limit=2&cursor=4']);
    expect(calls.every((call) => call.headers.get('x-memory-space') === 'u1')).toBe(true);
  });

  it('stops when a page is empty or next does not move forward, whatever the server says', async () => {
    const { engram, calls } = fakeClient((request) =>
      json(request.url.searchParams.get('cursor') === '0' ? sourcesPage(['src_a'], 9, 1) : sourcesPage([], 9, 1)),
    );
    const ids: string[] = [];
    for await (const item of engram.sources.list()) ids.push(item.id);
    expect(ids).toEqual(['src_a']);
    expect(calls).toHaveLength(2);
  });

  it('rejects when the first page fails, and throws from iteration when a later page fails', async () => {
    const failing = fakeClient(() => json(errorBody('not_found', 'nope'), 404));
    await expect(failing.engram.sources.list()).rejects.toBeInstanceOf(NotFoundError);
    expect(await failing.engram.sources.list().catch((error: unknown) => (error as NotFoundError).status)).toBe(404);

    const { engram } = fakeClient((request) =>
      request.url.searchParams.get('cursor') === '0' ? json(sourcesPage(['src_a'], 2, 1)) : json(errorBody('not_found', 'gone'), 404),
    );
    const ids: string[] = [];
    const iterate = async () => {
      for await (const item of engram.sources.list()) ids.push(item.id);
    };
    await expect(iterate()).rejects.toBeInstanceOf(NotFoundError);
    expect(ids).toEqual(['src_a']);
  });

  it("lets a per-call header replace the client's, whatever its case", async () => {
    const { engram, calls } = fakeClient(() => json(sourcesPage([], 0)), { space: 'u1' });
    await engram.sources.list({}, { headers: { 'x-memory-space': 'u2' } });
    expect(calls[0]!.headers.get('x-memory-space')).toBe('u2');
  });
});
