import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnServer } from '../setup/own-server.js';
import { call } from './helpers.js';

// Questions about a time relative to when they are asked ("last week"), on a server whose clock
// says Sunday 22 November 2026.
const NOW = new Date('2026-11-22T15:00:00Z');
let own: Awaited<ReturnType<typeof startOwnServer>>;
const space = 'lena';

const ask = (path: string, body: Record<string, unknown>) =>
  call(path === '/v1/search' ? 'POST' : 'POST', path, { body: { ...body, space }, key: own.key, base: own.server.url });

beforeAll(async () => {
  own = await startOwnServer({}, { now: () => NOW });
  const save = async (content: string, at: string) => {
    const saved = await call('POST', '/v1/memories', {
      body: { space, messages: [{ role: 'user', name: 'Lena', content, at }] },
      key: own.key,
      base: own.server.url,
    });
    expect(saved.status).toBe(201);
    const waited = await call('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=${space}`, { key: own.key, base: own.server.url });
    expect(waited.body.source.status).toBe('finished');
  };
  await save('I baked a plum cake for the neighbours.', '2026-11-11T18:00:00Z'); // last week
  await save('I baked rye bread with my sister.', '2026-10-03T10:00:00Z'); // last month
  await save('I baked a lemon tart for the team.', '2026-11-21T12:00:00Z'); // yesterday
  await save('I ran a half marathon in Porto.', '2025-04-12T09:00:00Z'); // last year
  await save('I made a pear crumble.', '2026-09-14T16:00:00Z');
});

afterAll(async () => {
  await own?.close();
});

describe('a question about a time relative to now', () => {
  it('prefers what was said in that time, and does not match the words "last" and "week"', async () => {
    const lastWeek = await ask('/v1/search', { q: 'What did Lena bake last week?' });
    expect(lastWeek.body.memories[0].text).toMatch(/plum cake/);
    const yesterday = await ask('/v1/search', { q: 'What did Lena bake yesterday?' });
    expect(yesterday.body.memories[0].text).toMatch(/lemon tart/);
    const lastMonth = await ask('/v1/search', { q: 'What did Lena bake last month?' });
    expect(lastMonth.body.memories[0].text).toMatch(/rye bread/);
  });

  it('answers a question that is only a time with what was said in it', async () => {
    const lastYear = await ask('/v1/context', { question: 'What did I do last year?' });
    expect(lastYear.body.empty).toBe(false);
    expect(lastYear.body.memories.map((memory: { text: string }) => memory.text)).toEqual(['Lena ran a half marathon in Porto.']);
    const lastWeek = await ask('/v1/search', { q: 'What happened last week?' });
    expect(lastWeek.body.memories.map((memory: { text: string }) => memory.text)).toEqual([expect.stringMatching(/plum cake/)]);
    const nextMonth = await ask('/v1/context', { question: 'What happens next month?' });
    expect(nextMonth.body.empty).toBe(true);
  });
});

describe('a question that names a time with its year', () => {
  it('prefers what was said in that day, month or range, though the memory does not say when', async () => {
    const october = await ask('/v1/search', { q: 'What did Lena bake in October 2026?' });
    expect(october.body.memories[0].text).toMatch(/rye bread/);
    const day = await ask('/v1/search', { q: 'What did Lena bake on 11 November 2026?' });
    expect(day.body.memories[0].text).toMatch(/plum cake/);
    const range = await ask('/v1/search', { q: 'What did Lena bake between 20 and 22 November 2026?' });
    expect(range.body.memories[0].text).toMatch(/lemon tart/);
  });

  it('brings in what was said then even when it shares no word with the question', async () => {
    // No name in the question: nothing but the span brings the crumble in.
    const september = await ask('/v1/search', { q: 'What was baked on 14 September 2026?' });
    expect(september.body.memories.map((memory: { text: string }) => memory.text)).toContain('Lena made a pear crumble.');
  });
});
