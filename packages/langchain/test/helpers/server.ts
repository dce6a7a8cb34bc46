import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { ClientOptions } from '@engram/client';
import { Engram } from '@engram/client';
import { inject } from 'vitest';

/** The owner's account key of the test server (test/setup.ts starts it once for the whole run). */
export const TEST_KEY = 'egk_langchain_test_key_0123456789abcdefghijklmn';

declare module 'vitest' {
  export interface ProvidedContext {
    langchainServerUrl: string;
  }
}

/** The shared real server's address. */
export const serverUrl = () => inject('langchainServerUrl');

/** A space no other test uses. */
export const freshSpace = (label = 'user') => `${label}-${crypto.randomUUID()}`;

/** One call the client made: where to, and its JSON body. */
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
  return { client, calls, to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path) };
}

/** Waits until everything saved in a space is learned, so recall sees it. */
export async function learned(client: Engram, space: string): Promise<void> {
  for await (const source of client.sources.list({ space })) await client.sources.wait(source.id, { space, timeout: 20_000 });
}

/** An address where nothing listens: a port taken, then freed. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
