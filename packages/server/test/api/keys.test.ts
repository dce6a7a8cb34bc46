import { describe, expect, it } from 'vitest';
import { allMemories, call, expectError, freshSpace, saveAndLearn } from './helpers.js';

async function limitedKey(space: string, body: Record<string, unknown> = {}) {
  const reply = await call('POST', '/v1/keys', { body: { space, name: 'phone', ...body } });
  if (reply.status !== 201) throw new Error(`key not made: ${JSON.stringify(reply.body)}`);
  return reply.body as { id: number; key: string; space: string; starts_with: string };
}

describe('keys limited to one space', () => {
  it('makes a key shown once, kept as a hash, listed without its text', async () => {
    const space = freshSpace();
    const made = await call('POST', '/v1/keys', { body: { space, name: 'Alice phone', note: 'iOS app' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Alice phone', space, rpm: 600, expires_at: null, last_used_at: null, note: 'iOS app' });
    expect(made.body.key).toMatch(/^egs_[0-9A-Za-z]{40}$/);
    expect(made.body.starts_with).toBe(made.body.key.slice(0, 8));
    const listed = await call('GET', `/v1/keys?space=${space}`);
    expect(listed.body.keys).toHaveLength(1);
    expect(listed.body.keys[0]).toMatchObject({ id: made.body.id, starts_with: made.body.starts_with });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
    const all = await call('GET', '/v1/keys');
    expect(all.body.keys.map((key: { id: number }) => key.id)).toContain(made.body.id);
  });

  it('bounds name, rpm and expires_at, and refuses a missing or blank space', async () => {
    const space = freshSpace();
    const refused = async (body: Record<string, unknown>, field: string, options: { space?: string } = {}) => {
      const error = expectError(await call('POST', '/v1/keys', { body, ...options }), 400, 'invalid_request');
      expect(error.details.field).toBe(field);
    };
    const made = async (body: Record<string, unknown>) => (await call('POST', '/v1/keys', { body: { space, ...body } })).body;
    expect((await made({ name: 'n'.repeat(100) })).name).toHaveLength(100);
    expect((await made({ name: 'n'.repeat(99) })).name).toHaveLength(99);
    await refused({ space, name: 'n'.repeat(101) }, 'name');
    await refused({ space, rpm: 0 }, 'rpm');
    expect((await made({ rpm: 1 })).rpm).toBe(1);
    expect((await made({ rpm: 2 })).rpm).toBe(2);
    expect((await made({ rpm: 599 })).rpm).toBe(599);
    expect((await made({ rpm: 600 })).rpm).toBe(600);
    await refused({ space, rpm: 601 }, 'rpm');
    await refused({ space, rpm: 2.5 }, 'rpm');
    expect((await made({ expires_at: '2099-12-31' })).expires_at).toBe('2100-01-01T00:00:00.000Z');
    expect((await made({ expires_at: '2099-06-01T12:30:00+02:00' })).expires_at).toBe('2099-06-01T10:30:00.000Z');
    expect((await made({ expires_at: '2099-06-01T12:30:00' })).expires_at).toBe('2099-06-01T12:30:00.000Z');
    await refused({ space, expires_at: '2020-01-01' }, 'expires_at');
    await refused({ space, expires_at: '2099-02-30' }, 'expires_at');
    await refused({ space, expires_at: 'next tuesday' }, 'expires_at');
    await refused({ space, expires_at: `2099-06-01T12:30:00.${'1'.repeat(20)}Z` }, 'expires_at');
    await refused({ name: 'no space' }, 'space');
    await refused({ space: '  ' }, 'space');
    await refused({}, 'space', { space: '' });
    const listed = await call('GET', `/v1/keys?space=${space}`);
    expect(listed.body.keys).toHaveLength(9);
  });

  it('reaches its own space without naming it, and nothing else (403, nothing leaked or stored)', async () => {
    const space = freshSpace('limited');
    const other = freshSpace('other');
    const otherSource = await saveAndLearn(other, { text: 'Other user hides a secret recipe for plum cake.' });
    const [foreign] = await allMemories(other);
    const { key } = await limitedKey(space);

    const own = await call('POST', '/v1/memories', { body: { text: 'Limited user likes kites.' }, key });
    expect(own.status).toBe(201);
    expect((await call('GET', `/v1/sources/${own.body.source.id}?wait=20`, { key })).body.source.status).toBe('finished');
    expect((await call('GET', '/v1/memories', { key })).body.total).toBeGreaterThan(0);
    expect((await call('GET', '/v1/memories', { key, space })).status).toBe(200);

    const outside: [string, string, unknown?][] = [
      ['GET', `/v1/memories?space=${other}`],
      ['GET', `/v1/memories/${foreign!.id}?space=${other}`],
      ['PATCH', `/v1/memories/${foreign!.id}`, { text: 'Changed.', space: other }],
      ['DELETE', `/v1/memories/${foreign!.id}?space=${other}`],
      ['POST', '/v1/memories', { text: 'Planted.', space: other }],
      ['POST', '/v1/memories/batch', { items: [{ text: 'Planted.' }], space: other }],
      ['GET', `/v1/sources?space=${other}`],
      ['GET', `/v1/sources/${otherSource.id}?space=${other}`],
      ['DELETE', `/v1/sources/${otherSource.id}?space=${other}`],
      ['POST', '/v1/search', { q: 'plum cake', space: other }],
      ['POST', '/v1/context', { question: 'plum cake?', space: other }],
      ['POST', '/v1/ask', { question: 'plum cake?', space: other }],
      ['GET', '/v1/memories?space='],
      ['POST', '/v1/keys', { space }],
      ['GET', '/v1/keys'],
      ['DELETE', '/v1/keys/1'],
      ['GET', '/v1/spaces'],
      ['DELETE', `/v1/space?space=${other}`],
      ['DELETE', `/v1/space?space=${space}`],
    ];
    for (const [method, path, body] of outside) {
      const reply = await call(method, path, { key, body });
      const error = expectError(reply, 403, 'permission_denied');
      expect(JSON.stringify(reply.body)).not.toMatch(/plum|secret/);
      expect(error.message).not.toContain(key);
    }
    // By header too.
    expectError(await call('GET', '/v1/memories', { key, space: other }), 403, 'permission_denied');
    expectError(await call('GET', '/v1/usage', { key, space: other }), 403, 'permission_denied');
    expectError(await call('GET', `/v1/sources/${otherSource.id}`, { key }), 404, 'not_found');
    // Its own space holds no trace of the other's memory.
    expectError(await call('GET', `/v1/memories/${foreign!.id}`, { key }), 404, 'not_found');
    const search = await call('POST', '/v1/search', { body: { q: 'plum cake recipe' }, key });
    expect(search.body.memories).toEqual([]);
    // Nothing was planted or changed in the other space.
    expect((await call('GET', '/v1/sources', { space: other })).body.total).toBe(1);
    expect((await call('GET', `/v1/memories/${foreign!.id}`, { space: other })).body.memory.status).toBe('current');
  });

  it('stops at once when revoked, and records when it was last used', async () => {
    const space = freshSpace();
    const made = await limitedKey(space);
    expect((await call('GET', '/v1/memories', { key: made.key })).status).toBe(200);
    const listed = await call('GET', `/v1/keys?space=${space}`);
    expect(listed.body.keys[0].last_used_at).not.toBeNull();
    const revoked = await call('DELETE', `/v1/keys/${made.id}`);
    expect(revoked.body).toEqual({ id: made.id, space, revoked: true });
    expectError(await call('GET', '/v1/memories', { key: made.key }), 401, 'authentication_error');
    expect((await call('GET', `/v1/keys?space=${space}`)).body.keys).toEqual([]);
    expectError(await call('DELETE', '/v1/keys/2147483000'), 404, 'not_found');
    expectError(await call('DELETE', `/v1/keys/${made.id}?space=${freshSpace()}`), 404, 'not_found');
  });

  it('holds a key to its requests a minute: 429 with Retry-After past it', async () => {
    // A run that straddles a clock minute starts a new count; it is run again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const minute = Math.floor(Date.now() / 60_000);
      const space = freshSpace();
      const { key } = await limitedKey(space, { rpm: 3 });
      const replies = [];
      for (let index = 0; index < 4; index += 1) replies.push(await call('GET', '/v1/sources', { key }));
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
      expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('3');
      expect(replies[1]!.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(replies[2]!.headers.get('x-ratelimit-remaining')).toBe('0');
      expectError(replies[3]!, 429, 'rate_limited');
      const retryAfter = Number(replies[3]!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another key is not held by this one's count.
      expect((await call('GET', '/v1/sources', { space })).status).toBe(200);
      return;
    }
    throw new Error('every attempt straddled a minute');
  });

  it('puts the usage figures on every answer', async () => {
    const reply = await call('GET', '/v1/memories', { space: freshSpace() });
    for (const name of ['Plan', 'State', 'Learned-Tokens', 'Included-Tokens', 'Waiting-Tokens', 'Answers', 'Included-Answers']) {
      expect(reply.headers.get(`x-memory-usage-${name.toLowerCase()}`)).not.toBeNull();
    }
    expect(reply.headers.get('x-memory-usage-plan')).toBe('free');
    expect(Number(reply.headers.get('x-memory-usage-included-tokens'))).toBeGreaterThan(0);
    const refused = await call('GET', '/v1/memories?limit=0');
    expect(refused.headers.get('x-memory-usage-state')).not.toBeNull();
  });
});

describe('spaces', () => {
  it('lists spaces with their counts', async () => {
    const space = freshSpace('listed');
    await saveAndLearn(space, { text: 'Quinn paints murals. Quinn keeps a parrot.' });
    const spaces = [];
    let cursor = 0;
    for (;;) {
      const page = await call('GET', `/v1/spaces?limit=200&cursor=${cursor}`);
      expect(page.status).toBe(200);
      spaces.push(...page.body.spaces);
      if (page.body.next === undefined) break;
      cursor = page.body.next;
    }
    const row = spaces.find((entry: { name: string }) => entry.name === space);
    expect(row).toMatchObject({ name: space, sources: 1 });
    expect(row.memories).toBeGreaterThanOrEqual(2);
    expect(spaces.map((entry: { name: string }) => entry.name)).not.toContain('');
    expectError(await call('GET', '/v1/spaces?limit=201'), 400, 'invalid_request');
  });

  it('erases a space: its records, its keys, nothing of other spaces', async () => {
    const space = freshSpace('erased');
    const kept = freshSpace('kept');
    const source = await saveAndLearn(space, { text: 'Rosa restores old bicycles.' });
    await saveAndLearn(kept, { text: 'Sam restores old bicycles too.' });
    const [memory] = await allMemories(space);
    const { key } = await limitedKey(space);
    const erased = await call('DELETE', `/v1/space?space=${space}`);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ space, erased: true });
    expectError(await call('GET', '/v1/memories', { key }), 401, 'authentication_error');
    expect((await call('GET', '/v1/memories', { space })).body.total).toBe(0);
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(0);
    expectError(await call('GET', `/v1/memories/${memory!.id}`, { space }), 404, 'not_found');
    expectError(await call('GET', `/v1/sources/${source.id}`, { space }), 404, 'not_found');
    expect((await call('POST', '/v1/search', { body: { q: 'bicycles', space } })).body.memories).toEqual([]);
    expect((await call('GET', '/v1/memories', { space: kept })).body.total).toBeGreaterThan(0);
    expect((await call('GET', `/v1/keys?space=${space}`)).body.keys).toEqual([]);
  });

  it("refuses to erase without a space named, or with a blank one, unless the owner's memory is asked for", async () => {
    expectError(await call('DELETE', '/v1/space'), 400, 'invalid_request');
    expectError(await call('DELETE', '/v1/space?space=%20'), 400, 'invalid_request');
    expectError(await call('DELETE', '/v1/space', { space: '' }), 400, 'invalid_request');
  });
});
