import type { AddressInfo, Server } from 'node:net';
import { createServer } from 'node:net';
import type { ClientOptions } from '@engram/client';
import { Engram } from '@engram/client';
import { inject } from 'vitest';

/** The owner's account key of the test server (test/setup.ts starts it once for the whole run). */
export const TEST_KEY = 'egk_ai_sdk_test_key_0123456789abcdefghijklmnop';

declare module 'vitest' {
  export interface ProvidedContext {
    aiSdkServerUrl: string;
  }
}

/** The shared real server's address. */
export const serverUrl = () => inject('aiSdkServerUrl');

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${crypto.randomUUID()}`;

/** One call the client made: where to, and its JSON body. */
export interface SentCall {
  method: string;
  path: string;
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
      calls.push({ method: init.method ?? 'GET', path: url.pathname, body });
      return fetch(input, init);
    },
  });
  return { client, calls, to: (path: string) => calls.filter((call) => call.path === path) };
}

/** Waits until everything saved in a space is learned, so recall sees it. */
export async function learned(client: Engram, space: string): Promise<void> {
  const { sources } = await client.sources.list({ space });
  for (const source of sources) await client.sources.wait(source.id, { space, timeout: 20_000 });
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: Engram hanging. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
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
        sockets.forEach((socket) => socket.destroy());
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
