import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import { Worker } from './jobs/worker.js';
import { learnMetered, releaseAllWaiting } from './meter/metering.js';
import { bootstrapOwner } from './store/account-repository.js';
import { openStore } from './store/database.js';
import type { Store } from './store/database.js';
import { learnerFor } from './learn/pool.js';
import { memoryIndexOf } from './store/memory-index.js';
import { migrate } from './store/migrations.js';

/** A running Engram: its address, its store, and a way to stop it. */
export interface RunningServer {
  url: string;
  port: number;
  store: Store;
  workers: Worker[];
  /** Threads the learner runs on (0: the API's own thread). */
  learnerThreads: number;
  /** The owner's key when this start made it (first start), else null. */
  bootstrapKey: string | null;
  close(): Promise<void>;
}

/** Options for tests and embedders. */
export interface StartOptions {
  /** Use this store instead of opening one from the config. */
  store?: Store;
  /** The clock, for tests. */
  now?: () => Date;
  /** Where the first start's key goes; stderr by default. */
  announceKey?: (key: string) => void;
}

/**
 * Opens the store, applies migrations, makes the owner on first start, starts the
 * configured in-process workers and listens.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const store = options.store ?? (await openStore(config));
  await migrate(store.db);
  const bootstrap = await bootstrapOwner(store.db, config.bootstrapKey);
  if (bootstrap?.generated) {
    (options.announceKey ?? ((key) => process.stderr.write(`Engram made the owner account. Its key, shown once:\n\n  ${key}\n\n`)))(
      bootstrap.key,
    );
  }
  memoryIndexOf(store.db).configure({ maxHeld: config.recallCacheMemories });
  // The learner runs on threads of its own, so that learning never holds the API's thread.
  const learner = config.workers > 0 ? learnerFor(config.learnerThreads) : null;
  const meter = { db: store.db, config, now: options.now ?? (() => new Date()), learn: learner?.learn, parsers: learner?.parsers };
  const workers = Array.from(
    { length: config.workers },
    () =>
      new Worker(store.db, {
        pollMs: config.pollMs,
        run: (_db, job) => learnMetered(meter, job),
        onIdle: () => releaseAllWaiting(meter),
        idleEveryMs: Math.max(config.pollMs, 1_000),
        onError: (error) => console.error('[engram] worker:', error),
      }),
  );
  const app = createApp({
    db: store.db,
    config,
    now: options.now,
    onSourceAdded: () => workers.forEach((worker) => worker.poke()),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(listening));
  });
  workers.forEach((worker) => worker.start());
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    store,
    workers,
    learnerThreads: learner?.threads ?? 0,
    bootstrapKey: bootstrap?.key ?? null,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Waiting GETs and keep-alive sockets must not hold the shutdown.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await Promise.all(workers.map((worker) => worker.stop()));
      await learner?.close();
      if (!options.store) await store.close();
    },
  };
}
