import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnServer } from '../setup/own-server.js';

// A JSON body is read whole from Node's stream before the route sees it (http/read-body.ts):
// its limit, its text as `Request.text()` would give it, and what a body that is not JSON gets.

const LIMIT = 4096;
let own: Awaited<ReturnType<typeof startOwnServer>>;
let base: string;

beforeAll(async () => {
  own = await startOwnServer({ ENGRAM_MAX_BODY_BYTES: String(LIMIT) });
  base = own.server.url;
}, 120_000);

afterAll(async () => {
  await own?.close();
});

const headers = (space: string) => ({ Authorization: `Bearer ${own.key}`, 'Content-Type': 'application/json', 'X-Memory-Space': space });

/** A body sent in pieces (chunked, no Content-Length). */
function inPieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function listed(space: string): Promise<number> {
  const response = await fetch(`${base}/v1/memories`, { headers: headers(space) });
  return ((await response.json()) as { total: number }).total;
}

describe('request bodies', () => {
  it('refuses a body over the limit with 413, declared or streamed, and stores nothing', async () => {
    const space = 'bodies-over';
    const body = JSON.stringify({ text: `Ines keeps bees. ${'x'.repeat(LIMIT)}` });
    const declared = await fetch(`${base}/v1/memories`, { method: 'POST', headers: headers(space), body });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'payload_too_large',
      message: `The body is over ${LIMIT} bytes`,
    });
    const streamed = await fetch(`${base}/v1/memories`, {
      method: 'POST',
      headers: headers(space),
      body: inPieces(new TextEncoder().encode(body), 1000),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { type: string } }).error.type).toBe('payload_too_large');
    expect(await listed(space)).toBe(0);
  });

  it('reads a body sent in pieces, a character cut between two of them and a byte-order mark before it, as its text', async () => {
    const space = 'bodies-pieces';
    const text = 'Zoë brews café au lait for Łukasz every morning ☕.';
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify({ text }))]);
    const response = await fetch(`${base}/v1/memories`, {
      method: 'POST',
      headers: headers(space),
      body: inPieces(bytes, 3),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    const { source } = (await response.json()) as { source: { id: string } };
    await fetch(`${base}/v1/sources/${source.id}?wait=20`, { headers: headers(space) });
    const listing = (await (await fetch(`${base}/v1/memories`, { headers: headers(space) })).json()) as { memories: { text: string }[] };
    const words = listing.memories.map((memory) => memory.text).join(' ');
    for (const word of ['Zoë', 'café', 'Łukasz']) expect(words).toContain(word);
  });

  it('answers a body that is not JSON with 400 in the error shape', async () => {
    const response = await fetch(`${base}/v1/search`, { method: 'POST', headers: headers('bodies-bad'), body: '{"q": "bees",' });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { type: string; request_id: string } };
    expect(error.type).toBe('invalid_request');
    expect(error.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('reads a body sent with the same key again the same, so an idempotent retry is recognised', async () => {
    const space = 'bodies-again';
    const body = JSON.stringify({ text: 'Ines moved her hives to the orchard.' });
    const send = () =>
      fetch(`${base}/v1/memories`, { method: 'POST', headers: { ...headers(space), 'Idempotency-Key': 'bodies-again-1' }, body });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(((await second.json()) as { source: { id: string } }).source.id).toBe(
      ((await first.json()) as { source: { id: string } }).source.id,
    );
  });
});
