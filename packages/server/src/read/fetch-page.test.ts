import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from './address-guard.js';
import { refusedAddressReason } from './address-guard.js';
import type { FetchOptions } from './fetch-page.js';
import { fetchPage } from './fetch-page.js';
import { UnreadableError } from './unreadable.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const routes = new Map<string, Handler>();
const seen: { path: string; host: string | undefined }[] = [];
let server: Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', host: request.headers.host });
    const handler = routes.get((request.url ?? '').split('?')[0]!);
    if (handler) return handler(request, response);
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open: FetchOptions = { allowPrivate: true, maxBytes: 64 * 1024, timeoutMs: 2_000, maxRedirects: 5 };

async function failure(promise: Promise<unknown>): Promise<UnreadableError> {
  const error = await promise.then(
    () => new Error('expected the read to fail'),
    (error: unknown) => error,
  );
  if (!(error instanceof UnreadableError)) throw error;
  return error;
}

const html =
  (body: string): Handler =>
  (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  };

describe('fetchPage', () => {
  it('follows a chain of redirects, relative ones included, and reports where it ended', async () => {
    routes.set('/hop1', (_request, response) => response.writeHead(301, { Location: '/hop2' }).end());
    routes.set('/hop2', (_request, response) => response.writeHead(302, { Location: `${base}/hop3` }).end());
    routes.set('/hop3', (_request, response) => response.writeHead(307, { Location: 'end' }).end());
    routes.set('/end', html('<p>Arrived.</p>'));
    const page = await fetchPage(`${base}/hop1`, open);
    expect(page.url).toBe(`${base}/end`);
    expect(page.mediaType).toBe('text/html');
    expect(page.charset).toBe('utf-8');
    expect(page.body.toString()).toBe('<p>Arrived.</p>');
  });

  it('stops after the most redirects allowed', async () => {
    for (let hop = 0; hop < 8; hop++)
      routes.set(`/loop${hop}`, (_request, response) => response.writeHead(302, { Location: `/loop${hop + 1}` }).end());
    const error = await failure(fetchPage(`${base}/loop0`, { ...open, maxRedirects: 5 }));
    expect(error.message).toMatch(/redirected more than 5 times/);
    expect(error.permanent).toBe(true);
    expect(seen.filter((request) => request.path.startsWith('/loop'))).toHaveLength(6);
  });

  it('fails for good on a 404 and for now on a 503 or a refused connection', async () => {
    const missing = await failure(fetchPage(`${base}/nothing-here`, open));
    expect(missing.message).toMatch(/404/);
    expect(missing.permanent).toBe(true);
    routes.set('/busy', (_request, response) => response.writeHead(503).end());
    const busy = await failure(fetchPage(`${base}/busy`, open));
    expect(busy.message).toMatch(/503/);
    expect(busy.permanent).toBe(false);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure(fetchPage(`http://127.0.0.1:${closedPort}/`, open));
    expect(refused.permanent).toBe(false);
    expect(refused.message).toMatch(/ECONNREFUSED/);
  });

  it('gives up on a page that answers too slowly, headers or body', async () => {
    routes.set('/silent', () => undefined);
    routes.set('/trickle', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('The first words arrive');
    });
    for (const path of ['/silent', '/trickle']) {
      const error = await failure(fetchPage(`${base}${path}`, { ...open, timeoutMs: 150 }));
      expect(error.message, path).toMatch(/longer than 150 ms/);
      expect(error.permanent).toBe(true);
    }
  });

  it('refuses a page over the size limit, whether it says its length, streams it, or compresses it', async () => {
    const big = 'x'.repeat(100 * 1024);
    routes.set('/declared', (_request, response) => response.writeHead(200, { 'Content-Type': 'text/plain' }).end(big));
    routes.set('/streamed', (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      for (let index = 0; index < 100; index++) response.write('y'.repeat(1024));
      response.end();
    });
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 32));
    routes.set('/bomb', (_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }).end(bomb),
    );
    for (const path of ['/declared', '/streamed', '/bomb']) {
      const error = await failure(fetchPage(`${base}${path}`, open));
      expect(error.message, path).toMatch(/over 65536 bytes/);
    }
    const small = gzipSync(Buffer.from('Compressed, and small.'));
    routes.set('/gzip', (_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }).end(small),
    );
    expect((await fetchPage(`${base}/gzip`, open)).body.toString()).toBe('Compressed, and small.');
  });

  it('refuses other schemes and malformed addresses', async () => {
    for (const address of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1/', 'data:text/plain,hi', 'not a url']) {
      expect((await failure(fetchPage(address, open))).permanent, address).toBe(true);
    }
  });

  describe('with the guard on', () => {
    const onlyThisServer = (address: string) => (address === '127.0.0.1' ? null : refusedAddressReason(address));

    it('refuses loopback in any form before connecting', async () => {
      const before = seen.length;
      for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '127.1', 'localhost']) {
        const error = await failure(fetchPage(`http://${host}:${port}/`, { ...open, allowPrivate: false }));
        expect(error.message, host).toMatch(/refused/);
      }
      expect(seen.length).toBe(before);
    });

    it('checks the address of every redirect, and refuses one into the private network', async () => {
      for (const target of [
        `http://[::1]:${port}/`,
        'http://169.254.169.254/latest/meta-data/',
        `http://10.0.0.1:${port}/`,
        `http://0x7f000002:${port}/`,
      ]) {
        routes.set('/jump', (_request, response) => response.writeHead(302, { Location: target }).end());
        const error = await failure(fetchPage(`${base}/jump`, { ...open, allowPrivate: false, refuse: onlyThisServer }));
        expect(error.message, target).toMatch(/refused/);
      }
    });

    it('connects to the address it checked, so a second DNS answer cannot rebind the name', async () => {
      const answers = ['127.0.0.1', '10.0.0.7'];
      const asked: string[] = [];
      const resolver: Resolver = async (name) => {
        asked.push(name);
        const address = answers[Math.min(asked.length - 1, answers.length - 1)]!;
        return [{ address, family: 4 }];
      };
      routes.set('/pinned', html('<p>Pinned.</p>'));
      const options = { ...open, allowPrivate: false, refuse: onlyThisServer, resolver };
      const page = await fetchPage(`http://rebind.test:${port}/pinned`, options);
      expect(page.body.toString()).toBe('<p>Pinned.</p>');
      // One question, one checked answer, one connection to it; the name still went out as the Host.
      expect(asked).toEqual(['rebind.test']);
      expect(seen.at(-1)).toEqual({ path: '/pinned', host: `rebind.test:${port}` });
      // The same name asked again (a redirect to it) now answers a private address, and is refused.
      routes.set('/again', (_request, response) => response.writeHead(302, { Location: `http://rebind.test:${port}/pinned` }).end());
      asked.length = 0;
      answers.splice(0, answers.length, '127.0.0.1', '10.0.0.7');
      const error = await failure(fetchPage(`http://rebind.test:${port}/again`, options));
      expect(error.message).toMatch(/resolves to 10\.0\.0\.7, which is refused/);
      expect(asked).toEqual(['rebind.test', 'rebind.test']);
    });
  });
});
