import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnServer } from '../setup/own-server.js';
import { call, expectError, freshSpace, saveAndLearn } from './helpers.js';

async function limitedKey(space: string, base?: string, key?: string) {
  const reply = await call('POST', '/v1/keys', { body: { space }, base, key });
  if (reply.status !== 201) throw new Error(`key not made: ${JSON.stringify(reply.body)}`);
  return reply.body as { id: number; key: string };
}

const idempotent = (key: string) => ({ 'Idempotency-Key': key });

describe('idempotent answers belong to the key that made them', () => {
  it("never replays another user's context block to a key limited to another space", async () => {
    const alice = freshSpace('alice');
    await saveAndLearn(alice, { text: 'Alice keeps her spare key under the blue flowerpot.' });
    const retry = randomUUID();
    const body = { question: 'Where is the spare key?', space: alice };
    const first = await call('POST', '/v1/context', { body, headers: idempotent(retry) });
    expect(first.status).toBe(200);
    expect(first.body.context).toContain('flowerpot');

    const bob = await limitedKey(freshSpace('bob'));
    const replayed = await call('POST', '/v1/context', { body, key: bob.key, headers: idempotent(retry) });
    expectError(replayed, 403, 'permission_denied');
    expect(JSON.stringify(replayed.body)).not.toContain('flowerpot');
    // Without naming a space, the same key reaches only bob's own (empty) memory: a fresh answer.
    const own = await call('POST', '/v1/context', { body: { question: body.question }, key: bob.key, headers: idempotent(retry) });
    expect(own.status).toBe(200);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    expect(own.body.empty).toBe(true);
  });

  it('answers 403 to a limited key replaying the making of a key, never the key', async () => {
    const alice = freshSpace('alice');
    const retry = randomUUID();
    const made = await call('POST', '/v1/keys', { body: { space: alice }, headers: idempotent(retry) });
    expect(made.status).toBe(201);
    const bob = await limitedKey(freshSpace('bob'));
    const replayed = await call('POST', '/v1/keys', { body: { space: alice }, key: bob.key, headers: idempotent(retry) });
    expectError(replayed, 403, 'permission_denied');
    expect(JSON.stringify(replayed.body)).not.toContain(made.body.key);
  });

  it('does not replay one save of a space to another key of the same space', async () => {
    const space = freshSpace();
    const first = await limitedKey(space);
    const second = await limitedKey(space);
    const retry = randomUUID();
    const saved = await call('POST', '/v1/memories', {
      body: { text: 'Mia learns the cello.' },
      key: first.key,
      headers: idempotent(retry),
    });
    expect(saved.status).toBe(201);
    const other = await call('POST', '/v1/memories', {
      body: { text: 'Mia learns the cello.' },
      key: second.key,
      headers: idempotent(retry),
    });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.source.id).not.toBe(saved.body.source.id);
    // Each key still gets its own answer back.
    const again = await call('POST', '/v1/memories', {
      body: { text: 'Mia learns the cello.' },
      key: first.key,
      headers: idempotent(retry),
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.source.id).toBe(saved.body.source.id);
  });
});

describe('what is kept of an idempotent answer, and for how long', () => {
  let own: Awaited<ReturnType<typeof startOwnServer>>;
  beforeAll(async () => {
    own = await startOwnServer({});
  });
  afterAll(() => own.close());
  const at = () => ({ base: own.server.url, key: own.key });
  const rows = async (key: string) =>
    (
      await sql<any>`select status, body::text as body, secret_withheld from idempotency_keys where key = ${key}`.execute(
        own.server.store.db,
      )
    ).rows;

  it("never stores a new key's text, and a replay cannot reveal it", async () => {
    const retry = randomUUID();
    const made = await call('POST', '/v1/keys', { ...at(), body: { space: 'alice' }, headers: idempotent(retry) });
    expect(made.status).toBe(201);
    const kept = await rows(retry);
    expect(kept).toHaveLength(1);
    expect(kept[0].body).not.toContain(made.body.key);
    expect(JSON.parse(kept[0].body)).not.toHaveProperty('key');
    expect(kept[0].secret_withheld).toBe(true);
    const replayed = await call('POST', '/v1/keys', { ...at(), body: { space: 'alice' }, headers: idempotent(retry) });
    const error = expectError(replayed, 409, 'conflict');
    expect(error.details).toEqual({ id: made.body.id, starts_with: made.body.starts_with });
    expect(replayed.headers.get('x-should-retry')).toBe('false');
    expect(JSON.stringify(replayed.body)).not.toContain(made.body.key);
    // One key was made, not two.
    const listed = await call('GET', '/v1/keys?space=alice', at());
    expect(listed.body.keys).toHaveLength(1);
  });

  it('keeps no answer of search, context or ask', async () => {
    for (const [path, body] of [
      ['/v1/search', { q: 'cello' }],
      ['/v1/context', { question: 'Who plays the cello?' }],
      ['/v1/ask', { question: 'Who plays the cello?' }],
    ] as const) {
      const retry = randomUUID();
      expect((await call('POST', path, { ...at(), body, headers: idempotent(retry) })).status).toBe(200);
      expect(await rows(retry)).toEqual([]);
    }
  });

  it('runs a request again once its stored answer is 24 hours old', async () => {
    const retry = randomUUID();
    const body = { text: 'Jonah sails on Sundays.' };
    const first = await call('POST', '/v1/memories', { ...at(), body, headers: idempotent(retry) });
    const replay = await call('POST', '/v1/memories', { ...at(), body, headers: idempotent(retry) });
    expect(replay.body.source.id).toBe(first.body.source.id);
    await sql`update idempotency_keys set created_at = now() - interval '24 hours 1 minute' where key = ${retry}`.execute(
      own.server.store.db,
    );
    const later = await call('POST', '/v1/memories', { ...at(), body, headers: idempotent(retry) });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.source.id).not.toBe(first.body.source.id);
    expect(await rows(retry)).toHaveLength(1);
  });

  it('tells two POSTs apart by their query string', async () => {
    const retry = randomUUID();
    const body = { text: 'Ayla repairs clocks.' };
    expect((await call('POST', '/v1/memories?space=ayla', { ...at(), body, headers: idempotent(retry) })).status).toBe(201);
    const other = await call('POST', '/v1/memories?space=zed', { ...at(), body, headers: idempotent(retry) });
    const error = expectError(other, 400, 'invalid_request');
    expect(error.details.field).toBe('Idempotency-Key');
  });

  it('replays a kept error with the request id of the call that replays it, as its header says', async () => {
    const retry = randomUUID();
    const refused = { text: '', space: freshSpace('empty') };
    const first = await call('POST', '/v1/memories', { body: refused, headers: idempotent(retry) });
    expectError(first, 400, 'invalid_request');
    const again = await call('POST', '/v1/memories', { body: refused, headers: idempotent(retry) });
    const error = expectError(again, 400, 'invalid_request');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(error.message).toBe(first.body.error.message);
    expect(error.request_id).toBe(again.headers.get('x-request-id'));
    expect(error.request_id).not.toBe(first.body.error.request_id);
  });
});
