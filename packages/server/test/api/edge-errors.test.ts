import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openOwnStore } from '../setup/own-server.js';

/** Sends raw bytes to the test server and returns what came back before it closed. */
async function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const url = new URL(inject('engramUrl'));
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('requests Node refuses before the app sees them', () => {
  it('answers a malformed header with the JSON error shape and a request id', async () => {
    const reply = await raw('GET /v1/memories HTTP/1.1\r\nHost: engram\r\nNot a header line\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body.error).toMatchObject({ type: 'invalid_request' });
    expect(reply.body.error.request_id).toMatch(/^req_/);
    expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
  });

  it('answers headers over the size limit with 431 in the JSON error shape', async () => {
    const reply = await raw(`GET /v1/memories HTTP/1.1\r\nHost: engram\r\nX-Padding: ${'p'.repeat(40_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    expect(reply.body.error).toMatchObject({ type: 'invalid_request' });
    expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
  });

  it('answers a request line that is not HTTP with the JSON error shape', async () => {
    const reply = await raw('GARBAGE\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(reply.body.error.request_id).toMatch(/^req_/);
  });
});

describe('ENGRAM_BOOTSTRAP_KEY', () => {
  const start = (key: string, options: Parameters<typeof startServer>[1] = {}) =>
    startServer(loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_WORKERS: '0', ENGRAM_BOOTSTRAP_KEY: key }), options);

  it('refuses to start with a key that is short, lacks egk_ or holds white space', async () => {
    await expect(start('abc')).rejects.toThrow(/ENGRAM_BOOTSTRAP_KEY must start with egk_, have at least 32 characters/);
    await expect(start('egk_short')).rejects.toThrow(/at least 32 characters/);
    await expect(start('egk_has a space_0123456789abcdefghijkl')).rejects.toThrow(/without white space/);
    await expect(start('sk_0123456789abcdefghijklmnopqrstuvwxyz')).rejects.toThrow(/start with egk_/);
  });

  it('warns when an account exists and the key is none of its keys', { timeout: 300_000 }, async () => {
    const own = await openOwnStore();
    try {
      const first = 'egk_first_owner_key_0123456789abcdefghij';
      const warnings: string[] = [];
      const made = await start(first, { store: own.store, warn: (message) => warnings.push(message) });
      expect(made.bootstrapKey).toBe(first);
      await made.close();
      expect(warnings).toEqual([]);
      const again = await start(first, { store: own.store, warn: (message) => warnings.push(message) });
      await again.close();
      expect(warnings).toEqual([]);
      const other = await start('egk_another_owner_key_0123456789abcdefgh', {
        store: own.store,
        warn: (message) => warnings.push(message),
      });
      expect(other.bootstrapKey).toBeNull();
      await other.close();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/ENGRAM_BOOTSTRAP_KEY is not a key of any account/);
    } finally {
      await own.close();
    }
  });
});
