import type { AddressInfo } from 'node:net';
import type { ClientOptions } from '@engram/client';
import { Engram } from '@engram/client';
import type { Express } from 'express';

import { freshSpace, serverUrl, TEST_KEY } from '../../../../test/adapters/server.js';

export { freshSpace, TEST_KEY };

/** The shared real Engram's address (test/adapters/setup.ts starts it once for the whole run). */
export const engramUrl = serverUrl;

/** An account-key client of the test server that counts the calls it makes, by method and path. */
export function recordingClient(options: ClientOptions = {}) {
  const calls: string[] = [];
  const client = new Engram({
    apiKey: TEST_KEY,
    baseURL: engramUrl(),
    logger: null,
    ...options,
    fetch: (input, init) => {
      calls.push(`${init.method ?? 'GET'} ${new URL(input).pathname}`);
      return fetch(input, init);
    },
  });
  return { client, calls, count: (call: string) => calls.filter((made) => made === call).length };
}

/** An Express app listening on 127.0.0.1, and a way to call it as a user (the `x-user` header signs in). */
export async function listen(app: Express) {
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    request: (path: string, { user, ...init }: RequestInit & { user?: string } = {}) =>
      fetch(`${url}${path}`, { ...init, headers: { ...(user && { 'x-user': user }), ...(init.headers as Record<string, string>) } }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
