import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server.js';
import { startServer } from '../../src/server.js';
import { createAccountKey } from '../../src/store/account-repository.js';
import type { Db } from '../../src/store/database.js';
import type { RestoreOptions } from '../../src/store/transfer/index.js';
import { checkLines, FORMAT_VERSION, RestoreError, reserveIds, restoreLines } from '../../src/store/transfer/index.js';
import { buildDocx, buildPdf } from '../fixtures/documents.js';
import { openOwnStore } from '../setup/own-server.js';
import { allMemories, call, expectError, freshSpace, saveAndLearn, waitLearned } from './helpers.js';

// A space holding every kind of record is exported, restored into a fresh store and exported
// again: the lines are the same, and the restored store answers as the first one did.

let site: Server;
let pageUrl: string;
const space = freshSpace('export');
let limitedKey: string;
let exported: string;
let target: Awaited<ReturnType<typeof openOwnStore>>;
let restored: RunningServer;
const restoredKey = 'egk_restored_owner_0123456789abcdefghijklmnop';
let restoredAccount: number;

/** Notes of a project that teach its state, a rule and a lesson. */
const HERON_NOTES = `# Project Heron — planning notes

Goal: open the reading room in the old library by autumn.
Our focus this week is the lighting plan.

## Decisions
- The reading room stays open on Sundays.

## TODO
- [ ] Order the oak shelves
- [x] Measure the north wall

## Next steps
- Ask the council about the opening hours

Never varnish the shelves in winter because the varnish stays tacky.
Lesson learned: label every cable before the electrician comes.`;

/** A call about the project: an episode with two intentions. */
const HERON_CALL = [
  { role: 'user', name: 'Greta', content: 'Project: Heron. A short call about the shelves.', at: '2026-11-18T10:00:00Z' },
  { role: 'user', name: 'Greta', content: "I'll send the shelf drawings to Jonas by Thursday.", at: '2026-11-18T10:01:00Z' },
  { role: 'user', name: 'Greta', content: 'Remind me to order more lamps when we talk about the lighting.', at: '2026-11-18T10:02:00Z' },
];

/** The text of an export from a server. */
async function exportText(options: { base?: string; key?: string; query?: string } = {}) {
  const response = await fetch(
    `${options.base ?? inject('engramUrl')}/v1/export${options.query ?? `?space=${encodeURIComponent(space)}`}`,
    {
      headers: { Authorization: `Bearer ${options.key ?? inject('engramKey')}` },
    },
  );
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The lines of an export, the header's time left out (it says when each was made). */
const comparable = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line, index) => (index === 0 ? JSON.stringify({ ...JSON.parse(line), exported_at: null }) : line));

async function* linesOf(text: string) {
  for (const line of text.trimEnd().split('\n')) yield line;
}

/** Checks and restores an export's text as `engram restore` does a file. */
async function restoreText(db: Db, text: string, options: RestoreOptions = {}) {
  const checked = await checkLines(linesOf(text), options);
  await reserveIds(db, checked.highestIds);
  return restoreLines(db, linesOf(text), options);
}

/** Uploads a PDF or Word file into the space and waits until it is learned. */
async function uploadAndLearn(file: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  form.append('space', space);
  const response = await fetch(`${inject('engramUrl')}/v1/memories/file`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${inject('engramKey')}` },
    body: form,
  });
  const body = (await response.json()) as any;
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
  return waitLearned(space, body.source.id);
}

/** What a server answers about the space: listings, recall, files and each memory with its sentence and history. */
async function answers(base: string, key: string) {
  const at = (method: string, path: string, body?: unknown) => call(method, path, { base, key, body, space });
  const memories = await at('GET', '/v1/memories?limit=200');
  const details = [];
  for (const memory of memories.body.memories) details.push((await at('GET', `/v1/memories/${memory.id}`)).body);
  return {
    memories: memories.body,
    details,
    sources: (await at('GET', '/v1/sources')).body,
    search: (await at('POST', '/v1/search', { q: 'Where does Omar live?' })).body,
    searchBoats: (await at('POST', '/v1/search', { q: 'boat lake sailing' })).body,
    context: (await at('POST', '/v1/context', { question: 'What does Mei paint?' })).body,
    labelled: (await at('POST', '/v1/search', { q: 'garden', labels: { project: 'garden' } })).body,
    files: (await at('GET', '/v1/files?prefix=/')).body,
    file: (await at('GET', `/v1/files?path=${encodeURIComponent('/notes/garden.md')}`)).body,
    now: (await at('GET', '/v1/now')).body,
    intentions: (await at('GET', '/v1/intentions')).body,
    intentionsDone: (await at('GET', '/v1/intentions?status=done')).body,
    lessons: (await at('GET', '/v1/lessons')).body,
    episodes: (await at('GET', '/v1/episodes')).body,
    health: (await at('GET', '/v1/memory-health')).body,
    profile: (await at('GET', '/v1/profile')).body,
    profileOf: (await at('GET', '/v1/profile?subject=Greta')).body,
    graph: (await at('GET', '/v1/graph')).body,
  };
}

beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === '/harbour') {
      response
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><head><title>Harbour notes</title></head>
<body><article><h1>Harbour notes</h1><p>Ingrid Dahl keeps a small wooden boat on Lake Bled.</p>
<p>She goes sailing there every Sunday morning with her brother Tomas.</p></article></body></html>`);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/harbour`;

  // A conversation, a note, a page, a PDF, a Word file, files with labels, a correction, a replaced fact, a deleted source, keys.
  await saveAndLearn(space, {
    messages: [
      { role: 'user', name: 'Omar', content: 'I live in Lisbon. My sister Rana is a pilot.', at: '2026-09-01T12:00:00Z' },
      { role: 'assistant', content: 'That sounds exciting!' },
      { role: 'user', name: 'Omar', content: 'I am learning to play the cello this winter.', at: '2026-09-01T12:01:00Z' },
    ],
  });
  await saveAndLearn(space, { text: 'Mei Chen paints watercolours of harbours. She exhibits in Bergen in March.', title: 'About Mei' });
  await saveAndLearn(space, { url: pageUrl });
  await uploadAndLearn(
    buildPdf([['Kofi Mensah grows tomatoes on his balcony.'], ['He sells them at the Saturday market.']], { title: 'Kofi' }),
    'kofi.pdf',
  );
  await uploadAndLearn(await buildDocx([{ heading: 1, text: 'Trip' }, 'Lena Vogel is flying to Lima in May.']), 'trip.docx');
  for (const [path, text, labels] of [
    ['/notes/garden.md', 'Anja planted three apple trees in the garden.\r\nThe garden shed needs a new roof.  ', { project: 'garden' }],
    ['/notes/empty.md', '', {}],
    ['/notes/work.md', 'Pavel leads the design team at the studio.', { project: 'work', owner: 'pavel' }],
  ] as const) {
    const written = await call('PUT', '/v1/files', { body: { space, path, text, labels } });
    expect(written.status).toBe(200);
    if (written.body.source.status !== 'finished' && text) await waitLearned(space, written.body.source.id);
  }
  const lisbon = (await allMemories(space)).find((memory) => /Lisbon/.test(memory.text))!;
  const corrected = await call('PATCH', `/v1/memories/${lisbon.id}`, { body: { text: 'Omar lives in Porto.' }, space });
  expect(corrected.status).toBe(200);
  await waitLearned(space, corrected.body.source.id);
  const gone = await saveAndLearn(space, { text: 'Bruno Silva collects vinyl records from the seventies.' });
  expect((await call('DELETE', `/v1/sources/${gone.id}`, { space })).status).toBe(200);
  const key = await call('POST', '/v1/keys', { body: { space, name: 'phone', rpm: 120, note: 'Omar\u2019s phone' } });
  expect(key.status).toBe(201);
  limitedKey = key.body.key;
  const revoked = await call('POST', '/v1/keys', { body: { space, name: 'old laptop' } });
  await call('DELETE', `/v1/keys/${revoked.body.id}`);
  // What briefings are made of: a project's state, intentions (one done), lessons, an episode, a memory-health run.
  await saveAndLearn(space, { text: HERON_NOTES, title: 'Heron notes' });
  await saveAndLearn(space, { messages: HERON_CALL, title: 'Shelves call' });
  const open = (await call('GET', '/v1/intentions', { space })).body.intentions;
  expect(open.length).toBeGreaterThanOrEqual(2);
  expect((await call('POST', `/v1/intentions/${open[0].id}`, { body: { space } })).status).toBe(200);
  const health = await call('POST', '/v1/memory-health/run', { body: { space } });
  expect(health.status).toBe(200);
  expect(health.body.asked).toBeGreaterThan(0);

  const first = await exportText();
  expect(first.status).toBe(200);
  exported = first.text;

  // A fresh store with no account yet: the export's account comes with it.
  target = await openOwnStore();
  const summary = await restoreText(target.store.db, exported);
  restoredAccount = summary.accountId;
  await createAccountKey(target.store.db, restoredAccount, { key: restoredKey, name: 'restored' });
  restored = await startServer(loadConfig({ ENGRAM_PORT: '0', ENGRAM_POLL_MS: '20', ENGRAM_ALLOW_PRIVATE_URLS: '1' }), {
    store: target.store,
  });
}, 120_000);

afterAll(async () => {
  await restored?.close();
  await target?.close();
  (site as unknown as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.();
  await new Promise((resolve) => site?.close(resolve));
});

describe('GET /v1/export', () => {
  it('streams a header with the format version, the space and its records, and an end line', () => {
    const lines = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: 'header', format: 'engram-export', version: FORMAT_VERSION, scope: 'space' });
    expect(lines[0].records).toEqual([
      'key',
      'source',
      'file',
      'memory',
      'usage',
      'state_item',
      'intention',
      'lesson',
      'episode',
      'health_run',
    ]);
    expect(lines[1]).toMatchObject({ type: 'account', name: 'owner' });
    expect(lines[2]).toMatchObject({ type: 'space', name: space });
    expect(lines.at(-1)).toEqual({ type: 'end', lines: lines.length - 1 });
    const types = lines.map((line) => line.type);
    // Each kind in its place, in registry order.
    expect(types.join(' ').replace(/\b(\w+)( \1\b)+/g, '$1')).toBe(
      'header account space key source file memory usage state_item intention lesson episode health_run end',
    );

    const sources = lines.filter((line) => line.type === 'source');
    expect(sources.map((source) => source.kind).sort()).toEqual([
      'conversation',
      'conversation',
      'docx',
      'file',
      'file',
      'file',
      'note',
      'note',
      'note',
      'page',
      'pdf',
    ]);
    expect(sources.find((source) => source.title === 'Heron notes')).toMatchObject({ project: 'Heron', attempts: expect.any(Number) });
    expect(sources.every((source) => source.status === 'finished')).toBe(true);
    expect(sources.find((source) => source.kind === 'page')).toMatchObject({ url: pageUrl, title: 'Harbour notes' });
    expect(sources.find((source) => source.kind === 'pdf').body).toMatch(/Kofi Mensah grows tomatoes/);
    expect(sources.some((source) => /Bruno/.test(source.body ?? ''))).toBe(false);
    const correction = sources.find((source) => source.corrects_memory_id !== null);
    expect(correction.body).toBe('Omar lives in Porto.');

    const files = lines.filter((line) => line.type === 'file');
    expect(files.map((file) => [file.path, file.labels])).toEqual([
      ['/notes/empty.md', {}],
      ['/notes/garden.md', { project: 'garden' }],
      ['/notes/work.md', { owner: 'pavel', project: 'work' }],
    ]);
    expect(files[1].text).toBe('Anja planted three apple trees in the garden.\r\nThe garden shed needs a new roof.  ');

    const memories = lines.filter((line) => line.type === 'memory');
    const wrong = memories.find((memory) => memory.status === 'wrong');
    expect(wrong.text).toMatch(/Lisbon/);
    expect(wrong.id).toBe(correction.corrects_memory_id);
    expect(wrong.history.map((event: any) => event.event)).toEqual(['learned', 'corrected', 'replaced']);
    expect(wrong.history[1]).toMatchObject({ source_id: correction.id, text: 'Omar lives in Porto.' });
    expect(wrong.sentence).toMatchObject({ message_index: 0 });
    expect(wrong.sentence.text).toMatch(/I live in Lisbon/);
    expect(memories.find((memory) => /apple trees/.test(memory.text)).labels).toEqual({ project: 'garden' });
    expect(memories.every((memory) => typeof memory.index === 'string' && memory.sources.length >= 1)).toBe(true);
    expect(memories.map((memory) => memory.id)).toEqual([...memories.map((memory) => memory.id)].sort((a, b) => a - b));

    const keys = lines.filter((line) => line.type === 'key');
    expect(keys.map((key) => [key.name, key.rpm, key.revoked_at === null])).toEqual([
      ['phone', 120, true],
      ['old laptop', 600, false],
    ]);
    expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key.hash) && /^egs_.{4}$/.test(key.starts_with))).toBe(true);
    expect(exported).not.toContain(limitedKey);
    expect(lines.filter((line) => line.type === 'usage').length).toBeGreaterThan(0);
    expect(
      memories.some(
        (memory) => Array.isArray(memory.name_types) && typeof memory.lasting === 'boolean' && typeof memory.owner === 'boolean',
      ),
    ).toBe(true);

    const sourceIds = new Set(sources.map((source) => source.id));
    const briefing = lines.filter((line) => ['state_item', 'intention', 'lesson', 'episode'].includes(line.type));
    expect(briefing.every((line) => sourceIds.has(line.source_id))).toBe(true);
    expect(lines.filter((line) => line.type === 'state_item').some((item) => item.project === 'Heron' && item.field === 'goal')).toBe(true);
    const intentions = lines.filter((line) => line.type === 'intention');
    expect(intentions.map((intention) => intention.status).sort()).toEqual(['done', ...intentions.slice(1).map(() => 'open')]);
    expect(
      lines
        .filter((line) => line.type === 'lesson')
        .map((lesson) => lesson.lesson_type)
        .sort(),
    ).toEqual(['lesson', 'rule']);
    expect(lines.filter((line) => line.type === 'episode').some((episode) => episode.title === 'Shelves call')).toBe(true);
    const [run] = lines.filter((line) => line.type === 'health_run');
    expect(run).toMatchObject({ nightly: false, finished_at: expect.any(String) });
    const memoryIds = new Set(memories.map((memory) => memory.id));
    expect(run.items.every((item: any) => item.memory_ids.every((id: number) => memoryIds.has(id)))).toBe(true);
  });

  it('answers as JSON Lines', async () => {
    const reply = await exportText();
    expect(reply.type).toBe('application/x-ndjson; charset=utf-8');
  });

  it("holds a limited key to its own space, without the account's line", async () => {
    const own = await exportText({ key: limitedKey, query: '' });
    expect(own.status).toBe(200);
    // The same records; the key's last use is now, and one line (the account's) fewer.
    const records = (text: string) =>
      comparable(text)
        .map((line) => JSON.parse(line))
        .filter((line) => line.type !== 'account' && line.type !== 'end')
        .map((line) => (line.type === 'key' ? { ...line, last_used_at: null } : line));
    expect(records(own.text)).toEqual(records(exported));
    expect(JSON.parse(own.text.trimEnd().split('\n').at(-1)!)).toEqual({ type: 'end', lines: own.text.trimEnd().split('\n').length - 1 });
    expect(own.text).not.toContain('"type":"account"');
    const other = await fetch(`${inject('engramUrl')}/v1/export?space=someone-else`, {
      headers: { Authorization: `Bearer ${limitedKey}` },
    });
    expect(other.status).toBe(403);
    expect(((await other.json()) as any).error.type).toBe('permission_denied');
    const owner = await fetch(`${inject('engramUrl')}/v1/export?space=`, { headers: { Authorization: `Bearer ${limitedKey}` } });
    expect(owner.status).toBe(403);
  });

  it('answers 404 for a space that does not exist and 401 without a key', async () => {
    expectError(await call('GET', `/v1/export?space=${freshSpace('nobody')}`), 404, 'not_found');
    expectError(await call('GET', '/v1/export', { key: null }), 401, 'authentication_error');
    expectError(await call('GET', `/v1/export?space=${'x'.repeat(129)}`), 400, 'invalid_request');
  });

  it("exports the owner's own memory when no space is named", async () => {
    const reply = await exportText({ query: '' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text.split('\n')[2]!)).toMatchObject({ type: 'space', name: '' });
  });
});

describe('restoring an export into a fresh store', () => {
  it('gives the same lines when exported again', async () => {
    const again = await exportText({ base: restored.url, key: restoredKey });
    expect(again.status).toBe(200);
    expect(comparable(again.text)).toEqual(comparable(exported));
  });

  it('learns nothing again: every source is finished and no job is queued', async () => {
    const { rows } = await sql<{ jobs: number; unfinished: number }>`
      select (select count(*)::int from jobs where space = ${space}) as jobs,
        (select count(*)::int from sources where space = ${space} and status <> 'finished') as unfinished`.execute(restored.store.db);
    expect(rows[0]).toEqual({ jobs: 0, unfinished: 0 });
  });

  it('answers search, context, files and memories as the first store does', async () => {
    const before = await answers(inject('engramUrl'), inject('engramKey'));
    const after = await answers(restored.url, restoredKey);
    expect(after.memories.total).toBeGreaterThan(8);
    expect(after.search.memories.map((memory: any) => memory.text)).toContain('Omar lives in Porto.');
    expect(after.context.context).toMatch(/watercolours/);
    expect(after.labelled.memories.length).toBeGreaterThan(0);
    expect(after.file).toMatchObject({ path: '/notes/garden.md', labels: { project: 'garden' } });
    expect(after.now.now.map((state: any) => state.project)).toContain('Heron');
    expect(after.intentionsDone.intentions).toHaveLength(1);
    expect(after.lessons.lessons.length).toBe(2);
    expect(after.episodes.episodes.length).toBeGreaterThan(0);
    expect(after.health.asked).toBeGreaterThan(0);
    expect(after.graph.nodes.length).toBeGreaterThan(0);
    for (const part of Object.keys(before) as (keyof typeof before)[]) {
      expect(after[part], part).toEqual(before[part]);
    }
  });

  it("keeps the space's limited keys working, and revoked ones revoked", async () => {
    const reply = await call('GET', '/v1/memories', { base: restored.url, key: limitedKey });
    expect(reply.status).toBe(200);
    expect(reply.body.total).toBeGreaterThan(8);
    const keys = await call('GET', `/v1/keys?space=${encodeURIComponent(space)}`, { base: restored.url, key: restoredKey });
    expect(keys.body.keys.map((key: any) => key.name)).toEqual(['phone']);
  });

  it('changes nothing when restored twice', async () => {
    const before = await exportText({ base: restored.url, key: restoredKey });
    const counts = async () =>
      (
        await sql<any>`select (select count(*)::int from memories) m, (select count(*)::int from memory_events) e,
          (select count(*)::int from memory_sources) l, (select count(*)::int from sources) s, (select count(*)::int from files) f,
          (select count(*)::int from api_keys) k, (select count(*)::int from accounts) a, (select count(*)::int from jobs) j`.execute(
          restored.store.db,
        )
      ).rows[0];
    const counted = await counts();
    const summary = await restoreText(restored.store.db, exported);
    expect(summary.added).toEqual({});
    expect(summary.present.memory).toBeGreaterThan(8);
    expect(await counts()).toEqual(counted);
    const after = await exportText({ base: restored.url, key: restoredKey });
    expect(comparable(after.text)).toEqual(comparable(before.text));
  });

  it('refuses a file of a newer format, or cut short, and writes nothing', async () => {
    const lines = exported.trimEnd().split('\n');
    const newer = [JSON.stringify({ ...JSON.parse(lines[0]!), version: FORMAT_VERSION + 1 }), ...lines.slice(1)].join('\n');
    const other = { space: freshSpace('refused') };
    await expect(restoreText(restored.store.db, newer, other)).rejects.toThrow(
      new RegExp(`newer Engram \\(export format version ${FORMAT_VERSION + 1}\\).*Upgrade Engram`),
    );
    await expect(restoreText(restored.store.db, lines.slice(0, -3).join('\n'), other)).rejects.toThrow(RestoreError);
    await expect(restoreText(restored.store.db, lines.slice(0, -3).join('\n'), other)).rejects.toThrow(/cut short/);
    const broken = [...lines.slice(0, 3), '{"type":"memory","id":"seven"}', ...lines.slice(3)].join('\n');
    await expect(restoreText(restored.store.db, broken, other)).rejects.toThrow(/line 4: a memory line whose id is not valid/);
    const { rows } = await sql`select 1 from spaces where name = ${other.space}`.execute(restored.store.db);
    expect(rows).toEqual([]);
  });
});

describe('restoring a file of format version 1', () => {
  it('restores it as it is: the records it holds, without briefings', async () => {
    const older = freshSpace('version-one');
    const added = ['state_item', 'intention', 'lesson', 'episode', 'health_run'];
    const kept = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => !added.includes(line.type) && line.type !== 'end')
      .map((line) => {
        if (line.type === 'header') return { ...line, version: 1, records: line.records.filter((type: string) => !added.includes(type)) };
        if (line.type === 'source') {
          const { project, attempts, ...rest } = line;
          return rest;
        }
        if (line.type === 'memory') {
          const { name_types, lasting, owner, ...rest } = line;
          return rest;
        }
        return line;
      });
    const text = [...kept, { type: 'end', lines: kept.length }].map((line) => JSON.stringify(line)).join('\n');
    const summary = await restoreText(restored.store.db, text, { space: older });
    expect(summary.added.memory).toBeGreaterThan(8);
    expect(Object.keys(summary.added).filter((type) => added.includes(type))).toEqual([]);
    const base = { base: restored.url, key: restoredKey, space: older };
    const found = await call('POST', '/v1/search', { ...base, body: { q: 'Where does Omar live?' } });
    expect(found.body.memories[0].text).toBe('Omar lives in Porto.');
    expect((await call('GET', '/v1/intentions', base)).body.intentions).toEqual([]);
    const { rows } = await sql<{ project: string | null; attempts: number }>`
      select project, attempts from sources where account_id = ${restoredAccount} and space = ${older} and title = 'Heron notes'`.execute(
      restored.store.db,
    );
    expect(rows).toEqual([{ project: null, attempts: 0 }]);
  });
});

describe('restoring sources that were not learned yet', () => {
  it('learns a source exported before it was learned, once, and makes a waiting one searchable again', { timeout: 150_000 }, async () => {
    const unlearned = freshSpace('unlearned');
    const at = '2026-11-20T10:00:00.000000Z';
    const source = (id: string, status: string, body: string) => ({
      type: 'source',
      id,
      kind: 'note',
      title: null,
      url: null,
      path: null,
      status,
      error: null,
      body,
      messages: null,
      corrects_memory_id: null,
      tokens: 9,
      written_at: at,
      created_at: at,
      learned_at: null,
      file: null,
    });
    const lines = [
      { type: 'header', format: 'engram-export', version: FORMAT_VERSION, exported_at: at, scope: 'space', records: ['source'] },
      { type: 'space', name: unlearned, created_at: at },
      source('src_exportlearning01', 'learning', 'Hedda repairs old clocks in Tromso.'),
      source('src_exportwaiting001', 'waiting', 'Ivar grows chillies on the windowsill.'),
    ];
    const text = [...lines, { type: 'end', lines: lines.length }].map((line) => JSON.stringify(line)).join('\n');
    const first = await restoreText(restored.store.db, text);
    expect(first.added).toEqual({ source: 2 });
    expect((await restoreText(restored.store.db, text)).added).toEqual({});
    const base = { base: restored.url, key: restoredKey, space: unlearned };
    // The restored server's learner starts with its first job, which takes a while on a busy machine.
    let learned = await call('GET', '/v1/sources/src_exportlearning01?wait=20', base);
    for (let round = 0; round < 4 && learned.body.source.status !== 'finished'; round++) {
      learned = await call('GET', '/v1/sources/src_exportlearning01?wait=20', base);
    }
    expect(learned.body.source.status).toBe('finished');
    const found = await call('POST', '/v1/search', { ...base, body: { q: 'Who repairs clocks?' } });
    expect(found.body.memories.map((memory: any) => memory.text)).toEqual(['Hedda repairs old clocks in Tromso.']);
    // Searchable as written while it waits; the server may be learning it meanwhile (the plan
    // allows it), and between its raw passages going and its memory coming a search finds nothing.
    let waiting = await call('POST', '/v1/search', { ...base, body: { q: 'chillies windowsill' } });
    for (let round = 0; round < 40 && !waiting.body.memories.length; round++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      waiting = await call('POST', '/v1/search', { ...base, body: { q: 'chillies windowsill' } });
    }
    expect(waiting.body.memories.map((memory: any) => memory.text)).toEqual(['Ivar grows chillies on the windowsill.']);
  });
});

describe('restoring into a space of a store that holds the same ids', () => {
  it('gives the records new ids and maps every reference to them, once', async () => {
    const copy = freshSpace('copy');
    const db = restored.store.db;
    const first = await restoreText(db, exported, { space: copy });
    expect(first.spaces).toEqual([copy]);
    expect(first.added.memory).toBeGreaterThan(8);
    // The keys already work for the first space: a key is never in two places.
    expect(first.added.key).toBeUndefined();
    const second = await restoreText(db, exported, { space: copy });
    expect(second.added).toEqual({});

    const original = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const copied = (await exportText({ base: restored.url, key: restoredKey, query: `?space=${copy}` })).text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const memoriesOf = (lines: any[]) => lines.filter((line) => line.type === 'memory');
    const texts = (lines: any[]) =>
      memoriesOf(lines)
        .map((memory) => `${memory.status} ${memory.text}`)
        .sort();
    expect(texts(copied)).toEqual(texts(original));
    const originalIds = new Set(memoriesOf(original).map((memory) => memory.id));
    expect(memoriesOf(copied).some((memory) => originalIds.has(memory.id))).toBe(false);
    const sourceIds = new Set(copied.filter((line) => line.type === 'source').map((source) => source.id));
    const memoryIds = new Set(memoriesOf(copied).map((memory) => memory.id));
    for (const memory of memoriesOf(copied)) {
      expect(sourceIds.has(memory.source_id)).toBe(true);
      for (const link of memory.sources) expect(sourceIds.has(link.source_id)).toBe(true);
      for (const event of memory.history) if (event.memory_id !== null) expect(memoryIds.has(event.memory_id)).toBe(true);
    }
    const wrong = memoriesOf(copied).find((memory) => memory.status === 'wrong');
    const correction = copied.find((line) => line.type === 'source' && line.corrects_memory_id !== null);
    expect(correction.corrects_memory_id).toBe(wrong.id);
    expect(wrong.history[1].source_id).toBe(correction.id);
    const files = copied.filter((line) => line.type === 'file');
    expect(files.every((file) => sourceIds.has(file.source_id))).toBe(true);
    for (const type of ['state_item', 'intention', 'lesson', 'episode']) {
      const rows = copied.filter((line) => line.type === type);
      expect(rows.length, type).toBe(original.filter((line) => line.type === type).length);
      expect(
        rows.every((row) => sourceIds.has(row.source_id)),
        type,
      ).toBe(true);
    }
    const [run] = copied.filter((line) => line.type === 'health_run');
    expect(run.items.length).toBeGreaterThan(0);
    expect(run.items.every((item: any) => item.memory_ids.every((id: number) => memoryIds.has(id)))).toBe(true);
    const copiedIntentions = await call('GET', '/v1/intentions?status=done', { base: restored.url, key: restoredKey, space: copy });
    expect(copiedIntentions.body.intentions).toHaveLength(1);

    const found = await call('POST', '/v1/search', {
      base: restored.url,
      key: restoredKey,
      space: copy,
      body: { q: 'Where does Omar live?' },
    });
    expect(found.body.memories[0].text).toBe('Omar lives in Porto.');
    const file = await call('GET', '/v1/files?path=/notes/work.md', { base: restored.url, key: restoredKey, space: copy });
    expect(file.body).toMatchObject({ text: 'Pavel leads the design team at the studio.', labels: { project: 'work', owner: 'pavel' } });
  });
});
