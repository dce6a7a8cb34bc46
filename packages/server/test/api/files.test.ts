import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { importDir } from '../../src/import/import-dir.js';
import { countTextTokens } from '../../src/text/token-count.js';
import { allMemories, call, expectError, freshSpace, saveAndLearn, waitLearned } from './helpers.js';

const q = (value: string) => encodeURIComponent(value);

async function put(space: string, path: string, text: string, labels?: Record<string, string>) {
  return call('PUT', '/v1/files', { body: { path, text, space, ...(labels ? { labels } : {}) } });
}

/** Writes a file and waits until what it taught is learned. */
async function putLearned(space: string, path: string, text: string, labels?: Record<string, string>) {
  const written = await put(space, path, text, labels);
  expect(written.status).toBe(200);
  return { written: written.body, source: await waitLearned(space, written.body.source.id) };
}

async function readFile(space: string, path: string) {
  return call('GET', `/v1/files?path=${q(path)}&space=${q(space)}`);
}

async function spaceUsage(space: string) {
  const reply = await call('GET', '/v1/usage', { space });
  expect(reply.status).toBe(200);
  return reply.body.learned_tokens as number;
}

async function memoryDetail(space: string, id: number) {
  return (await call('GET', `/v1/memories/${id}?space=${q(space)}`)).body;
}

describe('files: paths', () => {
  it.each([
    ['starts with "/"', '/notes/a.md', 'notes/a.md'],
    ['at most 255 characters', `/${'a'.repeat(254)}`, `/${'a'.repeat(255)}`],
    ['does not end with "/"', '/notes/a.md', '/notes/'],
    ['has no empty part', '/notes/a.md', '/notes//a.md'],
    ['has no "." part', '/notes/.a.md', '/notes/./a.md'],
    ['has no ".." part', '/notes/..a.md', '/notes/../a.md'],
    ['has no backslash', '/notes/a-b.md', '/notes\\a.md'],
    ['has no control character', '/notes/a b.md', '/notes/a\tb.md'],
  ])('a path %s', async (_rule, valid, invalid) => {
    const space = freshSpace();
    expect((await put(space, valid, '')).status).toBe(200);
    expectError(await put(space, invalid, ''), 400, 'invalid_request');
    expect((await readFile(space, valid)).status).toBe(200);
    expectError(await readFile(space, invalid), 400, 'invalid_request');
    expectError(await call('DELETE', `/v1/files?path=${q(invalid)}&space=${q(space)}`), 400, 'invalid_request');
    expectError(await call('POST', '/v1/files/move', { body: { from: valid, to: invalid, space } }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/files/move', { body: { from: invalid, to: '/elsewhere', space } }), 400, 'invalid_request');
  });

  it('takes a prefix starting with "/" ("/" for all) and refuses others', async () => {
    const space = freshSpace();
    await put(space, '/a.txt', 'x');
    expect((await call('GET', `/v1/files?prefix=${q('/')}&space=${q(space)}`)).body.total).toBe(1);
    expectError(await call('GET', `/v1/files?prefix=a&space=${q(space)}`), 400, 'invalid_request');
    expectError(await call('DELETE', `/v1/files?prefix=a&space=${q(space)}`), 400, 'invalid_request');
  });

  it('refuses both or neither of path and prefix', async () => {
    const space = freshSpace();
    for (const method of ['GET', 'DELETE']) {
      expectError(await call(method, `/v1/files?space=${q(space)}`), 400, 'invalid_request');
      expectError(await call(method, `/v1/files?path=/a&prefix=/&space=${q(space)}`), 400, 'invalid_request');
    }
  });

  it('refuses a blank space on every files operation', async () => {
    for (const blank of ['', '  ']) {
      expectError(await put(blank, '/a.md', 'x'), 400, 'invalid_request');
      expectError(await call('GET', `/v1/files?prefix=/&space=${q(blank)}`), 400, 'invalid_request');
      expectError(await call('DELETE', `/v1/files?prefix=/&space=${q(blank)}`), 400, 'invalid_request');
      expectError(await call('POST', '/v1/files/move', { body: { from: '/a', to: '/b', space: blank } }), 400, 'invalid_request');
    }
    expectError(await call('GET', '/v1/files?prefix=/', { space: ' ' }), 400, 'invalid_request');
  });
});

describe('files: text', () => {
  it('keeps text exactly: line endings, tabs, trailing spaces and emoji; size in characters', async () => {
    const space = freshSpace();
    const text = 'Line one\r\n\tindented  \r\nold mac\rline\n\ntrailing   \n😀 émoji 👋🏽 中文\n';
    const first = await put(space, '/exact.txt', text);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ path: '/exact.txt', size: [...text].length, created: true });
    expect(first.body.source).toMatchObject({ kind: 'file', path: '/exact.txt', title: '/exact.txt' });
    const read = await readFile(space, '/exact.txt');
    expect(read.body).toEqual({ path: '/exact.txt', text, size: [...text].length, updated_at: first.body.updated_at, labels: {} });
    expect(read.body.text === text).toBe(true);
    const again = await put(space, '/exact.txt', `${text} `);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.created).toBe(false);
    expect((await readFile(space, '/exact.txt')).body.text).toBe(`${text} `);
    expectError(await readFile(space, '/missing.txt'), 404, 'not_found');
  });

  it('keeps 2,000,000 characters and refuses one more', async () => {
    const space = freshSpace();
    const unit = '·\t \r\n-~ '; // no letter or digit: nothing to learn, so the test stays quick
    const text = unit.repeat(2_000_000 / unit.length);
    expect(text).toHaveLength(2_000_000);
    const written = await put(space, '/big.txt', text);
    expect(written.status).toBe(200);
    expect(written.body.size).toBe(2_000_000);
    const read = await readFile(space, '/big.txt');
    expect(read.body.text.length).toBe(2_000_000);
    expect(read.body.text === text).toBe(true);
    expectError(await put(space, '/big.txt', `${text}x`), 400, 'invalid_request');
  });

  it('keeps an empty file and learns nothing from it', async () => {
    const space = freshSpace();
    const written = await put(space, '/empty.md', '');
    expect(written.body).toMatchObject({ size: 0, created: true });
    expect(written.body.source).toMatchObject({ status: 'finished', memories: 0, tokens: 0 });
    expect((await readFile(space, '/empty.md')).body).toMatchObject({ text: '', size: 0 });
    expect(await allMemories(space)).toEqual([]);
    expect(await spaceUsage(space)).toBe(0);
  });

  it('refuses text PostgreSQL cannot keep exactly (NUL, lone surrogates)', async () => {
    const space = freshSpace();
    expectError(await put(space, '/nul.txt', 'a\u0000b'), 400, 'invalid_request');
    expectError(await call('PUT', '/v1/files', { raw: `{"path":"/s.txt","text":"a\\ud800b","space":"${space}"}` }), 400, 'invalid_request');
  });
});

describe('files: listing and deleting', () => {
  it('lists by prefix in character order, with paging, total and next', async () => {
    const space = freshSpace();
    const paths = ['/a/é.md', '/a/b.md', '/a/B.md', '/a/_.md', '/a/Z.md', '/ab.md', '/b/x.md'];
    for (const path of paths) await put(space, path, '', { path });
    const page = await call('GET', `/v1/files?prefix=/a/&limit=2&space=${q(space)}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.next).toBe(2);
    expect(page.body.files.map((file: { path: string }) => file.path)).toEqual(['/a/B.md', '/a/Z.md']);
    expect(page.body.files[0]).toEqual({ path: '/a/B.md', size: 0, updated_at: expect.any(String), labels: { path: '/a/B.md' } });
    const rest = await call('GET', `/v1/files?prefix=/a/&limit=200&cursor=2&space=${q(space)}`);
    expect(rest.body.files.map((file: { path: string }) => file.path)).toEqual(['/a/_.md', '/a/b.md', '/a/é.md']);
    expect(rest.body.next).toBeUndefined();
    const all = await call('GET', `/v1/files?prefix=/&space=${q(space)}`);
    expect(all.body.files.map((file: { path: string }) => file.path)).toEqual(
      [...paths].sort((x, y) => (Buffer.from(x) < Buffer.from(y) ? -1 : 1)),
    );
    for (const limit of [0, 201])
      expectError(await call('GET', `/v1/files?prefix=/&limit=${limit}&space=${q(space)}`), 400, 'invalid_request');
  });

  it('deletes one file with the memories only it taught, keeping those another source also taught', async () => {
    const space = freshSpace();
    const { source } = await putLearned(space, '/people/ines.md', 'Ines keeps bees in Lisbon. Ines speaks Greek.');
    await saveAndLearn(space, { text: 'Ines speaks Greek.' });
    expect(source.memories).toBe(2);
    const deleted = await call('DELETE', `/v1/files?path=${q('/people/ines.md')}&space=${q(space)}`);
    expect(deleted.body).toEqual({ deleted: 1, path: '/people/ines.md' });
    expect((await allMemories(space)).map((memory) => memory.text)).toEqual([expect.stringMatching(/Greek/)]);
    expectError(await readFile(space, '/people/ines.md'), 404, 'not_found');
    expectError(await call('GET', `/v1/sources/${source.id}?space=${q(space)}`), 404, 'not_found');
    expectError(await call('DELETE', `/v1/files?path=${q('/people/ines.md')}&space=${q(space)}`), 404, 'not_found');
  });

  it('deletes 250 files beneath a prefix in three calls: 100, 100, then 50 with more false', async () => {
    const space = freshSpace();
    const paths = Array.from({ length: 250 }, (_, index) => `/bulk/${String(index).padStart(3, '0')}.txt`);
    for (let start = 0; start < paths.length; start += 10) {
      const replies = await Promise.all(paths.slice(start, start + 10).map((path) => put(space, path, '')));
      expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
    }
    await put(space, '/bulky.txt', '');
    const url = `/v1/files?prefix=/bulk/&space=${q(space)}`;
    expect((await call('DELETE', url)).body).toEqual({ deleted: 100, more: true });
    expect((await call('DELETE', url)).body).toEqual({ deleted: 100, more: true });
    expect((await call('DELETE', url)).body).toEqual({ deleted: 50, more: false });
    expect((await call('DELETE', url)).body).toEqual({ deleted: 0, more: false });
    const left = await call('GET', `/v1/files?prefix=/&space=${q(space)}`);
    expect(left.body.files.map((file: { path: string }) => file.path)).toEqual(['/bulky.txt']);
  });

  it('erases a space with its files', async () => {
    const space = freshSpace();
    await put(space, '/gone.txt', 'x');
    expect((await call('DELETE', `/v1/space?space=${q(space)}`)).status).toBe(200);
    expectError(await readFile(space, '/gone.txt'), 404, 'not_found');
  });
});

describe('files: moving', () => {
  it('moves one file, keeping its text, memories and links; the source follows', async () => {
    const space = freshSpace();
    const { source } = await putLearned(space, '/inbox/omar.md', 'Omar teaches judo in Leeds.');
    const before = await allMemories(space);
    expect(before).toHaveLength(1);
    const moved = await call('POST', '/v1/files/move', { body: { from: '/inbox/omar.md', to: '/people/omar.md', space } });
    expect(moved.body).toEqual({ moved: 1 });
    expect((await readFile(space, '/people/omar.md')).body.text).toBe('Omar teaches judo in Leeds.');
    expectError(await readFile(space, '/inbox/omar.md'), 404, 'not_found');
    expect((await allMemories(space)).map((memory) => memory.id)).toEqual(before.map((memory) => memory.id));
    const detail = await memoryDetail(space, before[0]!.id);
    expect(detail.memory.source.id).toBe(source.id);
    const after = await call('GET', `/v1/sources/${source.id}?space=${q(space)}`);
    expect(after.body.source).toMatchObject({ path: '/people/omar.md', title: '/people/omar.md', status: 'finished', memories: 1 });
  });

  it('moves every file beneath from/ to the same place beneath to/', async () => {
    const space = freshSpace();
    for (const path of ['/drafts/a.md', '/drafts/deep/b.md', '/draftsx/c.md']) await put(space, path, path);
    const moved = await call('POST', '/v1/files/move', { body: { from: '/drafts', to: '/final', space } });
    expect(moved.body).toEqual({ moved: 2 });
    const all = await call('GET', `/v1/files?prefix=/&space=${q(space)}`);
    expect(all.body.files.map((file: { path: string }) => file.path)).toEqual(['/draftsx/c.md', '/final/a.md', '/final/deep/b.md']);
    expect((await readFile(space, '/final/deep/b.md')).body.text).toBe('/drafts/deep/b.md');
  });

  it('refuses a move onto an existing file and moves nothing', async () => {
    const space = freshSpace();
    for (const path of ['/src/a.md', '/src/b.md', '/dst/b.md', '/one.md', '/two.md']) await put(space, path, path);
    const conflict = await call('POST', '/v1/files/move', { body: { from: '/src', to: '/dst', space } });
    expectError(conflict, 409, 'conflict');
    expect(conflict.headers.get('x-should-retry')).toBe('false');
    expectError(await call('POST', '/v1/files/move', { body: { from: '/one.md', to: '/two.md', space } }), 409, 'conflict');
    const all = await call('GET', `/v1/files?prefix=/&space=${q(space)}`);
    expect(all.body.files.map((file: { path: string }) => file.path)).toEqual([
      '/dst/b.md',
      '/one.md',
      '/src/a.md',
      '/src/b.md',
      '/two.md',
    ]);
    for (const path of ['/src/a.md', '/dst/b.md', '/one.md', '/two.md']) expect((await readFile(space, path)).body.text).toBe(path);
  });

  it('answers 404 when from holds no file and nothing beneath', async () => {
    const space = freshSpace();
    await put(space, '/here.md', 'x');
    expectError(await call('POST', '/v1/files/move', { body: { from: '/nowhere', to: '/else', space } }), 404, 'not_found');
    expectError(await call('POST', '/v1/files/move', { body: { from: '/her', to: '/else', space } }), 404, 'not_found');
  });
});

describe('files: labels', () => {
  it('replaces labels sent, keeps them when left out, clears them with {}', async () => {
    const space = freshSpace();
    await put(space, '/l.md', 'one', { team: 'red', year: '2026' });
    expect((await readFile(space, '/l.md')).body.labels).toEqual({ team: 'red', year: '2026' });
    await put(space, '/l.md', 'two', { team: 'blue' });
    expect((await readFile(space, '/l.md')).body.labels).toEqual({ team: 'blue' });
    await put(space, '/l.md', 'three');
    expect((await readFile(space, '/l.md')).body.labels).toEqual({ team: 'blue' });
    await put(space, '/l.md', 'four', {});
    expect((await readFile(space, '/l.md')).body.labels).toEqual({});
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v']));
    expect((await put(space, '/l.md', 'five', twenty)).status).toBe(200);
    expectError(await put(space, '/l.md', 'six', { ...twenty, k20: 'v' }), 400, 'invalid_request');
    expect((await readFile(space, '/l.md')).body).toMatchObject({ text: 'five', labels: twenty });
  });

  it("gives memories their file's labels, and search, context and ask filter on them", async () => {
    const space = freshSpace();
    await putLearned(space, '/maps.md', 'Nadia collects vintage maps.', { project: 'alpha' });
    await saveAndLearn(space, { text: 'Nadia collects vintage stamps.' });
    const search = (labels?: Record<string, string>) =>
      call('POST', '/v1/search', { body: { q: 'What does Nadia collect?', space, ...(labels ? { labels } : {}) } });
    expect((await search()).body.memories).toHaveLength(2);
    const alpha = await search({ project: 'alpha' });
    expect(alpha.body.memories.map((memory: { text: string }) => memory.text)).toEqual([expect.stringMatching(/maps/)]);
    expect(alpha.body.memories[0].labels).toEqual({ project: 'alpha' });
    const context = await call('POST', '/v1/context', {
      body: { question: 'What does Nadia collect?', labels: { project: 'alpha' }, space },
    });
    expect(context.body.context).toMatch(/maps/);
    expect(context.body.context).not.toMatch(/stamps/);
    const ask = await call('POST', '/v1/ask', { body: { question: 'What does Nadia collect?', labels: { project: 'alpha' }, space } });
    expect(ask.status).toBe(200);
    expect(JSON.stringify(ask.body)).not.toMatch(/stamps/);
    // Changing the file's labels changes its memories' labels; the text is unchanged, nothing is learned.
    await put(space, '/maps.md', 'Nadia collects vintage maps.', { project: 'beta' });
    expect((await search({ project: 'alpha' })).body.memories).toEqual([]);
    expect((await search({ project: 'beta' })).body.memories.map((memory: { text: string }) => memory.text)).toEqual([
      expect.stringMatching(/maps/),
    ]);
  });
});

describe('files: learning only what changed', () => {
  const paragraph = (name: string, things: string[]) => things.map((thing) => `${name} ${thing}.`).join(' ');
  const first = paragraph('Lena', ['lives in Bergen', 'works as a nurse', 'plays the oboe', 'keeps three goats']);
  const second = paragraph('Tomas', ['drives a blue tram', 'grows chillies', 'studies Korean', 'owns a kayak']);
  const third = paragraph('Priya', ['runs a bakery', 'paints murals', 'speaks Tamil', 'swims every morning']);
  const changed = paragraph('Tomas', ['rides a red scooter', 'grows pumpkins', 'studies Korean', 'owns a kayak']);

  it('learns only the changed paragraph, drops what was removed, keeps the rest and bills the new text', async () => {
    const space = freshSpace();
    const text = `# Friends\r\n\r\n${first}\r\n\r\n${second}\r\n\r\n${third}\r\n`;
    const { source } = await putLearned(space, '/friends.md', text);
    const before = await allMemories(space);
    expect(before.length).toBe(12);
    const usageBefore = await spaceUsage(space);
    const rewritten = text.replace(second, `${changed} Tomas has a dog`);
    const { written, source: relearned } = await putLearned(space, '/friends.md', rewritten);
    expect(written.created).toBe(false);
    expect(relearned.id).toBe(source.id);
    const after = await allMemories(space);
    const texts = after.map((memory) => memory.text).join('\n');
    expect(texts).toMatch(/scooter/);
    expect(texts).toMatch(/pumpkins/);
    expect(texts).toMatch(/dog/);
    expect(texts).not.toMatch(/tram/);
    expect(texts).not.toMatch(/chillies/);
    // Unchanged memories keep their ids.
    const kept = before.filter((memory) => !/tram|chillies/.test(memory.text));
    expect(kept).toHaveLength(10);
    expect(after.map((memory) => memory.id)).toEqual(expect.arrayContaining(kept.map((memory) => memory.id)));
    expect(after).toHaveLength(13);
    // The sentence of a kept memory after the change points into the new text.
    const priya = after.find((memory) => /bakery/.test(memory.text))!;
    const detail = await memoryDetail(space, priya.id);
    expect(rewritten.slice(detail.sentence.start, detail.sentence.end)).toBe(detail.sentence.text);
    const scooter = after.find((memory) => /scooter/.test(memory.text))!;
    const added = await memoryDetail(space, scooter.id);
    expect(rewritten.slice(added.sentence.start, added.sentence.end)).toBe('Tomas rides a red scooter.');
    // Usage: only the new sentences are counted.
    const newTokens = countTextTokens('Tomas rides a red scooter. Tomas grows pumpkins. Tomas has a dog');
    expect(relearned.tokens).toBeGreaterThan(0);
    expect(relearned.tokens).toBeLessThanOrEqual(newTokens + 3);
    expect(relearned.tokens).toBeLessThan(countTextTokens(rewritten) / 3);
    expect((await spaceUsage(space)) - usageBefore).toBe(Math.max(100, relearned.tokens));
  });

  it('learns nothing and bills nothing when the text is the same or only lost a paragraph', async () => {
    const space = freshSpace();
    const text = `${first}\n\n${second}\n`;
    await putLearned(space, '/two.md', text);
    const usage = await spaceUsage(space);
    const same = await put(space, '/two.md', text);
    expect(same.body.source.status).toBe('finished');
    const shorter = await put(space, '/two.md', `${first}\n`);
    expect(shorter.body.source).toMatchObject({ status: 'finished', tokens: 0, memories: 4 });
    expect((await allMemories(space)).map((memory) => memory.text).join('\n')).not.toMatch(/Tomas/);
    expect(await spaceUsage(space)).toBe(usage);
  });

  it('keeps text written with learn false without learning, searching or billing it', async () => {
    const space = freshSpace();
    const written = await call('PUT', '/v1/files', { body: { path: '/log.jsonl', text: `${first}\n`, learn: false, space } });
    expect(written.status).toBe(200);
    expect(written.body.source).toMatchObject({ status: 'finished', memories: 0, tokens: 0 });
    const appended = await call('PUT', '/v1/files', { body: { path: '/log.jsonl', text: `${first}\n${second}\n`, learn: false, space } });
    expect(appended.body.source).toMatchObject({ status: 'finished', memories: 0, tokens: 0 });
    expect((await readFile(space, '/log.jsonl')).body.text).toBe(`${first}\n${second}\n`);
    expect(await allMemories(space)).toEqual([]);
    expect((await call('POST', '/v1/search', { body: { q: 'Lena Bergen nurse', space } })).body.memories).toEqual([]);
    expect(await spaceUsage(space)).toBe(0);
    // A later write that learns learns only what it adds.
    const { source } = await putLearned(space, '/log.jsonl', `${first}\n${second}\n${third}\n`);
    expect(source.memories).toBe(4);
    expect((await allMemories(space)).map((memory) => memory.text).join('\n')).not.toMatch(/Lena|Tomas/);
    expectError(await call('PUT', '/v1/files', { body: { path: '/log.jsonl', text: '', learn: 'no', space } }), 400, 'invalid_request');
    expect((await readFile(space, '/log.jsonl')).body.text).toBe(`${first}\n${second}\n${third}\n`);
  });

  it("keeps a removed sentence's memory that another source also taught", async () => {
    const space = freshSpace();
    await putLearned(space, '/k.md', 'Sven builds boats. Sven reads maps.');
    const note = await saveAndLearn(space, { text: 'Sven builds boats.' });
    const boats = (await allMemories(space)).find((memory) => /boats/.test(memory.text))!;
    await putLearned(space, '/k.md', 'Sven reads maps.');
    const after = await allMemories(space);
    expect(after.map((memory) => memory.id)).toContain(boats.id);
    expect((await memoryDetail(space, boats.id)).memory.source.id).toBe(note.id);
  });
});

describe('engram import', () => {
  it('imports a folder of text and markdown files, skipping unchanged ones on a second run', async () => {
    const space = freshSpace();
    const dir = await mkdtemp(join(tmpdir(), 'engram-import-'));
    try {
      await mkdir(join(dir, 'notes', 'deep'), { recursive: true });
      await mkdir(join(dir, '.git'));
      await writeFile(join(dir, 'notes', 'a.md'), '# A\r\nAmir sails.\r\n');
      await writeFile(join(dir, 'notes', 'deep', 'b.markdown'), 'Bea knits.');
      await writeFile(join(dir, 'c.txt'), '');
      await writeFile(join(dir, 'skip.json'), '{}');
      await writeFile(join(dir, '.git', 'x.md'), 'hidden');
      const options = { dir, space, baseUrl: inject('engramUrl'), apiKey: inject('engramKey'), progress: null };
      expect(await importDir(options)).toEqual({ created: 3, updated: 0, unchanged: 0, failed: 0, failures: [] });
      const listed = await call('GET', `/v1/files?prefix=/&space=${q(space)}`);
      expect(listed.body.files.map((file: { path: string }) => file.path)).toEqual(['/c.txt', '/notes/a.md', '/notes/deep/b.markdown']);
      expect((await readFile(space, '/notes/a.md')).body.text).toBe('# A\r\nAmir sails.\r\n');
      expect(await importDir(options)).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0, failures: [] });
      await writeFile(join(dir, 'c.txt'), 'Cleo bakes.');
      expect(await importDir(options)).toMatchObject({ created: 0, updated: 1, unchanged: 2, failed: 0 });
      expect((await readFile(space, '/c.txt')).body.text).toBe('Cleo bakes.');
      const refused = await importDir({ ...options, apiKey: 'egk_wrong' });
      expect(refused).toMatchObject({ created: 0, failed: 3 });
      expect(refused.failures[0]!.error).toMatch(/^401/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
