import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountKey } from '../../src/store/account-repository.js';
import { setExtra } from '../../src/store/usage-repository.js';
import { countTextTokens } from '../../src/text/token-count.js';
import { startOwnServer } from '../setup/own-server.js';
import { call, expectError, freshSpace } from './helpers.js';

// A server of its own: a clock the test moves, and plans small enough to cross in a few saves.
let clock = new Date();
let own: Awaited<ReturnType<typeof startOwnServer>>;
const api = (method: string, path: string, options: Parameters<typeof call>[2] = {}) =>
  call(method, path, { key: own.key, base: own.server.url, ...options });

beforeAll(async () => {
  own = await startOwnServer(
    {
      ENGRAM_PLAN_FREE_TOKENS: '500',
      ENGRAM_PLAN_FREE_ANSWERS: '3',
      ENGRAM_PLAN_PRO_TOKENS: '1000',
      ENGRAM_PLAN_PRO_ANSWERS: '5',
      ENGRAM_ACCOUNT_RPM: '400',
    },
    { now: () => clock },
  );
});

afterAll(() => own.close());

/** A note of about `tokens` tokens, each sentence a fact. */
function noteOf(tokens: number, topic: string): string {
  const sentences: string[] = [];
  let index = 0;
  while (countTextTokens(sentences.join(' ')) < tokens) {
    sentences.push(`Vera planted ${topic} tree number ${index} in the orchard.`);
    index += 1;
  }
  return sentences.join(' ');
}

async function usage(space?: string) {
  const reply = await api('GET', '/v1/usage', space === undefined ? {} : { space });
  expect(reply.status).toBe(200);
  return reply.body;
}

async function save(space: string, text: string) {
  return api('POST', '/v1/memories', { body: { text, space } });
}

async function waitFor(space: string, id: string, status: string) {
  let last: unknown = null;
  // Up to about 20 s: a waiting source is queued by the roll-over, then learned.
  for (const started = Date.now(); Date.now() - started < 20_000; ) {
    const reply = await api('GET', `/v1/sources/${id}?wait=1`, { space });
    if (reply.body.source.status === status) return reply.body.source;
    last = reply.body.source;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`source ${id} never became ${status}: ${JSON.stringify(last)}`);
}

describe('usage', () => {
  it('walks ok → near → over → paused, keeps saves searchable while over, and learns them when the period rolls', async () => {
    const space = freshSpace('metered');
    const start = await usage();
    expect(start).toMatchObject({ plan: 'free', trial: true, included_tokens: 1000, included_answers: 5, state: 'ok', learned_tokens: 0 });
    expect(start.period_start).toBe(new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), 1)).toISOString());

    // A short save still counts 100 tokens.
    const tiny = await save(space, 'Vera owns a ladder.');
    await waitFor(space, tiny.body.source.id, 'finished');
    expect((await usage()).learned_tokens).toBe(100);

    // To 80 %: near.
    const big = await save(space, noteOf(700, 'an apple'));
    const bigSource = await waitFor(space, big.body.source.id, 'finished');
    const near = await usage();
    expect(near.learned_tokens).toBe(100 + bigSource.tokens);
    expect(near.state).toBe('near');

    // Past the plan: over.
    const last = await save(space, noteOf(300, 'a pear'));
    await waitFor(space, last.body.source.id, 'finished');
    const over = await usage();
    expect(over.state).toBe('over');

    // A save while over is kept, waits, and is searchable at once.
    const waiting = await save(space, 'Vera bought a turquoise wheelbarrow for the orchard.');
    expect(waiting.status).toBe(201);
    expect(waiting.body.source.status).toBe('waiting');
    expect(waiting.headers.get('x-memory-usage-state')).toBe('over');
    const found = await api('POST', '/v1/search', { body: { q: 'turquoise wheelbarrow', space } });
    expect(found.body.memories[0].text).toMatch(/turquoise wheelbarrow/);
    const waitingTokens = (await usage()).waiting_tokens;
    expect(waitingTokens).toBe(Math.max(100, countTextTokens('Vera bought a turquoise wheelbarrow for the orchard.')));
    expect((await usage(space)).waiting_tokens).toBe(waitingTokens);
    expect((await usage(freshSpace())).waiting_tokens).toBe(0);

    // A month's allowance waiting: paused, and a refused save stores nothing.
    const pile = await save(space, noteOf(1000, 'a plum'));
    expect(pile.body.source.status).toBe('waiting');
    expect((await usage()).state).toBe('paused');
    const before = (await api('GET', '/v1/sources', { space })).body.total;
    expectError(await save(space, 'Vera sold the ladder.'), 402, 'usage_paused');
    const batch = await api('POST', '/v1/memories/batch', { body: { items: [{ text: 'Vera sold the ladder.' }], space } });
    expect(batch.status).toBe(202);
    expect(batch.body.results[0].error.type).toBe('usage_paused');
    expect((await api('GET', '/v1/sources', { space })).body.total).toBe(before);

    // Saving, search and briefings are never counted; context and ask are answers.
    const answersBefore = (await usage()).answers;
    await api('POST', '/v1/search', { body: { q: 'orchard', space } });
    await api('POST', '/v1/context', { body: { question: 'What did Vera plant?', space } });
    await api('POST', '/v1/ask', { body: { question: 'What did Vera plant?', space } });
    expect((await usage()).answers).toBe(answersBefore + 2);

    // The next period: what waited is learned, and counted in the new month.
    clock = new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth() + 1, 1, 0, 0, 5));
    const learned = await waitFor(space, waiting.body.source.id, 'finished');
    expect(learned.memories).toBeGreaterThan(0);
    await waitFor(space, pile.body.source.id, 'finished');
    const rolled = await usage();
    expect(rolled.period_start).toBe(new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), 1)).toISOString());
    expect(rolled.waiting_tokens).toBe(0);
    expect(rolled.answers).toBe(0);
    expect(rolled.learned_tokens).toBeGreaterThanOrEqual(1000);
    // The raw passages gave way to learned memories.
    const memories = (await api('GET', '/v1/memories?limit=200', { space })).body.memories;
    expect(memories.filter((memory: { text: string }) => /turquoise wheelbarrow/.test(memory.text))).toHaveLength(1);
  });

  it('learns past the plan with extra learning on, accruing cost up to the cap', async () => {
    const space = freshSpace('extra');
    // Still over from the previous period's spill: make sure of it.
    await sql`update usage_counters set learned_tokens = learned_tokens + 2000`.execute(own.server.store.db);
    expect((await usage()).state).toMatch(/over|paused/);
    await setExtra(own.server.store.db, 1, true, 1);
    const extra = await usage();
    expect(extra.state).toBe('extra');
    expect(extra.extra_on).toBe(true);
    const saved = await save(space, 'Vera hired a beekeeper named Otto.');
    expect(saved.body.source.status).toBe('queued');
    await waitFor(space, saved.body.source.id, 'finished');
    const after = await usage();
    expect(after.extra_used_usd).toBeGreaterThan(0);
    expect(after.extra_used_usd).toBeCloseTo(((after.learned_tokens - after.included_tokens) / 1_000_000) * 15, 3);
    // Reaching the cap stops extra learning: over again.
    await sql`update usage_counters set learned_tokens = learned_tokens + 100000`.execute(own.server.store.db);
    const capped = await usage();
    expect(capped.extra_used_usd).toBe(1);
    expect(capped.state).not.toBe('extra');
    await setExtra(own.server.store.db, 1, false);
  });

  it('ends the Pro trial after 14 days, once', async () => {
    clock = new Date(clock.getTime() + 40 * 24 * 3600 * 1000);
    const after = await usage();
    expect(after).toMatchObject({ plan: 'free', trial: false, included_tokens: 500, included_answers: 3 });
  });

  it('stops a key when its expiry passes', async () => {
    const space = freshSpace('expiring');
    const day = new Date(clock.getTime() + 24 * 3600 * 1000).toISOString().slice(0, 10);
    const made = await api('POST', '/v1/keys', { body: { space, expires_at: day } });
    expect(made.status).toBe(201);
    expect((await call('GET', '/v1/memories', { key: made.body.key, base: own.server.url })).status).toBe(200);
    clock = new Date(Date.parse(`${day}T23:59:59Z`));
    expect((await call('GET', '/v1/memories', { key: made.body.key, base: own.server.url })).status).toBe(200);
    clock = new Date(Date.parse(`${day}T23:59:59Z`) + 1000);
    expectError(await call('GET', '/v1/memories', { key: made.body.key, base: own.server.url }), 401, 'authentication_error');
  });

  it('holds account keys to the configured requests a minute', async () => {
    // A fresh account key has a count of its own; a run that straddles a clock minute is run again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const minute = Math.floor(Date.now() / 60_000);
      const { key } = await createAccountKey(own.server.store.db, 1, { name: `rate-${attempt}` });
      const statuses: number[] = [];
      for (let index = 0; index < 401; index += 1) {
        const reply = await call('GET', '/v1/sources', { key, base: own.server.url });
        expect(reply.headers.get('x-ratelimit-limit')).toBe('400');
        statuses.push(reply.status);
      }
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      expect(statuses.filter((status) => status === 200)).toHaveLength(400);
      expect(statuses[400]).toBe(429);
      return;
    }
    throw new Error('every attempt straddled a minute');
  });
});
