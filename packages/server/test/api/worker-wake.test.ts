import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../src/jobs/worker.js';
import { createAccount } from '../../src/store/account-repository.js';
import type { Store } from '../../src/store/database.js';
import type { Scope } from '../../src/store/scope.js';
import { addSource } from '../../src/store/source-repository.js';
import { openOwnStore } from '../setup/own-server.js';

// A burst of saves wakes an idle worker once, after the burst, so that learning does not claim a
// job between each save; a steady stream of saves still wakes it within `wakeMaxMs`. The margins
// are wide (the order of events is asserted, never a duration).
let store: Store;
let own: Awaited<ReturnType<typeof openOwnStore>>;
let scope: Scope;

beforeAll(async () => {
  own = await openOwnStore();
  store = own.store;
  const account = await createAccount(store.db, 'wake-tests');
  scope = { accountId: account.id, space: 'wake' };
});

afterAll(async () => {
  await own?.close();
});

const note = (text: string) => addSource(store.db, scope, { kind: 'note', body: text, tokens: 0 }, 3);
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A worker that records when it runs a job, idle until poked (its poll is an hour). */
async function idleWorker(events: string[], wake: { wakeQuietMs: number; wakeMaxMs: number }) {
  const worker = new Worker(store.background, {
    pollMs: 3_600_000,
    ...wake,
    run: async () => {
      events.push('run');
    },
  });
  worker.start();
  // Its first look finds nothing; it then sleeps.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return worker;
}

describe('waking the worker', () => {
  it('runs nothing until a burst of wake-ups is over, then all of it', async () => {
    const events: string[] = [];
    const worker = await idleWorker(events, { wakeQuietMs: 1_000, wakeMaxMs: 60_000 });
    try {
      for (let index = 0; index < 5; index++) {
        await note(`Wren planted bean row ${index}.`);
        worker.poke();
        events.push('poke');
        await tick();
      }
      for (let waited = 0; waited < 200 && events.filter((event) => event === 'run').length < 5; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(events).toEqual([...Array(5).fill('poke'), ...Array(5).fill('run')]);
    } finally {
      await worker.stop();
    }
  });

  it('still wakes within wakeMaxMs when wake-ups never stop', async () => {
    const events: string[] = [];
    const worker = await idleWorker(events, { wakeQuietMs: 60_000, wakeMaxMs: 300 });
    try {
      // Pokes every 20 ms, each inside the quiet time of the one before, for up to 20 s.
      let pokes = 0;
      for (const started = Date.now(); !events.includes('run') && Date.now() - started < 20_000; pokes++) {
        await note(`Wren planted pea row ${pokes}.`);
        worker.poke();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(events).toContain('run');
    } finally {
      await worker.stop();
    }
  });
});
