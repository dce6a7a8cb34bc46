import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import type { ClientOptions } from '@engram/client';
import { Engram } from '@engram/client';
import { inject } from 'vitest';

/**
 * What the adapter packages' tests share (@engram/ai-sdk, express, langchain, llamaindex and
 * openai): one real Engram for the whole `adapters` project (test/adapters/setup.ts), a fresh
 * space per test, a client that records the calls it makes, and servers that fail on purpose.
 */

/** The owner's account key of the test server. */
export const TEST_KEY = 'egk_adapters_test_key_0123456789abcdefghijklmno';

declare module 'vitest' {
  export interface ProvidedContext {
    adaptersServerUrl: string;
  }
}

/** The shared real server's address. */
export const serverUrl = () => inject('adaptersServerUrl');

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${crypto.randomUUID()}`;

/** One call the client made: its method, path, query string and JSON body. */
export interface SentCall {
  method: string;
  path: string;
  query: string;
  body: Record<string, unknown> | undefined;
}

/** An account-key client of the test server that records each call it makes (and still makes it). */
export function recordingClient(options: ClientOptions = {}) {
  const calls: SentCall[] = [];
  const client = new Engram({
    apiKey: TEST_KEY,
    baseURL: serverUrl(),
    logger: null,
    ...options,
    fetch: (input, init) => {
      const url = new URL(input);
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.search, body });
      return fetch(input, init);
    },
  });
  /** The calls made with `method` to `path`, in order. */
  const to = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);
  return { client, calls, to };
}

/** Waits until everything saved in a space is learned, so recall sees it. */
export async function learned(client: Engram, space: string): Promise<void> {
  for await (const source of client.sources.list({ space })) await client.sources.wait(source.id, { space, timeout: 20_000 });
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: Engram hanging. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens: a port taken, then freed. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
