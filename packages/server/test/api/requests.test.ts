import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createAccountKey } from '../../src/store/account-repository.js';
import { startOwnServer } from '../setup/own-server.js';
import { call, expectError, freshSpace } from './helpers.js';

// A server of its own, so that a second account can be made in its store.
let own: Awaited<ReturnType<typeof startOwnServer>>;
let otherKey = '';
const api = (method: string, path: string, options: Parameters<typeof call>[2] = {}) =>
  call(method, path, { key: own.key, base: own.server.url, ...options });

beforeAll(async () => {
  own = await startOwnServer({});
  const other = await createAccount(own.server.store.db, `other-${Date.now()}`);
  otherKey = (await createAccountKey(own.server.store.db, other.id, { name: 'other owner' })).key;
});
afterAll(() => own.close());

async function findRequest(requestId: string, key = own.key) {
  const found = await api('GET', `/v1/requests?request_id=${requestId}`, { key });
  expect(found.status).toBe(200);
  return found.body.requests as Record<string, unknown>[];
}

describe('the request log', () => {
  it('finds a call by its request id, with its route pattern, status, space, key prefix and duration', async () => {
    const space = freshSpace();
    const saved = await api('POST', '/v1/memories', { body: { text: 'Mira keeps bees on her roof in Lyon.', space } });
    expect(saved.status).toBe(201);
    const requestId = saved.headers.get('x-request-id')!;
    const [row, ...rest] = await findRequest(requestId);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      method: 'POST',
      route: '/v1/memories',
      status: 201,
      space,
      key_prefix: own.key.slice(0, 8),
      request_id: requestId,
      error_type: null,
    });
    expect(typeof row!.duration_ms).toBe('number');
    expect(Date.now() - Date.parse(row!.at as string)).toBeLessThan(60_000);

    // A path with an id is logged as its pattern, and a failure with its error type.
    const missing = await api('GET', '/v1/memories/999999', { space });
    expect(missing.status).toBe(404);
    const [failed] = await findRequest(missing.headers.get('x-request-id')!);
    expect(failed).toMatchObject({ method: 'GET', route: '/v1/memories/:memory_id', status: 404, error_type: 'not_found', space });
  });

  it('never keeps a body or a key', async () => {
    const space = freshSpace();
    const secret = 'The vault code of Orla is seven-two-nine-nine.';
    const saved = await api('POST', '/v1/memories', { body: { text: secret, space } });
    const made = await api('POST', '/v1/keys', { body: { space, name: 'phone' } });
    expect(made.status).toBe(201);
    await api('GET', '/v1/memories', { key: made.body.key });
    const all = await api('GET', '/v1/requests?limit=200');
    const text = JSON.stringify(all.body);
    expect(text).toContain(saved.headers.get('x-request-id'));
    expect(text).not.toContain('vault code');
    expect(text).not.toContain(own.key);
    expect(text).not.toContain(made.body.key);
    // The limited key's call is there, under its prefix only.
    const limited = all.body.requests.find((row: { key_prefix: string }) => row.key_prefix === made.body.key.slice(0, 8));
    expect(limited).toMatchObject({ route: '/v1/memories', status: 200, space });
  });

  it('refuses a limited key (403) and a bad filter (400)', async () => {
    const space = freshSpace();
    const made = await api('POST', '/v1/keys', { body: { space } });
    expectError(await api('GET', '/v1/requests', { key: made.body.key }), 403, 'permission_denied');
    expectError(await api('GET', '/v1/usage/daily', { key: made.body.key }), 403, 'permission_denied');
    expectError(await api('GET', '/v1/requests?status=abc'), 400, 'invalid_request');
    expectError(await api('GET', '/v1/requests?limit=0'), 400, 'invalid_request');
    expectError(await api('GET', '/v1/requests?cursor=-4'), 400, 'invalid_request');
    for (const filter of ['space', 'route', 'request_id']) {
      expectError(await api('GET', `/v1/requests?${filter}=a%00b`), 400, 'invalid_request');
    }
  });

  it('filters by status, class, space and route, newest first, a page at a time', async () => {
    const space = freshSpace('filtered');
    await api('POST', '/v1/memories', { body: { text: 'Tomas builds canoes from cedar.', space } });
    await api('GET', '/v1/memories', { space });
    await api('GET', '/v1/memories/424242', { space });
    await api('PATCH', '/v1/memories/424242', { space, body: { text: 'x' } });
    await api('GET', '/v1/sources', { space });

    const inSpace = (await api('GET', `/v1/requests?space=${space}`)).body.requests as { id: number; route: string; status: number }[];
    expect(inSpace.map((row) => row.route)).toEqual([
      '/v1/sources',
      '/v1/memories/:memory_id',
      '/v1/memories/:memory_id',
      '/v1/memories',
      '/v1/memories',
    ]);
    const ids = inSpace.map((row) => row.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const clientErrors = (await api('GET', `/v1/requests?space=${space}&status=4xx`)).body.requests as { status: number }[];
    expect(clientErrors.map((row) => row.status)).toEqual([404, 404]);
    const created = (await api('GET', `/v1/requests?space=${space}&status=201`)).body.requests as { route: string }[];
    expect(created.map((row) => row.route)).toEqual(['/v1/memories']);
    const byRoute = (await api('GET', `/v1/requests?space=${space}&route=${encodeURIComponent('/v1/memories/:memory_id')}`)).body.requests;
    expect(byRoute.map((row: { method: string }) => row.method)).toEqual(['PATCH', 'GET']);

    const first = await api('GET', `/v1/requests?space=${space}&limit=2`);
    expect(first.body.requests.map((row: { id: number }) => row.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next).toBe(ids[1]);
    const second = await api('GET', `/v1/requests?space=${space}&limit=2&cursor=${first.body.next}`);
    expect(second.body.requests.map((row: { id: number }) => row.id)).toEqual(ids.slice(2, 4));
    const last = await api('GET', `/v1/requests?space=${space}&limit=2&cursor=${second.body.next}`);
    expect(last.body.requests.map((row: { id: number }) => row.id)).toEqual(ids.slice(4));
    expect(last.body.next).toBeUndefined();
  });

  it('keeps each account to its own calls', async () => {
    const space = freshSpace('mine');
    const mine = await api('GET', '/v1/memories', { space });
    const theirs = await api('GET', '/v1/memories', { space, key: otherKey });
    expect(theirs.status).toBe(200);
    expect(await findRequest(mine.headers.get('x-request-id')!, otherKey)).toEqual([]);
    expect(await findRequest(theirs.headers.get('x-request-id')!)).toEqual([]);
    expect(await findRequest(theirs.headers.get('x-request-id')!, otherKey)).toHaveLength(1);
    const otherLog = (await api('GET', '/v1/requests?limit=200', { key: otherKey })).body.requests as { key_prefix: string }[];
    expect(otherLog.every((row) => row.key_prefix === otherKey.slice(0, 8))).toBe(true);
    expect((await api('GET', `/v1/requests?space=${space}`, { key: otherKey })).body.requests).toHaveLength(1);
  });

  it('counts learned tokens and answers per day for the chart', async () => {
    const space = freshSpace('daily');
    const saved = await api('POST', '/v1/memories', { body: { text: 'Ines plays the oboe in a village band.', space } });
    const learned = await api('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=${space}`);
    expect(learned.body.source.status).toBe('finished');
    const before = (await api('GET', '/v1/usage/daily?days=3')).body.days as { day: string; learned_tokens: number; answers: number }[];
    expect(before.map((row) => row.day)).toEqual(
      [2, 1, 0].map((back) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10)),
    );
    expect(before[2]!.learned_tokens).toBeGreaterThanOrEqual(learned.body.source.tokens);
    const asked = await api('POST', '/v1/ask', { body: { question: 'What does Ines play?', space } });
    expect(asked.status).toBe(200);
    const after = (await api('GET', '/v1/usage/daily?days=3')).body.days as { answers: number }[];
    expect(after[2]!.answers).toBe(before[2]!.answers + 1);
    expect((await api('GET', '/v1/usage/daily')).body.days).toHaveLength(30);
    expectError(await api('GET', '/v1/usage/daily?days=0'), 400, 'invalid_request');
  });
});

describe('engram requests', () => {
  // The built command, as an operator runs it (npm run build first).
  const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'requests', ...args], {
      env: { ...process.env, ENGRAM_BASE_URL: own.server.url, ENGRAM_API_KEY: own.key },
    });

  it('finds a call from the shell by its request id, through the running server', async () => {
    const space = freshSpace('shell');
    const missing = await api('GET', '/v1/sources/src_nosuchsource0000', { space });
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get('x-request-id')!;
    const { stdout } = await run(['--id', requestId]);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/v1/sources/:source_id');
    expect(lines[0]).toContain('404');
    expect(lines[0]).toContain('not_found');
    expect(lines[0]).toContain(space);
    expect(lines[0]!.endsWith(requestId)).toBe(true);
    expect(stdout).not.toContain(own.key);
    const byStatus = await run(['--space', space, '--status', '4xx']);
    expect(byStatus.stdout.trim().split('\n')).toHaveLength(1);
    await expect(run(['--id', 'req_none'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no call req_none') });
  }, 120_000);
});

describe('account keys over the API', () => {
  it('makes a key shown once, lists keys without their text, and revokes one', async () => {
    const made = await api('POST', '/v1/account-keys', { body: { name: 'deploy bot' } });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^egk_[0-9A-Za-z]{40}$/);
    expect(made.body).toMatchObject({ name: 'deploy bot', starts_with: made.body.key.slice(0, 8), revoked_at: null, current: false });
    expect((await api('GET', '/v1/usage', { key: made.body.key })).status).toBe(200);

    const listed = await api('GET', '/v1/account-keys');
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
    expect(JSON.stringify(listed.body)).not.toContain(own.key);
    const ids = listed.body.keys.map((key: { id: number }) => key.id);
    expect(ids).toContain(made.body.id);
    expect(listed.body.keys.filter((key: { current: boolean }) => key.current)).toHaveLength(1);

    const revoked = await api('DELETE', `/v1/account-keys/${made.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: made.body.id, revoked: true });
    expectError(await api('GET', '/v1/usage', { key: made.body.key }), 401, 'authentication_error');
    const after = (await api('GET', '/v1/account-keys')).body.keys.find((key: { id: number }) => key.id === made.body.id);
    expect(after.revoked_at).not.toBeNull();
  });

  it('refuses to revoke the key making the call (409), and keeps it working', async () => {
    const listed = await api('GET', '/v1/account-keys');
    const current = listed.body.keys.find((key: { current: boolean }) => key.current);
    const error = expectError(await api('DELETE', `/v1/account-keys/${current.id}`), 409, 'conflict');
    expect(error.message).toMatch(/making the call/);
    expect((await api('GET', '/v1/account-keys')).status).toBe(200);
  });

  it("refuses limited keys, other accounts' keys, limited key ids and bad names", async () => {
    const space = freshSpace();
    const limited = await api('POST', '/v1/keys', { body: { space } });
    expectError(await api('GET', '/v1/account-keys', { key: limited.body.key }), 403, 'permission_denied');
    expectError(await api('POST', '/v1/account-keys', { key: limited.body.key, body: {} }), 403, 'permission_denied');
    expectError(await api('DELETE', `/v1/account-keys/${limited.body.id}`), 404, 'not_found');
    expect((await api('GET', '/v1/memories', { key: limited.body.key })).status).toBe(200);

    const theirs = await api('POST', '/v1/account-keys', { key: otherKey, body: { name: 'theirs' } });
    expect(theirs.status).toBe(201);
    expectError(await api('DELETE', `/v1/account-keys/${theirs.body.id}`), 404, 'not_found');
    expect((await api('GET', '/v1/usage', { key: theirs.body.key })).status).toBe(200);
    const mine = (await api('GET', '/v1/account-keys')).body.keys.map((key: { id: number }) => key.id);
    expect(mine).not.toContain(theirs.body.id);

    const count = (await api('GET', '/v1/account-keys')).body.keys.length;
    expectError(await api('POST', '/v1/account-keys', { body: { name: 'n'.repeat(101) } }), 400, 'invalid_request');
    // A NUL cannot be stored as text: refused, naming the field, not a 500 from the store.
    const nul = expectError(await api('POST', '/v1/account-keys', { body: { name: 'deploy\u0000bot' } }), 400, 'invalid_request');
    expect(nul.message).toMatch(/name/);
    expectError(await api('DELETE', '/v1/account-keys/zero'), 400, 'invalid_request');
    expect((await api('GET', '/v1/account-keys')).body.keys.length).toBe(count);
  });
});
