import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WatchPass } from './import-dir.js';
import { filePathOf, importDir, listTextFiles, progressBar, summaryLine, watchDir } from './import-dir.js';

/** An in-memory stand-in for the three file calls, so these tests need no server. */
function fakeFiles() {
  const files = new Map<string, string>();
  const calls: string[] = [];
  const fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.searchParams.get('path') ?? JSON.parse(String(init?.body ?? '{}')).path}`);
    const json = (status: number, body: unknown) => Response.json(body, { status });
    if (method === 'GET') {
      const text = files.get(url.searchParams.get('path')!);
      return text === undefined ? json(404, { error: { message: 'none' } }) : json(200, { text });
    }
    if (method === 'PUT') {
      const body = JSON.parse(String(init!.body));
      const created = !files.has(body.path);
      files.set(body.path, body.text);
      return json(200, { created });
    }
    const path = url.searchParams.get('path')!;
    return files.delete(path) ? json(200, { deleted: 1, path }) : json(404, { error: { message: 'none' } });
  }) as typeof globalThis.fetch;
  return { files, calls, fetch };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-import-unit-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('importDir', () => {
  it('finds text and markdown files, skipping dot-folders and node_modules, with "/" paths', async () => {
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await mkdir(join(dir, 'node_modules'));
    await mkdir(join(dir, '.obsidian'));
    for (const name of ['a/b/one.MD', 'two.txt', 'three.markdown', 'four.pdf', 'node_modules/x.md', '.obsidian/y.md']) {
      await writeFile(join(dir, name), name);
    }
    const found = await listTextFiles(dir);
    expect(found.map((file) => filePathOf(dir, file))).toEqual(['/a/b/one.MD', '/three.markdown', '/two.txt']);
  });

  it('writes new and changed files and skips unchanged ones', async () => {
    const fake = fakeFiles();
    await writeFile(join(dir, 'a.md'), 'A');
    await writeFile(join(dir, 'b.md'), 'B');
    fake.files.set('/b.md', 'B');
    const summary = await importDir({
      dir,
      space: 's',
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'egk_import_unit_test_key_0123456789abcdef',
      fetch: fake.fetch,
      progress: null,
    });
    expect(summary).toEqual({ created: 1, updated: 0, unchanged: 1, failed: 0, failures: [] });
    expect(fake.calls.filter((call) => call.startsWith('PUT'))).toEqual(['PUT /a.md']);
    expect(summaryLine(summary)).toBe('created 1, updated 0, unchanged 1, failed 0');
  });

  it('draws a progress bar in place', () => {
    const written: string[] = [];
    const bar = progressBar({ write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream, 4);
    bar.tick('/a.md');
    bar.tick('/b.md');
    bar.end();
    expect(written[1]).toMatch(/^\r\[#{12} {12}\] 2\/4 \/b\.md/);
    expect(written.at(-1)).toBe('\n');
  });
  it('retries a busy server through the client, and reports a refusal with its status', async () => {
    const fake = fakeFiles();
    let busy = 1;
    const flaky = (async (input: string | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'PUT' && busy-- > 0)
        return Response.json({ error: { type: 'unavailable', message: 'busy' } }, { status: 503 });
      return fake.fetch(input, init);
    }) as typeof globalThis.fetch;
    await writeFile(join(dir, 'a.md'), 'A');
    const options = { dir, space: 's', baseUrl: 'http://127.0.0.1:1', apiKey: 'egk_import_unit_test_key_0123456789abcdef', progress: null };
    expect(await importDir({ ...options, fetch: flaky })).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 0, failures: [] });
    expect(fake.calls).toEqual(['GET /a.md', 'PUT /a.md']);
    const refusing = (async () =>
      Response.json(
        { error: { type: 'unauthorized', message: 'Invalid API key', request_id: 'req_1' } },
        { status: 401 },
      )) as typeof globalThis.fetch;
    await writeFile(join(dir, 'b.md'), 'B');
    const refused = await importDir({ ...options, fetch: refusing });
    expect(refused).toMatchObject({ created: 0, failed: 2 });
    expect(refused.failures).toEqual([
      { path: '/a.md', error: '401 Invalid API key (req_1)' },
      { path: '/b.md', error: '401 Invalid API key (req_1)' },
    ]);
  });
});

describe('watchDir', () => {
  it('writes files that change and deletes files that go', async () => {
    const fake = fakeFiles();
    await writeFile(join(dir, 'keep.md'), 'one');
    const passes: WatchPass[] = [];
    const watching = await watchDir({
      dir,
      space: 's',
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'egk_import_unit_test_key_0123456789abcdef',
      fetch: fake.fetch,
      progress: null,
      intervalMs: 20,
      onPass: (pass) => passes.push(pass),
    });
    try {
      expect(watching.summary.created).toBe(1);
      await writeFile(join(dir, 'new.txt'), 'fresh');
      await expect.poll(() => fake.files.get('/new.txt')).toBe('fresh');
      await unlink(join(dir, 'keep.md'));
      await expect.poll(() => fake.files.has('/keep.md')).toBe(false);
      expect(passes.flatMap((pass) => pass.deleted)).toEqual(['/keep.md']);
    } finally {
      await watching.close();
    }
  });
});
