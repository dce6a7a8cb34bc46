import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LEARNER_IDLE_MS, LearnerPool } from './pool.js';

// A stand-in for the learner thread (thread.ts): it answers every task with its own thread id,
// so the pool's handling of threads can be seen.
const folder = mkdtempSync(join(tmpdir(), 'engram-pool-'));
const entry = pathToFileURL(join(folder, 'thread.mjs'));
writeFileSync(
  entry,
  `import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', (task) => parentPort.postMessage({ id: task.id, result: { threadId, text: task.source.body } }));
`,
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Answer = { threadId: number; text: string };
const note = (body: string) => ({ kind: 'note', body, messages: null, written_at: new Date() }) as const;
const ask = async (pool: LearnerPool, body: string) => (await pool.learn(note(body))) as unknown as Answer;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let pool: LearnerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('LearnerPool', () => {
  it('starts a thread only when a task comes, and stops it once idle for idleMs', async () => {
    pool = new LearnerPool(2, entry, { idleMs: 100 });
    expect(pool.running).toBe(0);
    const first = await ask(pool, 'Oskar painted the shed.');
    expect(pool.running).toBe(1);
    await wait(400);
    expect(pool.running).toBe(0);
    // The next task starts a new thread and is answered.
    const second = await ask(pool, 'Oskar sold the shed.');
    expect(second.text).toBe('Oskar sold the shed.');
    expect(second.threadId).not.toBe(first.threadId);
    expect(pool.running).toBe(1);
  });

  it('keeps a thread that gets work before its idle time is up', async () => {
    pool = new LearnerPool(1, entry, { idleMs: 300 });
    const first = await ask(pool, 'Greet baked rye bread.');
    for (let round = 0; round < 4; round++) {
      await wait(150);
      expect((await ask(pool, `Greet baked loaf ${round}.`)).threadId).toBe(first.threadId);
    }
    expect(pool.running).toBe(1);
  });

  it('keeps an idle thread for half a minute by default', async () => {
    expect(LEARNER_IDLE_MS).toBe(30_000);
    pool = new LearnerPool(1, entry);
    await ask(pool, 'Joost mended the net.');
    await wait(300);
    expect(pool.running).toBe(1);
  });

  it('keeps its threads when idleMs is 0', async () => {
    pool = new LearnerPool(1, entry, { idleMs: 0 });
    await ask(pool, 'Ilse planted tulips.');
    await wait(200);
    expect(pool.running).toBe(1);
  });
});
