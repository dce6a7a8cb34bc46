import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from './helpers.js';
import { call, freshSpace, waitLearned } from './helpers.js';

/** How the other side calls: which key, and how it names its space. */
type Caller = 'account-header' | 'account-field' | 'limited' | 'limited-naming-other' | 'revoked' | 'expired';

/** What one space wrote, to be looked for from the other. */
interface Written {
  space: string;
  marker: string;
  memoryIds: number[];
  sourceIds: string[];
  path: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
  /** Intentions learned from the briefing-teaching note, with their status. */
  intentions: { id: number; status: string }[];
  project: string;
}

/**
 * The memory ids an answer holds: the id of every memory object (a memory has text and a kind;
 * an export line says it is one), and every `memory_id`, `corrects_memory_id` and `memory_ids`.
 */
function memoryIdsIn(value: unknown, found = new Set<number>()): Set<number> {
  if (Array.isArray(value)) {
    for (const item of value) memoryIdsIn(item, found);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const isMemory = typeof record.text === 'string' && 'kind' in record && (record.type === undefined || record.type === 'memory');
    if (isMemory && typeof record.id === 'number') found.add(record.id);
    for (const [name, item] of Object.entries(record)) {
      if ((name === 'memory_id' || name === 'corrects_memory_id') && typeof item === 'number') found.add(item);
      else if (name === 'memory_ids' && Array.isArray(item))
        for (const id of item)
          if (typeof id === 'number') found.add(id);
          else memoryIdsIn(item, found);
    }
  }
  return found;
}

const letters = fc.string({ unit: fc.constantFrom(...'bcdfghjklmnpqrstvwxz'), minLength: 6, maxLength: 6 });

async function makeKey(space: string, extra: Record<string, unknown> = {}) {
  const reply = await call('POST', '/v1/keys', { body: { space, ...extra } });
  if (reply.status !== 201) throw new Error(`key not made: ${JSON.stringify(reply.body)}`);
  return reply.body as { id: number; key: string };
}

/** Writes through one of the write endpoints, and learns it. */
async function write(space: string, marker: string, how: number): Promise<Written> {
  const sentence = `${marker} keeps a red kayak in Tromso and rows it every Sunday.`;
  const path = `/private/${marker}.md`;
  const idempotencyKey = randomUUID();
  const headers = { 'Idempotency-Key': idempotencyKey };
  let body: Record<string, unknown>;
  let sourceIds: string[] = [];
  switch (how % 4) {
    case 0:
      body = { space, text: sentence };
      sourceIds = [(await call('POST', '/v1/memories', { body, headers })).body.source.id];
      break;
    case 1:
      body = { space, messages: [{ role: 'user', content: sentence, name: marker }] };
      sourceIds = [(await call('POST', '/v1/memories', { body, headers })).body.source.id];
      break;
    case 2:
      body = { space, items: [{ text: sentence }, { text: `${marker} was born in Narvik.` }] };
      sourceIds = (await call('POST', '/v1/memories/batch', { body, headers })).body.results.map((row: any) => row.source.id);
      break;
    default:
      body = { space, path, text: sentence, labels: { owner: marker } };
      sourceIds = [(await call('PUT', '/v1/files', { body, headers })).body.source.id];
  }
  if (how % 4 !== 3)
    await call('PUT', '/v1/files', { body: { space, path, text: sentence } }).then((reply) => sourceIds.push(reply.body.source.id));
  // Something for briefings to hold: a project goal, an intention with a due day and a lesson.
  const project = `Boathouse ${marker}`;
  const teaching = await call('POST', '/v1/memories', {
    body: {
      space,
      project,
      text: `Goal: ${marker} rebuilds the boathouse before spring.\nI'll send the report on the boathouse to ${marker} by Friday.\nAlways varnish the oars outside because ${marker} hates the smell indoors.`,
    },
  });
  if (teaching.status !== 201) throw new Error(`teaching note not saved: ${JSON.stringify(teaching.body)}`);
  sourceIds.push(teaching.body.source.id);
  for (const id of sourceIds) await waitLearned(space, id);
  const listed = await call('GET', `/v1/memories?limit=200&space=${encodeURIComponent(space)}`);
  const memoryIds = listed.body.memories.map((memory: { id: number }) => memory.id);
  if (!memoryIds.length) throw new Error('nothing was learned');
  const intentions = (await call('GET', `/v1/intentions?space=${encodeURIComponent(space)}`)).body.intentions;
  const lessons = (await call('GET', `/v1/lessons?space=${encodeURIComponent(space)}`)).body.lessons;
  if (!intentions.length || !lessons.length)
    throw new Error(`the teaching note taught nothing: ${intentions.length} intentions, ${lessons.length} lessons`);
  // A stored memory test, so that memory health has something to show (or leak).
  const health = await call('POST', '/v1/memory-health/run', { body: { space } });
  if (health.status !== 200) throw new Error(`memory test failed: ${health.status} ${JSON.stringify(health.body)}`);
  return {
    space,
    marker,
    memoryIds,
    sourceIds,
    path,
    idempotencyKey,
    body,
    project,
    intentions: intentions.map((intention: { id: number; status: string }) => ({ id: intention.id, status: intention.status })),
  };
}

describe('isolation between spaces, as a property', () => {
  const keys: Record<string, { key: string; space: string }> = {};
  beforeAll(async () => {
    // Keys limited to spaces that are then revoked, or that expire: they must reach nothing.
    const revokedSpace = freshSpace('revoked');
    const revoked = await makeKey(revokedSpace);
    await call('DELETE', `/v1/keys/${revoked.id}`);
    keys.revoked = { key: revoked.key, space: revokedSpace };
    const expiredSpace = freshSpace('expired');
    const expiring = await makeKey(expiredSpace, { expires_at: new Date(Date.now() + 1_500).toISOString() });
    keys.expired = { key: expiring.key, space: expiredSpace };
    while ((await call('GET', '/v1/memories', { key: expiring.key })).status !== 401)
      await new Promise((resolve) => setTimeout(resolve, 250));
  }, 60_000);

  it('never shows what one space holds to another, through any endpoint, key or replay', { timeout: 900_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        letters,
        fc.nat({ max: 3 }),
        fc.shuffledSubarray<Caller>(['account-header', 'account-field', 'limited', 'limited-naming-other', 'revoked', 'expired'], {
          minLength: 2,
        }),
        async (suffix, how, callers) => {
          const marker = `Velm${suffix}`;
          const a = await write(freshSpace('a'), marker, how);
          const b = freshSpace('b');
          // The other space holds something too, so that its answers are not empty by default.
          await write(b, `Orn${suffix}`, how + 1);
          const limited = await makeKey(b);
          const leaks: string[] = [];
          const look = (label: string, reply: Reply, asked = ''): void => {
            // A briefing asked about the first space's project names it back: that echo is not a leak.
            const text = JSON.stringify(reply.body).split(a.project).join('');
            if (reply.status >= 500) leaks.push(`${label}: ${reply.status}`);
            // A refusal may repeat what it was asked (a path holding the marker): that is not a leak.
            const echoed = reply.status >= 400 && decodeURIComponent(asked).toLowerCase().includes(marker.toLowerCase());
            if (!replaying && !echoed && text.toLowerCase().includes(marker.toLowerCase()))
              leaks.push(`${label}: the marker (${reply.status})`);
            // A refusal may name the id it was asked for; only an answer must not hold the other space's ids.
            if (reply.status >= 400) return;
            for (const id of a.sourceIds) if (text.includes(id)) leaks.push(`${label}: source ${id}`);
            // Keys, intentions, lessons and episodes have ids of their own: only memory ids are compared.
            const shown = memoryIdsIn(reply.body);
            for (const id of a.memoryIds) if (shown.has(id)) leaks.push(`${label}: memory ${id}`);
          };
          let replaying = false;
          const optionsOf =
            (caller: Caller) =>
            (extra: { body?: Record<string, unknown>; query?: string } = {}) => {
              switch (caller) {
                case 'account-header':
                  return { space: b, body: extra.body };
                case 'account-field':
                  return { body: extra.body ? { ...extra.body, space: b } : undefined, query: `space=${encodeURIComponent(b)}` };
                case 'limited':
                  return { key: limited.key, body: extra.body };
                case 'limited-naming-other':
                  return { key: limited.key, space: a.space, body: extra.body };
                default:
                  return { key: keys[caller]!.key, body: extra.body };
              }
            };
          const sender =
            (caller: Caller, options: ReturnType<typeof optionsOf>) =>
            async (method: string, path: string, body?: Record<string, unknown>, headers?: Record<string, string>) => {
              const chosen: any = options({ body });
              const query = chosen.query ? `${path.includes('?') ? '&' : '?'}${chosen.query}` : '';
              const reply = await call(method, `${path}${query}`, { key: chosen.key, space: chosen.space, body: chosen.body, headers });
              // An export is JSON Lines: each line is looked at as the JSON it is.
              if (reply.status === 200 && (reply.headers.get('content-type') ?? '').startsWith('application/x-ndjson')) {
                reply.body = String(reply.body)
                  .split('\n')
                  .filter(Boolean)
                  .map((line) => JSON.parse(line));
              }
              look(`${caller} ${method} ${path}`, reply, `${path} ${JSON.stringify(chosen.body ?? {})}`);
              return reply;
            };
          for (const caller of callers) {
            const options = optionsOf(caller);
            const send = sender(caller, options);
            const question = 'Who keeps a red kayak in Tromso?';
            await send('POST', '/v1/search', { q: 'red kayak Tromso Sunday' });
            await send('POST', '/v1/context', { question });
            await send('POST', '/v1/ask', { question });
            await send('POST', '/v1/search', { q: 'kayak', labels: { owner: marker } });
            await send('GET', '/v1/memories?limit=200');
            await send('GET', '/v1/sources?limit=200');
            await send('GET', '/v1/files?prefix=/');
            for (const id of a.memoryIds) {
              expect((await send('GET', `/v1/memories/${id}`)).status).toBeGreaterThanOrEqual(400);
              expect((await send('PATCH', `/v1/memories/${id}`, { text: 'Someone sold the red kayak.' })).status).toBeGreaterThanOrEqual(
                400,
              );
              expect((await send('DELETE', `/v1/memories/${id}`)).status).toBeGreaterThanOrEqual(400);
            }
            for (const id of a.sourceIds) {
              expect((await send('GET', `/v1/sources/${id}`)).status).toBeGreaterThanOrEqual(400);
              expect((await send('DELETE', `/v1/sources/${id}`)).status).toBeGreaterThanOrEqual(400);
            }
            expect((await send('GET', `/v1/files?path=${encodeURIComponent(a.path)}`)).status).toBeGreaterThanOrEqual(400);
            expect((await send('POST', '/v1/files/move', { from: a.path, to: `/stolen/${suffix}.md` })).status).toBeGreaterThanOrEqual(400);
            await send('GET', '/v1/keys');
            await send('GET', '/v1/usage');
            // Briefings, people and export: what the teaching note and the memory test left in the first space.
            await send('POST', '/v1/briefing', { cue: 'the boathouse and the oars' });
            await send('POST', '/v1/briefing', { project: a.project });
            await send('GET', '/v1/now');
            await send('GET', `/v1/now?project=${encodeURIComponent(a.project)}`);
            await send('GET', '/v1/episodes');
            await send('GET', '/v1/lessons');
            await send('GET', `/v1/lessons?project=${encodeURIComponent(a.project)}`);
            for (const status of ['open', 'done', 'dropped']) await send('GET', `/v1/intentions?status=${status}`);
            for (const intention of a.intentions) {
              expect((await send('POST', `/v1/intentions/${intention.id}`, { status: 'dropped' })).status).toBeGreaterThanOrEqual(400);
              const reopened = await send('POST', `/v1/intentions/${intention.id}`, { status: 'open' });
              // Not found in its own space; a limited key naming the other space is refused before looking.
              expect(reopened.status).toBe(
                caller === 'revoked' || caller === 'expired' ? 401 : caller === 'limited-naming-other' ? 403 : 404,
              );
            }
            await send('GET', '/v1/memory-health');
            await send('GET', '/v1/profile');
            await send('GET', '/v1/brief');
            await send('GET', '/v1/graph');
            const exported = await send('GET', '/v1/export');
            if (exported.status === 200) {
              expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
              expect((exported.body as any[]).at(-1)).toMatchObject({ type: 'end' });
            }
          }
          // Replays last: a fresh answer writes the same words into the other space, which is its own to hold.
          replaying = true;
          for (const caller of callers) {
            const options = optionsOf(caller);
            const send = sender(caller, options);
            // The same Idempotency-Key as the first space's write: never its answer.
            const { space: _space, ...withoutSpace } = a.body;
            const path = 'items' in a.body ? '/v1/memories/batch' : 'path' in a.body ? '/v1/files' : '/v1/memories';
            const method = 'path' in a.body ? 'PUT' : 'POST';
            const replay = await send(method, path, withoutSpace, { 'Idempotency-Key': a.idempotencyKey });
            expect(replay.headers.get('idempotent-replayed')).toBeNull();
            // The exact request of the first space, by a key that may not reach it.
            if (!caller.startsWith('account')) {
              const exact = await call(method, path, {
                key: (options() as any).key,
                body: a.body,
                headers: { 'Idempotency-Key': a.idempotencyKey },
              });
              look(`${caller} exact replay`, exact);
              expect(exact.status).toBeGreaterThanOrEqual(400);
              expect(exact.headers.get('idempotent-replayed')).toBeNull();
            }
          }
          // The first space still holds all it had.
          const after = await call('GET', `/v1/memories?limit=200&space=${encodeURIComponent(a.space)}`);
          expect(after.body.memories.map((memory: { id: number }) => memory.id).sort()).toEqual([...a.memoryIds].sort());
          const file = await call('GET', `/v1/files?path=${encodeURIComponent(a.path)}&space=${encodeURIComponent(a.space)}`);
          expect(file.status).toBe(200);
          // Its intentions kept their status; its teaching note is still in its own briefing.
          const intentions = (await call('GET', `/v1/intentions?space=${encodeURIComponent(a.space)}`)).body.intentions;
          expect(intentions.map((row: { id: number; status: string }) => ({ id: row.id, status: row.status }))).toEqual(a.intentions);
          const own = await call('POST', '/v1/briefing', { body: { space: a.space, project: a.project } });
          expect(JSON.stringify(own.body).toLowerCase()).toContain(marker.toLowerCase());
          expect(leaks).toEqual([]);
        },
      ),
      { numRuns: 6, seed: 1_414, endOnFailure: true },
    );
  });
});
