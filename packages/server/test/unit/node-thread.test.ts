import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_YOUNG_GENERATION_MB } from '../../src/node-thread.js';

// `engram serve` runs Engram on a thread of its own with a small young generation
// (src/node-thread.ts); the process's main thread only starts it and passes it signals.

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Loaded into every thread of the process (`--import` is inherited): each says what it holds, now and then. */
const HOOK = `
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { isMainThread, resourceLimits, workerData } from 'node:worker_threads';
const role = isMainThread ? 'main' : workerData?.engramNode ? 'node' : 'other';
setInterval(() => {
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  const figures = { role, youngLimitMb: resourceLimits?.maxYoungGenerationSizeMb ?? null, newSpace: young.space_size, heapUsed: getHeapStatistics().used_heap_size };
  process.stderr.write('thread ' + JSON.stringify(figures) + '\\n');
}, 200).unref();
`;

interface ThreadFigures {
  role: 'main' | 'node' | 'other';
  youngLimitMb: number | null;
  newSpace: number;
  heapUsed: number;
}

let dir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
  dir = await mkdtemp(join(tmpdir(), 'engram-node-thread-'));
  await writeFile(join(dir, 'hook.mjs'), HOOK);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `engram serve` until `until` says so of its stderr, then SIGTERM; its exit code and stderr. */
function serve(env: Record<string, string>, until: (stderr: string) => boolean): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(dir, 'hook.mjs')).href, cli, 'serve'], {
      env: { ...process.env, DATABASE_URL: '', ENGRAM_PORT: '0', ENGRAM_WORKERS: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let signalled = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!signalled && until(stderr)) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

const figuresOf = (stderr: string): ThreadFigures[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('thread '))
    .map((line) => JSON.parse(line.slice('thread '.length)) as ThreadFigures);

describe('engram serve on a thread of its own', () => {
  it('serves from a thread with the small young generation, holds nothing of it on the main thread, and stops on SIGTERM', async () => {
    const dataDir = join(dir, 'data');
    // Stopped once every thread has spoken a few times after listening.
    const { code, stderr } = await serve({ ENGRAM_DATA_DIR: dataDir }, (text) => {
      const listening = text.indexOf('listening on http://');
      return listening !== -1 && figuresOf(text.slice(listening)).length >= 12;
    });
    expect(stderr).toContain('Engram is stopping (SIGTERM)');
    expect(code).toBe(0);
    const figures = figuresOf(stderr.slice(stderr.indexOf('listening on http://')));
    const node = figures.filter((each) => each.role === 'node').at(-1);
    const main = figures.filter((each) => each.role === 'main').at(-1);
    if (!node || !main) throw new Error(`no figures of the thread running Engram and of the main thread:\n${stderr.slice(-2000)}`);
    expect(node.youngLimitMb).toBe(NODE_YOUNG_GENERATION_MB);
    // Two semi-spaces of a third of the young generation each, at most: V8's default grows to 32 MB.
    expect(node.newSpace).toBeLessThanOrEqual(((2 * NODE_YOUNG_GENERATION_MB) / 3) * 1024 * 1024);
    // The server, its libraries and the recall copies live on the thread: the main thread's heap
    // is a small fraction of the thread's.
    expect(main.heapUsed).toBeLessThan(node.heapUsed / 4);
    // Stopped cleanly: the data directory's lock is given back.
    expect(existsSync(join(dataDir, 'engram.lock'))).toBe(false);
  }, 180_000);

  it('refuses a bad setting in one line, with no stack trace, and exit code 2', async () => {
    const { code, stderr } = await serve({ ENGRAM_DATA_DIR: join(dir, 'bad'), ENGRAM_PORT: 'eighty' }, () => false);
    expect(code).toBe(2);
    const lines = stderr.split('\n').filter((line) => line && !line.startsWith('thread '));
    expect(lines).toEqual(['engram: ENGRAM_PORT must be an integer from 0 to 65535, got "eighty"']);
  }, 60_000);
});
