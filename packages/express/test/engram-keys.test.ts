import { AuthenticationError, Engram, PermissionDeniedError } from '@engram/client';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngramKeyResponse, EngramKeysOptions } from '../src/index.js';
import { engramKeys } from '../src/index.js';
import { engramUrl, freshSpace, listen, recordingClient, TEST_KEY } from './helpers/servers.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

/** An app whose users sign in with an `x-user` header, with engramKeys() and a logout route. */
async function appWith(options: Partial<EngramKeysOptions> & Pick<EngramKeysOptions, 'client'>) {
  const app = express();
  app.use(
    engramKeys({
      spaceFor: (request) => request.get('x-user'),
      route: '/engram/key',
      ...options,
    }),
  );
  app.get('/whoami', (request, response) => {
    response.json({ space: request.engram?.space, starts: request.engram?.key.slice(0, 4) });
  });
  app.post('/logout', async (request, response) => {
    await request.engram!.revoke();
    response.sendStatus(204);
  });
  app.use((error: Error, _request: Request, response: Response, _next: NextFunction) => {
    response.status(500).json({ caught: error.name, message: error.message });
  });
  const server = await listen(app);
  opened.push(server);
  return server;
}

const keyOf = async (answer: globalThis.Response) => (await answer.json()) as EngramKeyResponse;
const limitedClient = (key: string) => new Engram({ apiKey: key, baseURL: engramUrl(), logger: null, maxRetries: 0 });

describe('engramKeys', () => {
  it('answers 401 to a request with no signed-in user, and makes no key', async () => {
    const { client, calls } = recordingClient();
    const app = await appWith({ client });
    for (const path of ['/engram/key', '/whoami']) {
      const answer = await app.request(path);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: { type: 'authentication_error', message: expect.stringMatching(/Sign in/) } });
    }
    expect(calls).toEqual([]);
  });

  it('lets an anonymous request through without req.engram when not required', async () => {
    const { client } = recordingClient();
    const app = await appWith({ client, required: false });
    expect(await (await app.request('/whoami')).json()).toEqual({});
  });

  it('hands the user a key to their own space only, never the account key', async () => {
    const { client } = recordingClient();
    const app = await appWith({ client, rpm: 30, ttl: 30 * 60_000 });
    const user = freshSpace('ana');
    const before = Date.now();

    const answer = await app.request('/engram/key', { user });
    const text = await answer.clone().text();
    const body = await keyOf(answer);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(text).not.toContain(TEST_KEY);
    expect(body).toEqual({ key: expect.stringMatching(/^egs_/), space: user, expires_at: expect.any(String), base_url: engramUrl() });
    const expires = Date.parse(body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1_000);

    const own = limitedClient(body.key);
    await own.memories.add('I keep bees.');
    expect((await own.sources.list()).total).toBe(1);
    await expect(own.memories.list({ space: freshSpace('other') } as never)).rejects.toBeInstanceOf(PermissionDeniedError);
    const { keys } = await client.keys.list({ space: user });
    expect(keys).toEqual([expect.objectContaining({ name: 'engram-express', space: user, rpm: 30 })]);
  });

  it('keeps one key per user across requests, and makes one only once for concurrent requests', async () => {
    const { client, count } = recordingClient();
    const app = await appWith({ client });
    const [ana, ben] = [freshSpace('ana'), freshSpace('ben')];

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => app.request('/engram/key', { user: index % 2 === 0 ? ana : ben }).then(keyOf)),
    );
    const later = await keyOf(await app.request('/engram/key', { user: ana }));

    expect(count('POST /v1/keys')).toBe(2);
    const anaKeys = new Set(answers.filter((answer) => answer.space === ana).map((answer) => answer.key));
    const benKeys = new Set(answers.filter((answer) => answer.space === ben).map((answer) => answer.key));
    expect(anaKeys.size).toBe(1);
    expect(benKeys.size).toBe(1);
    expect([...anaKeys][0]).not.toBe([...benKeys][0]);
    expect(later.key).toBe([...anaKeys][0]);
  });

  it('renews a key before it expires, and not before it is due', async () => {
    const { client, count } = recordingClient();
    let clock = Date.now();
    const app = await appWith({ client, ttl: 10 * 60_000, renewBefore: 2 * 60_000, now: () => clock });
    const user = freshSpace('cy');

    const first = await keyOf(await app.request('/engram/key', { user }));
    clock += 7 * 60_000; // 3 minutes left: not yet due
    const same = await keyOf(await app.request('/engram/key', { user }));
    clock += 60_000 + 1; // just under 2 minutes left: due
    const renewed = await keyOf(await app.request('/engram/key', { user }));

    expect(same.key).toBe(first.key);
    expect(renewed.key).not.toBe(first.key);
    expect(renewed.key).toMatch(/^egs_/);
    expect(Date.parse(renewed.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    expect(count('POST /v1/keys')).toBe(2);
    // The renewed key works.
    expect((await limitedClient(renewed.key).sources.list()).total).toBe(0);
  });

  it("revokes the user's keys on logout: they stop at once, and the next request gets a new one", async () => {
    const { client } = recordingClient();
    const app = await appWith({ client });
    const [user, other] = [freshSpace('dee'), freshSpace('eli')];
    const first = await keyOf(await app.request('/engram/key', { user }));
    const others = await keyOf(await app.request('/engram/key', { user: other }));

    expect((await app.request('/logout', { method: 'POST', user })).status).toBe(204);

    await expect(limitedClient(first.key).sources.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect((await client.keys.list({ space: user })).keys).toEqual([]);
    // Another user's key is untouched.
    expect((await limitedClient(others.key).sources.list()).total).toBe(0);
    const next = await keyOf(await app.request('/engram/key', { user }));
    expect(next.key).not.toBe(first.key);
    expect((await limitedClient(next.key).sources.list()).total).toBe(0);
  });

  it("passes the rejection of an async spaceFor and an unreachable Engram to Express's error handler", async () => {
    const { client } = recordingClient();
    const failing = await appWith({ client, spaceFor: async () => Promise.reject(new Error('session store down')) });
    const failed = await failing.request('/engram/key', { user: 'x' });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ caught: 'Error', message: 'session store down' });

    const unreachable = new Engram({ apiKey: TEST_KEY, baseURL: 'http://127.0.0.1:9', logger: null, maxRetries: 0 });
    const down = await appWith({ client: unreachable });
    const answer = await down.request('/engram/key', { user: freshSpace() });
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ caught: 'APIConnectionError' });
  });

  it("gives route handlers a client limited to the user's space", async () => {
    const { client } = recordingClient();
    const app = express();
    app.use(express.json());
    app.use(engramKeys({ client, spaceFor: (request) => request.get('x-user') }));
    app.post('/notes', async (request, response) => {
      const { source } = await request.engram!.client.memories.add({ text: request.body.text });
      response.status(201).json({ id: source.id });
    });
    const server = await listen(app);
    opened.push(server);
    const user = freshSpace('fin');

    const saved = await server.request('/notes', {
      method: 'POST',
      user,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Fin likes rowing.' }),
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    expect((await client.sources.get(id, { space: user })).source.id).toBe(id);
    expect((await client.sources.list({ space: freshSpace('nobody') })).total).toBe(0);
  });
});
