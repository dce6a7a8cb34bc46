import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server.js';
import { startServer } from '../../src/server.js';
import type { Store } from '../../src/store/database.js';
import { openStore } from '../../src/store/database.js';
import { buildPdf } from '../fixtures/documents.js';
import { TEST_KEY } from '../setup/start.js';
import { allMemories, call, expectError, freshSpace } from './helpers.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const pages = new Map<string, Handler>();
const hits: string[] = [];
let site: Server;
let port: number;
let base: string;

const article = `<!doctype html><html><head><title>Ines Ortega, beekeeper</title></head><body>
<header><nav><a href="/">Home</a> <a href="/about">About us</a> Rosa Lindqvist runs our newsletter from Malmo.</nav></header>
<main><article>
<h1>A week with Ines</h1>
<p>Ines Ortega lives in Valencia and teaches chemistry at a high school near the port. Ines Ortega has taught there for twelve years.</p>
<p>Ines Ortega keeps bees on the roof of her building, and she sells the honey at the Saturday market in Ruzafa.</p>
<h2>Her plans</h2>
<p>Ines Ortega plans to walk the Camino de Santiago next spring with her brother Pablo.</p>
</article></main>
<footer><p>Copyright 2024 The Valencia Post. Our editor Tom Becker sails on Lake Geneva every summer.</p></footer>
</body></html>`;

const serve =
  (type: string, body: string | Buffer): Handler =>
  (_request, response) => {
    response.writeHead(200, { 'Content-Type': type }).end(body);
  };

beforeAll(async () => {
  site = createServer((request, response) => {
    hits.push(request.url ?? '');
    const handler = pages.get(request.url ?? '');
    if (handler) return handler(request, response);
    response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  pages.set('/article', serve('text/html; charset=utf-8', article));
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

/** Waits until a source is finished or failed, on the shared server or another one. */
async function settled(space: string, id: string, at?: string) {
  const path = `/v1/sources/${id}?wait=20&space=${encodeURIComponent(space)}`;
  for (let round = 0; round < 3; round++) {
    const reply = at ? await callAt(at, 'GET', path) : await call('GET', path);
    expect(reply.status).toBe(200);
    if (reply.body.source.status === 'finished' || reply.body.source.status === 'failed') return reply.body.source;
  }
  throw new Error(`source ${id} did not settle`);
}

async function savePage(space: string, body: Record<string, unknown>, at?: string) {
  const saved = at
    ? await callAt(at, 'POST', '/v1/memories', { ...body, space })
    : await call('POST', '/v1/memories', { body: { ...body, space } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return saved.body.source;
}

/** A call to a server started by this file. */
async function callAt(at: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${at}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('saving a web page by its url', () => {
  it("learns the article's facts, not the navigation's or the footer's, and keeps the page title", async () => {
    const space = freshSpace();
    const saved = await savePage(space, { url: `${base}/article` });
    expect(saved).toMatchObject({ kind: 'page', url: `${base}/article`, title: null, status: expect.stringMatching(/queued|learning/) });
    const source = await settled(space, saved.id);
    expect(source).toMatchObject({ status: 'finished', error: null, kind: 'page', title: expect.stringMatching(/Ines/) });
    expect(source.memories).toBeGreaterThanOrEqual(3);
    const texts = (await allMemories(space)).map((memory) => memory.text).join('\n');
    expect(texts).toMatch(/Valencia/);
    expect(texts).toMatch(/bees|honey/);
    expect(texts).toMatch(/Camino de Santiago/);
    expect(texts).not.toMatch(/Tom Becker|Lake Geneva|Rosa Lindqvist|Malmo|About us/);
    const found = await call('POST', '/v1/search', { body: { q: 'Where does Ines Ortega live?', space } });
    expect(found.body.memories[0].text).toMatch(/Valencia/);
    expect(found.body.memories[0].source).toMatchObject({ id: saved.id, kind: 'page' });
  });

  it('keeps a title the caller gave', async () => {
    const space = freshSpace();
    const saved = await savePage(space, { url: `${base}/article`, title: 'My bee article' });
    expect((await settled(space, saved.id)).title).toBe('My bee article');
  });

  it('follows a chain of redirects to the page', async () => {
    pages.set('/old', (_request, response) => response.writeHead(301, { Location: '/older' }).end());
    pages.set('/older', (_request, response) => response.writeHead(302, { Location: `${base}/moved` }).end());
    pages.set('/moved', (_request, response) => response.writeHead(308, { Location: '/article' }).end());
    const space = freshSpace();
    const source = await settled(space, (await savePage(space, { url: `${base}/old` })).id);
    expect(source.status).toBe('finished');
    expect((await allMemories(space)).some((memory) => /Valencia/.test(memory.text))).toBe(true);
  });

  it('fails the source as unreadable at once on a 404, too many redirects, a type it does not read, or an empty page', async () => {
    for (let hop = 0; hop < 7; hop++)
      pages.set(`/loop${hop}`, (_request, response) => response.writeHead(302, { Location: `/loop${hop + 1}` }).end());
    pages.set('/logo.png', serve('image/png', Buffer.from('89504e470d0a1a0a', 'hex')));
    pages.set('/empty', serve('text/html', '<html><head><title>Nothing</title></head><body><script>1</script></body></html>'));
    const cases: [string, RegExp][] = [
      ['/gone', /404/],
      ['/loop0', /redirected more than 5 times/],
      ['/logo.png', /image\/png/],
      ['/empty', /no readable text/],
    ];
    for (const [path, message] of cases) {
      const space = freshSpace();
      const before = hits.filter((hit) => hit === path).length;
      const source = await settled(space, (await savePage(space, { url: `${base}${path}` })).id);
      expect(source.status, path).toBe('failed');
      expect(source.error, path).toEqual({ type: 'unreadable', message: expect.stringMatching(message) });
      // Read once: a permanent failure is not tried again.
      expect(hits.filter((hit) => hit === path).length - before, path).toBe(1);
      expect(await allMemories(space)).toEqual([]);
    }
  });

  it('refuses a page over the size limit (10 MB by default), reading no further', async () => {
    let sent = 0;
    pages.set('/huge', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(256 * 1024, 'Ines Ortega likes honey. ');
      const more = () => {
        while (sent < 12 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      response.on('close', () => response.destroy());
      more();
    });
    const space = freshSpace();
    const source = await settled(space, (await savePage(space, { url: `${base}/huge` })).id);
    expect(source.status).toBe('failed');
    expect(source.error).toEqual({ type: 'unreadable', message: `The page is over ${10 * 1024 * 1024} bytes` });
  });

  it('reads markdown and plain-text pages, and a PDF address as a PDF', async () => {
    pages.set(
      '/notes.md',
      serve('text/markdown; charset=utf-8', '# Notes\n\n**Kofi Mensah** repairs old radios in [Kumasi](https://example.com).\n'),
    );
    pages.set('/plain', serve('text/plain', 'Kofi Mensah drinks hibiscus tea every evening.\n'));
    pages.set(
      '/report.pdf',
      serve('application/pdf', buildPdf([['Kofi Mensah studied physics in Cape Coast.']], { title: 'Kofi report' })),
    );
    const space = freshSpace();
    const markdown = await settled(space, (await savePage(space, { url: `${base}/notes.md` })).id);
    const plain = await settled(space, (await savePage(space, { url: `${base}/plain` })).id);
    const pdf = await settled(space, (await savePage(space, { url: `${base}/report.pdf` })).id);
    expect(markdown).toMatchObject({ status: 'finished', kind: 'page', title: 'Notes' });
    expect(plain).toMatchObject({ status: 'finished', kind: 'page', title: null });
    expect(pdf).toMatchObject({ status: 'finished', kind: 'pdf', title: 'Kofi report', url: `${base}/report.pdf` });
    const texts = (await allMemories(space)).map((memory) => memory.text).join('\n');
    expect(texts).toMatch(/radios/);
    expect(texts).not.toMatch(/\*\*|\]\(/);
    expect(texts).toMatch(/hibiscus/);
    expect(texts).toMatch(/physics/);
  });

  it('takes urls in a batch, and refuses an address that is not http or https before storing anything', async () => {
    const space = freshSpace();
    const batch = await call('POST', '/v1/memories/batch', {
      body: { space, items: [{ url: `${base}/article` }, { url: 'ftp://example.com/file' }, { url: 'abc' }] },
    });
    expect(batch.status).toBe(202);
    expect(batch.body.added).toBe(1);
    expect(batch.body.results[0]).toMatchObject({ ok: true, source: { kind: 'page' } });
    expect(batch.body.results[1]).toMatchObject({ ok: false, error: { type: 'invalid_request', details: { field: 'url' } } });
    expect(batch.body.results[2]).toMatchObject({ ok: false, error: { type: 'invalid_request' } });
    const refused = expectError(
      await call('POST', '/v1/memories', { body: { url: 'javascript:alert(1)', space } }),
      400,
      'invalid_request',
    );
    expect(refused.details.field).toBe('url');
    expectError(await call('POST', '/v1/memories', { body: { url: `${base}/${'x'.repeat(2_000)}`, space } }), 400, 'invalid_request');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(1);
  });
});

describe('other servers', () => {
  let store: Store;
  beforeAll(async () => {
    // One embedded store for the servers below, started one after the other (each with its own worker).
    store = await openStore(loadConfig({ ENGRAM_DATA_DIR: 'memory://' }));
  });
  afterAll(async () => {
    await store?.close();
  });

  const start = (env: Record<string, string>) =>
    startServer(
      loadConfig({ ENGRAM_PORT: '0', ENGRAM_BOOTSTRAP_KEY: TEST_KEY, ENGRAM_POLL_MS: '50', ENGRAM_DATA_DIR: 'memory://', ...env }),
      { store },
    );

  describe('with the address guard on (the default)', () => {
    let guarded: RunningServer;
    beforeAll(async () => {
      guarded = await start({});
    });
    afterAll(async () => {
      await guarded?.close();
    });

    it('refuses loopback, private and metadata addresses in any form, without connecting', async () => {
      const before = hits.length;
      const addresses = [
        `${base}/article`,
        `http://2130706433:${port}/article`,
        `http://0177.0.0.1:${port}/article`,
        `http://127.1:${port}/article`,
        `http://[::1]:${port}/article`,
        `http://[::ffff:127.0.0.1]:${port}/article`,
        `http://localhost.:${port}/article`,
        'http://169.254.169.254/latest/meta-data/',
        'http://100.64.0.1/',
        'http://0.0.0.0/',
      ];
      const space = freshSpace();
      for (const url of addresses) {
        const source = await settled(space, (await savePage(space, { url }, guarded.url)).id, guarded.url);
        expect(source.status, url).toBe('failed');
        expect(source.error, url).toEqual({ type: 'unreadable', message: expect.stringMatching(/refused/) });
      }
      expect(hits.length).toBe(before);
    });
  });

  describe('with short limits (ENGRAM_URL_TIMEOUT_MS, ENGRAM_URL_MAX_BYTES)', () => {
    let quick: RunningServer;
    beforeAll(async () => {
      quick = await start({ ENGRAM_ALLOW_PRIVATE_URLS: '1', ENGRAM_URL_TIMEOUT_MS: '300', ENGRAM_URL_MAX_BYTES: '4096' });
    });
    afterAll(async () => {
      await quick?.close();
    });

    it('fails a page that takes longer than the time allowed', async () => {
      pages.set('/slow', (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.write('<html><body><p>Ines Ortega is');
      });
      const space = freshSpace();
      const source = await settled(space, (await savePage(space, { url: `${base}/slow` }, quick.url)).id, quick.url);
      expect(source.status).toBe('failed');
      expect(source.error).toEqual({ type: 'unreadable', message: 'The page took longer than 300 ms to read' });
    });

    it('fails a page over its size limit and still reads one under it', async () => {
      pages.set('/five-k', serve('text/plain', 'Ines Ortega likes honey. '.repeat(220)));
      const space = freshSpace();
      const big = await settled(space, (await savePage(space, { url: `${base}/five-k` }, quick.url)).id, quick.url);
      expect(big.error).toEqual({ type: 'unreadable', message: 'The page is over 4096 bytes' });
      pages.set('/small', serve('text/plain', 'Ines Ortega likes honey.'));
      const small = await settled(space, (await savePage(space, { url: `${base}/small` }, quick.url)).id, quick.url);
      expect(small.status).toBe('finished');
    });
  });
});
