import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { engramKeys, engramProxy } from '../src/index.js';
import { freshSpace, listen, recordingClient, TEST_KEY } from './helpers/servers.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function proxyApp({ parseJson }: { parseJson: boolean }) {
  const { client } = recordingClient();
  const app = express();
  if (parseJson) app.use(express.json());
  app.use(
    '/engram',
    engramKeys({ client, spaceFor: (request) => request.get('x-user'), route: '/key', publicBaseURL: '/engram' }),
    engramProxy(),
  );
  app.get('/engram/other', (_request, response) => {
    response.json({ passedThrough: true });
  });
  const server = await listen(app);
  opened.push(server);
  return { ...server, client };
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe.each([{ parseJson: true }, { parseJson: false }])('engramProxy (express.json() before it: $parseJson)', ({ parseJson }) => {
  it("forwards /v1 calls to the signed-in user's own space with their key", async () => {
    const app = await proxyApp({ parseJson });
    const [ana, ben] = [freshSpace('ana'), freshSpace('ben')];

    const saved = await app.request('/engram/v1/memories', {
      ...json({ text: 'Ana grows tomatoes.' }),
      user: ana,
      headers: { 'content-type': 'application/json', cookie: 'session=secret' },
    });
    expect(saved.status).toBe(201);
    expect(saved.headers.get('x-request-id')).toMatch(/^req_/);
    const { source } = (await saved.json()) as { source: { id: string } };

    const read = await app.request(`/engram/v1/sources/${source.id}?wait=10`, { user: ana });
    expect(((await read.json()) as { source: { status: string } }).source.status).toBe('finished');
    const anaSearch = await app.request('/engram/v1/search', { ...json({ q: 'tomatoes' }), user: ana });
    const benSearch = await app.request('/engram/v1/search', { ...json({ q: 'tomatoes' }), user: ben });
    expect(((await anaSearch.json()) as { total: number }).total).toBe(1);
    expect(((await benSearch.json()) as { total: number }).total).toBe(0);
    expect((await app.client.sources.list({ space: ana })).total).toBe(1);
    expect((await app.client.sources.list({ space: ben })).total).toBe(0);
  });

  it('cannot be pointed at another space, and answers 401 without a user', async () => {
    const app = await proxyApp({ parseJson });
    const ana = freshSpace('ana');
    const elsewhere = await app.request('/engram/v1/sources', { user: ana, headers: { 'x-memory-space': freshSpace('ben') } });
    expect(elsewhere.status).toBe(403);
    const keys = await app.request('/engram/v1/keys', { ...json({ space: ana }), user: ana });
    expect(keys.status).toBe(403);
    const anonymous = await app.request('/engram/v1/sources');
    expect(anonymous.status).toBe(401);
    // The caller's own Authorization is replaced: an account key sent from outside buys nothing.
    const withAccountKey = await app.request('/engram/v1/sources', {
      user: ana,
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-memory-space': freshSpace('ben') },
    });
    expect(withAccountKey.status).toBe(403);
  });

  it('passes anything but /v1 through to the app', async () => {
    const app = await proxyApp({ parseJson });
    const answer = await app.request('/engram/other', { user: freshSpace() });
    expect(await answer.json()).toEqual({ passedThrough: true });
    const key = await app.request('/engram/key', { user: freshSpace() });
    expect(((await key.json()) as { base_url: string }).base_url).toBe('/engram');
  });
});
