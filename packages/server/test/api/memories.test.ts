import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { allMemories, call, expectError, freshSpace, saveAndLearn } from './helpers.js';

const conversation = [
  { role: 'system', content: 'You are a helpful assistant. The user lives on the Moon.' },
  { role: 'user', name: 'Priya', content: 'I love hiking in the Alps.', at: '2026-11-22T10:00:00Z' },
  { role: 'assistant', content: 'That sounds wonderful!' },
  {
    role: 'user',
    name: 'Priya',
    content: [{ type: 'text', text: 'My sister Maria is a nurse in Lisbon.' }],
    at: '2026-11-22T10:01:00Z',
  },
];

describe('saving', () => {
  it('stores a note as a queued source and learns its facts in the background', async () => {
    const space = freshSpace();
    const saved = await call('POST', '/v1/memories', {
      body: { text: 'Priya works as a marine biologist in Cork.', title: 'About Priya', space },
    });
    expect(saved.status).toBe(201);
    const { source } = saved.body;
    expect(source.id).toMatch(/^src_[0-9a-z]{16}$/);
    expect(source).toMatchObject({ kind: 'note', title: 'About Priya', url: null, path: null, error: null });
    expect(['queued', 'learning', 'finished']).toContain(source.status);
    const waited = await call('GET', `/v1/sources/${source.id}?wait=20`, { space });
    expect(waited.body.source.status).toBe('finished');
    expect(waited.body.source.memories).toBeGreaterThan(0);
    expect(waited.body.source.learned_at).not.toBeNull();
    expect(waited.body.source.tokens).toBe(countTokens('Priya works as a marine biologist in Cork.'));
    const memories = await allMemories(space);
    expect(memories.some((memory) => /marine biologist/.test(memory.text))).toBe(true);
  });

  it('learns a conversation: speakers in the third person, system and assistant skipped', async () => {
    const space = freshSpace();
    const source = await saveAndLearn(space, { messages: conversation });
    expect(source.kind).toBe('conversation');
    const texts = (await allMemories(space)).map((memory) => memory.text);
    expect(texts.some((text) => /^Priya loves hiking/.test(text))).toBe(true);
    expect(texts.some((text) => /Priya's sister Maria is a nurse/.test(text))).toBe(true);
    expect(texts.join(' ')).not.toMatch(/Moon|helpful assistant|wonderful/);
    expect(texts.join(' ')).not.toMatch(/\bI\b|\bmy\b/i);
  });

  it('makes relative dates absolute against the message time', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [{ role: 'user', name: 'Tom', content: 'I am flying to Tokyo tomorrow.', at: '2026-11-22T09:00:00Z' }],
    });
    const [memory] = await allMemories(space);
    expect(memory!.text).toMatch(/23 November 2026/);
    expect(memory!.kind).toBe('plan');
  });

  it('accepts each limit at its edge and refuses one past it, storing nothing', async () => {
    const space = freshSpace();
    const ok = async (body: object) => expect((await call('POST', '/v1/memories', { body: { ...body, space } })).status).toBe(201);
    const refused = async (body: object, field: string) => {
      const error = expectError(await call('POST', '/v1/memories', { body: { ...body, space } }), 400, 'invalid_request');
      expect(error.details.field).toBe(field);
    };
    await ok({ text: 'x' });
    await refused({ text: '' }, 'text');
    await ok({ text: 'y'.repeat(2_000_000) });
    await ok({ text: 'z'.repeat(1_999_999) });
    await refused({ text: 'w'.repeat(2_000_001) }, 'text');
    await ok({ text: 'Titled.', title: 't'.repeat(300) });
    await ok({ text: 'Titled.', title: 't'.repeat(299) });
    await refused({ text: 'Titled.', title: 't'.repeat(301) }, 'title');
    const message = { role: 'user', content: 'I like tea.' };
    await ok({ messages: Array(500).fill(message) });
    await ok({ messages: Array(499).fill(message) });
    await refused({ messages: Array(501).fill(message) }, 'messages');
    await refused({ messages: [] }, 'messages');
    await refused({ messages: [{ role: 'robot', content: 'beep' }] }, 'messages.0.role');
    await refused({}, 'text');
    await refused({ text: 'a', messages: [message] }, 'messages');
    const sources = await call('GET', '/v1/sources', { space });
    expect(sources.body.total).toBe(7);
  });
});

describe('listing memories', () => {
  it('lists newest first with kind filter, counts, total and next', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      messages: [
        { role: 'user', name: 'Ana', content: 'I love jazz music.', at: '2026-11-01T10:00:00Z' },
        { role: 'user', name: 'Ana', content: 'My brother Luis is a pilot.', at: '2026-11-01T10:01:00Z' },
        { role: 'user', name: 'Ana', content: 'I will visit Rome next month.', at: '2026-11-01T10:02:00Z' },
        { role: 'user', name: 'Ana', content: 'I bought a red bicycle.', at: '2026-11-01T10:03:00Z' },
      ],
    });
    const all = await call('GET', '/v1/memories', { space });
    expect(all.status).toBe(200);
    const { counts } = all.body;
    expect(counts.all).toBe(counts.people + counts.plan + counts.pref + counts.detail);
    expect(counts.all).toBe(all.body.total);
    expect(counts.pref).toBeGreaterThanOrEqual(1);
    expect(counts.plan).toBeGreaterThanOrEqual(1);
    expect(all.body.next).toBeUndefined();
    const ids = all.body.memories.map((memory: { id: number }) => memory.id);
    expect(ids).toEqual([...ids].sort((left, right) => right - left));

    const prefs = await call('GET', '/v1/memories?kind=pref', { space });
    expect(prefs.body.memories.every((memory: { kind: string }) => memory.kind === 'pref')).toBe(true);
    expect(prefs.body.total).toBe(counts.pref);

    const first = await call('GET', '/v1/memories?limit=1', { space });
    expect(first.body.memories).toHaveLength(1);
    expect(first.body.next).toBeGreaterThan(0);
    const second = await call('GET', `/v1/memories?limit=1&cursor=${first.body.next}`, { space });
    expect(second.body.memories[0].id).toBe(ids[1]);
  });

  it('bounds limit to 1..200 and cursor to 0 and up', async () => {
    const space = freshSpace();
    for (const limit of [1, 200]) expect((await call('GET', `/v1/memories?limit=${limit}`, { space })).status).toBe(200);
    for (const limit of [0, 201]) expectError(await call('GET', `/v1/memories?limit=${limit}`, { space }), 400, 'invalid_request');
    expectError(await call('GET', '/v1/memories?cursor=-1', { space }), 400, 'invalid_request');
    expect((await call('GET', '/v1/memories?cursor=0', { space })).status).toBe(200);
  });
});

describe('one memory', () => {
  it('gives the memory, the sentence it came from and its history', async () => {
    const space = freshSpace();
    const source = await saveAndLearn(space, {
      messages: [
        { role: 'user', name: 'Ben', content: 'Hello there! I teach chemistry at a school in Leeds.', at: '2026-10-02T08:00:00Z' },
      ],
    });
    const [memory] = await allMemories(space);
    const detail = await call('GET', `/v1/memories/${memory!.id}`, { space });
    expect(detail.status).toBe(200);
    expect(detail.body.memory).toMatchObject({
      id: memory!.id,
      status: 'current',
      date: '2026-10-02',
      source: { id: source.id, kind: 'conversation' },
    });
    expect(detail.body.sentence.message_index).toBe(0);
    const text = 'Hello there! I teach chemistry at a school in Leeds.';
    expect(text.slice(detail.body.sentence.start, detail.body.sentence.end)).toBe(detail.body.sentence.text);
    expect(detail.body.sentence.text).toMatch(/I teach chemistry/);
    expect(detail.body.history[0]).toMatchObject({ event: 'learned', source_id: source.id });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await call('GET', '/v1/memories/2147483000'), 404, 'not_found');
    expectError(await call('GET', '/v1/memories/abc'), 400, 'invalid_request');
    expectError(await call('GET', '/v1/memories/0'), 400, 'invalid_request');
  });

  it('corrects a memory: marked wrong, never recalled again, and what is right is learned', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { messages: [{ role: 'user', name: 'Omar', content: 'I live in Lisbon.', at: '2026-09-01T12:00:00Z' }] });
    const [wrong] = await allMemories(space);
    expect(wrong!.text).toMatch(/Lisbon/);

    const corrected = await call('PATCH', `/v1/memories/${wrong!.id}`, { body: { text: 'Omar lives in Porto.' }, space });
    expect(corrected.status).toBe(200);
    expect(corrected.body.memory).toMatchObject({ id: wrong!.id, status: 'wrong' });
    expect(corrected.body.source.id).toMatch(/^src_/);
    const learned = await call('GET', `/v1/sources/${corrected.body.source.id}?wait=20`, { space });
    expect(learned.body.source.status).toBe('finished');

    const texts = (await allMemories(space)).map((memory) => memory.text);
    expect(texts.some((text) => /Porto/.test(text))).toBe(true);
    expect(texts.some((text) => /Lisbon/.test(text))).toBe(false);
    const search = await call('POST', '/v1/search', { body: { q: 'Lisbon', space } });
    expect(search.body.memories).toEqual([]);
    const context = await call('POST', '/v1/context', { body: { question: 'Where does Omar live?', space } });
    expect(context.body.context).not.toMatch(/Lisbon/);
    expect(context.body.context).toMatch(/Porto/);
    const ask = await call('POST', '/v1/ask', { body: { question: 'Where does Omar live?', space } });
    expect(ask.body.answer).toMatch(/Porto/);
    expect(ask.body.answer).not.toMatch(/Lisbon/);

    const history = await call('GET', `/v1/memories/${wrong!.id}`, { space });
    expect(history.body.memory.status).toBe('wrong');
    expect(history.body.history.map((event: { event: string }) => event.event)).toEqual(['learned', 'corrected', 'replaced']);

    // The same wrong fact said again is not learned again.
    await saveAndLearn(space, { messages: [{ role: 'user', name: 'Omar', content: 'I live in Lisbon.', at: '2026-09-02T12:00:00Z' }] });
    expect((await call('POST', '/v1/search', { body: { q: 'Lisbon', space } })).body.memories).toEqual([]);
    expectError(await call('PATCH', `/v1/memories/${wrong!.id}`, { body: { text: 'Omar lives in Faro.' }, space }), 409, 'conflict');
  });

  it('refuses a correction outside 1..2,000 characters and changes nothing', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Keiko plays the cello.' });
    const [memory] = await allMemories(space);
    expectError(await call('PATCH', `/v1/memories/${memory!.id}`, { body: { text: '' }, space }), 400, 'invalid_request');
    expectError(await call('PATCH', `/v1/memories/${memory!.id}`, { body: { text: 'k'.repeat(2_001) }, space }), 400, 'invalid_request');
    const after = await call('GET', `/v1/memories/${memory!.id}`, { space });
    expect(after.body.memory.status).toBe('current');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(1);
    const atLimit = await call('PATCH', `/v1/memories/${memory!.id}`, {
      body: { text: `Keiko plays the viola${'.'.repeat(1_979)}` },
      space,
    });
    expect(atLimit.status).toBe(200);
  });

  it('forgets a memory for good', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Lena collects vintage stamps.' });
    const [memory] = await allMemories(space);
    const deleted = await call('DELETE', `/v1/memories/${memory!.id}`, { space });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: memory!.id, deleted: true });
    expectError(await call('GET', `/v1/memories/${memory!.id}`, { space }), 404, 'not_found');
    expect((await call('POST', '/v1/search', { body: { q: 'stamps', space } })).body.memories).toEqual([]);
    expectError(await call('DELETE', `/v1/memories/${memory!.id}`, { space }), 404, 'not_found');
  });
});

describe('batch', () => {
  it('saves items in order, each on its own, and reports failures per item', async () => {
    const space = freshSpace();
    const other = freshSpace();
    const reply = await call('POST', '/v1/memories/batch', {
      body: {
        space,
        items: [
          { text: 'Iris runs marathons.' },
          { text: '' },
          { messages: [{ role: 'user', name: 'Iris', content: 'I adore sushi.' }] },
          { text: 'Iris has a twin.', space: other },
          { text: 'x', url: 'https://example.com' },
        ],
      },
    });
    expect(reply.status).toBe(202);
    expect(reply.body.added).toBe(3);
    expect(reply.body.failed).toBe(2);
    expect(reply.body.results.map((row: { index: number; ok: boolean }) => [row.index, row.ok])).toEqual([
      [0, true],
      [1, false],
      [2, true],
      [3, true],
      [4, false],
    ]);
    expect(reply.body.results[1].error.type).toBe('invalid_request');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(2);
    expect((await call('GET', '/v1/sources', { space: other })).body.total).toBe(1);
  });

  it('takes 1 to 100 items', async () => {
    const space = freshSpace();
    const items = (count: number) => Array.from({ length: count }, (_, index) => ({ text: `Fact number ${index}.` }));
    expect((await call('POST', '/v1/memories/batch', { body: { space, items: items(1) } })).status).toBe(202);
    expect((await call('POST', '/v1/memories/batch', { body: { space, items: items(100) } })).status).toBe(202);
    expect((await call('POST', '/v1/memories/batch', { body: { space, items: items(99) } })).status).toBe(202);
    expectError(await call('POST', '/v1/memories/batch', { body: { space, items: items(101) } }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/memories/batch', { body: { space, items: [] } }), 400, 'invalid_request');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(200);
  });

  it('refuses a batch whose space field and header differ, storing nothing', async () => {
    const space = freshSpace();
    const reply = await call('POST', '/v1/memories/batch', { body: { space: freshSpace(), items: [{ text: 'No.' }] }, space });
    expectError(reply, 400, 'invalid_request');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(0);
  });
});

describe('idempotency', () => {
  it('replays the first answer to a retried save and stores one source', async () => {
    const space = freshSpace();
    const headers = { 'Idempotency-Key': `idem-${space}` };
    const first = await call('POST', '/v1/memories', { body: { text: 'Once only.', space }, headers });
    const second = await call('POST', '/v1/memories', { body: { text: 'Once only.', space }, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.source.id).toBe(first.body.source.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(1);
    const reused = await call('POST', '/v1/memories', { body: { text: 'Something else.', space }, headers });
    expectError(reused, 400, 'invalid_request');
  });

  it('replays a retried correction instead of refusing it as already corrected', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Pia owns a red kayak.' });
    const [memory] = await allMemories(space);
    const headers = { 'Idempotency-Key': `fix-${space}` };
    const body = { text: 'Pia owns a blue kayak.', space };
    const first = await call('PATCH', `/v1/memories/${memory!.id}`, { body, headers });
    const retried = await call('PATCH', `/v1/memories/${memory!.id}`, { body, headers });
    expect(first.status).toBe(200);
    expect(retried.status).toBe(200);
    expect(retried.body.source.id).toBe(first.body.source.id);
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(2);
    // Without the key, correcting again is a conflict no retry can mend, and the server says so.
    const again = await call('PATCH', `/v1/memories/${memory!.id}`, { body, space });
    expectError(again, 409, 'conflict');
    expect(again.headers.get('x-should-retry')).toBe('false');
  });
});
