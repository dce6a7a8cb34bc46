import { describe, expect, it } from 'vitest';
import { allMemories, call, expectError, freshSpace, saveAndLearn } from './helpers.js';

describe('sources', () => {
  it('lists sources newest first with total and next', async () => {
    const space = freshSpace();
    const ids: string[] = [];
    for (const text of ['Ravi plays chess.', 'Ravi owns a boat.', 'Ravi speaks Hindi.']) {
      ids.push((await call('POST', '/v1/memories', { body: { text, space } })).body.source.id);
    }
    const page = await call('GET', '/v1/sources?limit=2', { space });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.sources.map((source: { id: string }) => source.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.next).toBeGreaterThan(2);
    const rest = await call('GET', `/v1/sources?limit=2&cursor=${page.body.next}`, { space });
    expect(rest.body.sources.map((source: { id: string }) => source.id)).toEqual([ids[0]]);
    expect(rest.body.next).toBeUndefined();
    // A cursor counting rows, as cursors were before listings paged by key, still works.
    const counted = await call('GET', `/v1/sources?limit=2&cursor=2`, { space });
    expect(counted.body.sources.map((source: { id: string }) => source.id)).toEqual([ids[0]]);
    for (const limit of [0, 201]) expectError(await call('GET', `/v1/sources?limit=${limit}`, { space }), 400, 'invalid_request');
    expect((await call('GET', '/v1/sources?limit=200', { space })).status).toBe(200);
  });

  it('waits 0 to 60 seconds for learning, and refuses more', async () => {
    const space = freshSpace();
    const saved = await call('POST', '/v1/memories', { body: { text: 'Sana grows tomatoes.', space } });
    const id = saved.body.source.id;
    expect((await call('GET', `/v1/sources/${id}?wait=0`, { space })).status).toBe(200);
    const waited = await call('GET', `/v1/sources/${id}?wait=60`, { space });
    expect(waited.body.source.status).toBe('finished');
    expect((await call('GET', `/v1/sources/${id}?wait=59`, { space })).status).toBe(200);
    expectError(await call('GET', `/v1/sources/${id}?wait=61`, { space }), 400, 'invalid_request');
    expectError(await call('GET', `/v1/sources/${id}?wait=-1`, { space }), 400, 'invalid_request');
    expectError(await call('GET', '/v1/sources/src_nothing', { space }), 404, 'not_found');
  });

  it('deletes a source with the memories only it taught, keeping those another source also taught', async () => {
    const space = freshSpace();
    const first = await saveAndLearn(space, { text: 'Mia drives a green van. Mia studies law in Dublin.' });
    const second = await saveAndLearn(space, { text: 'Mia studies law in Dublin.' });
    const before = await allMemories(space);
    expect(before.filter((memory) => /studies law/.test(memory.text))).toHaveLength(1);
    const shared = before.find((memory) => /studies law/.test(memory.text))!;
    const sharedDetail = await call('GET', `/v1/memories/${shared.id}`, { space });
    expect(sharedDetail.body.history.map((event: { event: string }) => event.event)).toEqual(['learned', 'linked']);

    const deleted = await call('DELETE', `/v1/sources/${first.id}`, { space });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: first.id, deleted: true, memories_deleted: before.length - 1 });
    const after = await allMemories(space);
    expect(after.map((memory) => memory.id)).toEqual([shared.id]);
    const moved = await call('GET', `/v1/memories/${shared.id}`, { space });
    expect(moved.body.memory.source.id).toBe(second.id);
    expectError(await call('GET', `/v1/sources/${first.id}`, { space }), 404, 'not_found');
    expectError(await call('DELETE', `/v1/sources/${first.id}`, { space }), 404, 'not_found');
  });

  it('learning the same text twice links the fact instead of storing it twice', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Zoe keeps two cats.' });
    await saveAndLearn(space, { text: 'Zoe keeps two cats.' });
    const memories = await allMemories(space);
    expect(memories.filter((memory) => /two cats/.test(memory.text))).toHaveLength(1);
  });
});
