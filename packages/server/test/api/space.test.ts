import { describe, expect, it } from 'vitest';
import { call, expectError, freshSpace, saveAndLearn } from './helpers.js';

describe('space selection', () => {
  it('takes the space from the header or the field, and refuses both when they differ', async () => {
    const space = freshSpace();
    const byHeader = await call('POST', '/v1/memories', { body: { text: 'Noor keeps bees in her garden.' }, space });
    expect(byHeader.status).toBe(201);
    const same = await call('POST', '/v1/memories', { body: { text: 'Noor sells honey.', space }, space });
    expect(same.status).toBe(201);
    const other = freshSpace();
    const differ = expectError(
      await call('POST', '/v1/memories', { body: { text: 'Noor likes tea.', space: other }, space }),
      400,
      'invalid_request',
    );
    expect(differ.details.field).toBe('space');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(2);
    expect((await call('GET', '/v1/sources', { space: other })).body.total).toBe(0);
  });

  it('accepts a space name of 128 characters and refuses 129', async () => {
    const at = 'a'.repeat(120) + freshSpace().slice(-8);
    expect(at).toHaveLength(128);
    expect((await call('POST', '/v1/memories', { body: { text: 'Limits hold.', space: at } })).status).toBe(201);
    const below = at.slice(0, 127);
    expect((await call('GET', '/v1/sources', { space: below })).status).toBe(200);
    const over = `${at}x`;
    expectError(await call('POST', '/v1/memories', { body: { text: 'Too long a space.', space: over } }), 400, 'invalid_request');
    expectError(await call('GET', '/v1/sources', { space: over }), 400, 'invalid_request');
    expect((await call('GET', '/v1/sources', { space: over.slice(0, 128) })).body.total).toBe(1);
  });

  it("treats a blank space as the owner's own memory", async () => {
    const marker = `owner-marker-${freshSpace()}`;
    const saved = await call('POST', '/v1/memories', { body: { text: `The owner wrote ${marker}.`, space: '   ' } });
    expect(saved.status).toBe(201);
    const ownSources = await call('GET', '/v1/sources?limit=200');
    expect(ownSources.body.sources.map((source: { id: string }) => source.id)).toContain(saved.body.source.id);
    const blankHeader = await call('GET', `/v1/sources/${saved.body.source.id}`, { space: '' });
    expect(blankHeader.status).toBe(200);
  });

  it('keeps two spaces apart on every endpoint', async () => {
    const alice = freshSpace('alice');
    const bob = freshSpace('bob');
    const source = await saveAndLearn(alice, { text: 'Alice adopted a greyhound named Comet.' });
    const memories = (await call('GET', '/v1/memories', { space: alice })).body.memories;
    expect(memories.length).toBeGreaterThan(0);
    const memoryId = memories[0].id;

    // Bob sees none of it, by listing, by id, or by recall.
    expect((await call('GET', '/v1/memories', { space: bob })).body.total).toBe(0);
    expect((await call('GET', '/v1/sources', { space: bob })).body.total).toBe(0);
    expectError(await call('GET', `/v1/memories/${memoryId}`, { space: bob }), 404, 'not_found');
    expectError(await call('GET', `/v1/sources/${source.id}`, { space: bob }), 404, 'not_found');
    const search = await call('POST', '/v1/search', { body: { q: 'greyhound Comet', space: bob } });
    expect(search.body.memories).toEqual([]);
    const context = await call('POST', '/v1/context', { body: { question: 'What dog did Alice adopt?', space: bob } });
    expect(context.body.empty).toBe(true);
    const ask = await call('POST', '/v1/ask', { body: { question: 'What dog did Alice adopt?', space: bob } });
    expect(ask.body.answer).toBeNull();

    // Bob can neither change nor delete Alice's records.
    expectError(await call('PATCH', `/v1/memories/${memoryId}`, { body: { text: 'Alice has a cat.' }, space: bob }), 404, 'not_found');
    expectError(await call('DELETE', `/v1/memories/${memoryId}`, { space: bob }), 404, 'not_found');
    expectError(await call('DELETE', `/v1/sources/${source.id}`, { space: bob }), 404, 'not_found');

    // Alice's memory is untouched, and the owner's own memory does not hold it either.
    const after = await call('GET', `/v1/memories/${memoryId}`, { space: alice });
    expect(after.body.memory.status).toBe('current');
    const ownSearch = await call('POST', '/v1/search', { body: { q: `greyhound Comet` } });
    expect(ownSearch.body.memories.map((memory: { id: number }) => memory.id)).not.toContain(memoryId);
  });
});
