import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { createAdaptorServer } from '@hono/node-server';
import type { Config } from './config.js';
import { createApp } from './http/app.js';
import { answerClientError } from './http/client-error.js';
import { RequestLog } from './http/request-log.js';
import { housekeepingJobs } from './jobs/housekeeping.js';
import { PeriodicRunner } from './jobs/periodic.js';
import { Worker } from './jobs/worker.js';
import { learnerFor } from './learn/pool.js';
import { learnMetered } from './operations/learn-source.js';
import { bootstrapOwner, checkBootstrapKey } from './store/account-repository.js';
import type { Store } from './store/database.js';
import { openStore } from './store/database.js';
import { memoryIndexOf } from './store/memory-index.js';
import { migrate } from './store/migrations.js';
import { releaseAllClaims } from './store/queue-repository.js';
import { recentRecallSpaces } from './store/request-log-repository.js';
import type { Scope } from './store/scope.js';

/** At most this many of the spaces recall was last asked of are warmed at start (within the copies' bound). */
const WARMED_SPACES = 100;

/** A running Engram process: its address (when it serves the API), its store, its workers, and a way to stop it. */
export interface RunningNode {
  /** Where the API listens; empty when this process runs workers only. */
  url: string;
  /** The API's port; 0 when this process runs workers only. */
  port: number;
  store: Store;
  workers: Worker[];
  /** Threads the learner runs on (0: the API's own thread, or no learner). */
  learnerThreads: number;
  /** The owner's key when this start made it (first start), else null. */
  bootstrapKey: string | null;
  /** Claims given back at start (embedded store: the claims of the process before it). */
  releasedClaims: number;
  /**
   * Stops: answers /readyz with 503, takes no new connections, lets requests in flight and
   * jobs in hand finish within `graceMs` (default ENGRAM_SHUTDOWN_MS), gives back jobs still
   * running then, and closes the store.
   */
  close(graceMs?: number): Promise<void>;
}

/** A running Engram that serves the API. */
export type RunningServer = RunningNode;

/** What a process runs. */
export interface NodeRoles {
  /** Serve the HTTP API. */
  api: boolean;
  /** Learning workers in this process (0: none). */
  workers: number;
}

/** Options for tests and embedders. */
export interface StartOptions {
  /** Use this store instead of opening one from the config. */
  store?: Store;
  /** The clock, for tests. */
  now?: () => Date;
  /** Where the first start's key goes; stderr by default. */
  announceKey?: (key: string) => void;
  /** Where warnings go (an ENGRAM_BOOTSTRAP_KEY that is not the owner's key); stderr by default. */
  warn?: (message: string) => void;
}

/** How long an idle connection is kept open. */
const KEEP_ALIVE_MS = 65_000;

/** The port is taken (or cannot be listened on): one line for the operator, no stack trace. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

/**
 * The one start path of `engram serve` and `engram worker`: opens the store, applies
 * migrations, makes the owner on first start, gives back stale claims when the store is
 * the embedded one (one process owns it), starts the workers, the periodic runner and,
 * when asked, the API.
 */
export async function startNode(config: Config, roles: NodeRoles, options: StartOptions = {}): Promise<RunningNode> {
  if (config.bootstrapKey !== null) checkBootstrapKey(config.bootstrapKey);
  const store = options.store ?? (await openStore(config, { command: roles.api ? 'serve' : 'worker' }));
  try {
    return await startOn(store, config, roles, options);
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }
}

async function startOn(store: Store, config: Config, roles: NodeRoles, options: StartOptions): Promise<RunningNode> {
  const now = options.now ?? (() => new Date());
  await migrate(store.db);
  const bootstrap = await bootstrapOwner(store.db, config.bootstrapKey);
  if (bootstrap?.generated) {
    (options.announceKey ?? ((key) => process.stderr.write(`Engram made the owner account. Its key, shown once:\n\n  ${key}\n\n`)))(
      bootstrap.key,
    );
  }
  if (bootstrap?.ignored) {
    (options.warn ?? ((message) => process.stderr.write(`engram: warning: ${message}\n`)))(
      'ENGRAM_BOOTSTRAP_KEY is not a key of any account: it is used only on the first start, when no account exists yet, ' +
        'and an account already exists. Use the key printed then, or make one with `engram keys create`.',
    );
  }
  // The embedded store has one owner: any claim in it is the previous run's, cut short.
  const releasedClaims = store.kind === 'pglite' ? await releaseAllClaims(store.db) : 0;
  memoryIndexOf(store.db).configure({ maxHeld: config.recallCacheMemories });
  // The learner runs on threads of its own, so that learning never holds the API's thread.
  const learner = roles.workers > 0 ? learnerFor(config.learnerThreads, { nice: config.learnerNice }) : null;
  // The optional model (ENGRAM_LLM_*): one per process, so its bounds on concurrency and rate hold for the process.
  // Its client (openai) loads only when a model is configured.
  const model = config.llm ? (await import('./model/model-client.js')).createModel(config.llm) : null;
  const meter = { db: store.background, config, now, learn: learner?.learn, parsers: learner?.parsers, model };
  const onError = (error: unknown) => console.error('[engram] worker:', error);
  const workers = Array.from(
    { length: roles.workers },
    () =>
      new Worker(store.background, {
        pollMs: config.pollMs,
        run: async (_db, job) => {
          await learnMetered(meter, job);
          const scope = { accountId: job.accountId, space: job.space };
          // The API's copy of the space's index (when it holds one) catches up now, not at the next search,
          // and so do other API processes' copies (on PostgreSQL: store/signals.ts).
          memoryIndexOf(store.db).keepUp(store.db, scope);
          store.signals?.learned(scope);
        },
        leaseSeconds: config.leaseSeconds,
        heartbeatMs: config.heartbeatMs,
        onError,
      }),
  );
  const periodic = new PeriodicRunner(
    { db: store.background, config, now, model },
    {
      owner: `${hostname()}:${process.pid}`,
      tickMs: config.periodicTickMs,
      jobs: housekeepingJobs(config),
      onError: (error, job) => console.error(`[engram] periodic job ${job.name}:`, error),
    },
  );
  let stopping = false;
  let server: HttpServer | null = null;
  // The request log (the console's requests page) is written by the process that answers requests.
  const requestLog = roles.api ? new RequestLog(store.db, { days: config.requestLogDays }) : null;
  if (roles.api && requestLog) {
    const app = createApp({
      db: store.db,
      requestLog,
      config,
      now: options.now,
      model,
      // This process's idle workers look for the new job at once, and other processes' too (on PostgreSQL).
      onSourceAdded: () => {
        for (const worker of workers) worker.poke();
        store.signals?.queued();
      },
      stopping: () => stopping,
    });
    server = await listen(createAdaptorServer({ fetch: app.fetch, hostname: config.host }) as HttpServer, config);
  }
  workers.forEach((worker) => worker.start());
  periodic.start();
  const unsubscribe = listenToOthers(store, config, roles, workers);
  // The spaces recall was last asked of get their index copies back in the background (requests go
  // first), so that the first search of each after a restart does not wait for a build: about 2 s
  // at 100k memories.
  if (roles.api && config.recallCacheMemories > 0) {
    void recentRecallSpaces(store.background, { limit: WARMED_SPACES })
      .then((spaces) => memoryIndexOf(store.db).warm(store.background, spaces))
      .catch((error: unknown) => {
        if (!stopping) console.error('[engram] warming the recall copies:', error);
      });
  }
  const port = server ? (server.address() as AddressInfo).port : 0;
  let closing: Promise<void> | null = null;
  return {
    url: server ? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}` : '',
    port,
    store,
    workers,
    learnerThreads: learner?.threads ?? 0,
    bootstrapKey: bootstrap?.key ?? null,
    releasedClaims,
    close(graceMs = config.shutdownMs) {
      closing ??= (async () => {
        stopping = true;
        unsubscribe();
        const deadline = Date.now() + graceMs;
        const listening = server;
        const closed = listening
          ? new Promise<void>((resolve) => {
              listening.close(() => resolve());
              // Idle keep-alive sockets go now; requests in flight may finish until the deadline.
              (listening as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
            })
          : Promise.resolve();
        const cut = setTimeout(
          () => (listening as unknown as { closeAllConnections?: () => void } | null)?.closeAllConnections?.(),
          graceMs,
        );
        await Promise.all([closed, ...workers.map((worker) => worker.stop(Math.max(0, deadline - Date.now())))]);
        clearTimeout(cut);
        await requestLog?.close();
        await periodic.stop();
        await learner?.close();
        if (!options.store) await store.close();
      })();
      return closing;
    },
  };
}

/**
 * On PostgreSQL, what other processes sharing the store signal (store/signals.ts): an API process
 * that holds copies of spaces' indexes brings a copy up to date when another process learned
 * into its space, and idle workers look for jobs when another process queued sources (and once
 * whenever the listening connection comes back, for what was queued while it was down). A
 * process hears none of its own signals: it acts on what it does itself in-process. Returns
 * how to stop listening.
 */
function listenToOthers(store: Store, config: Config, roles: NodeRoles, workers: Worker[]): () => void {
  const holdsCopies = roles.api && config.recallCacheMemories > 0;
  if (!store.signals || (!holdsCopies && !workers.length)) return () => {};
  const poke = () => {
    for (const worker of workers) worker.poke();
  };
  const keepUp = (scope: Scope) => memoryIndexOf(store.db).keepUp(store.db, scope);
  return store.signals.subscribe({
    learned: holdsCopies ? keepUp : undefined,
    queued: workers.length ? poke : undefined,
    // Back after an outage (or up at start): what was learned or queued meanwhile was not heard.
    listening: () => {
      poke();
      if (holdsCopies) for (const scope of memoryIndexOf(store.db).heldScopes()) keepUp(scope);
    },
  });
}

/**
 * Starts Engram as `engram serve` does: the API, with the configured number of
 * in-process workers (ENGRAM_WORKERS).
 */
export function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  return startNode(config, { api: true, workers: config.workers }, options);
}

/** Listens on ENGRAM_HOST:ENGRAM_PORT; a port that is taken is one line for the operator (ListenError). */
async function listen(server: HttpServer, config: Config): Promise<HttpServer> {
  server.on('clientError', answerClientError);
  // Idle connections are kept longer than clients' pools keep them (undici: 4 s), so a client
  // never reuses a connection the server is just closing (a reset, not an answer).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      const where = `${config.host}:${config.port}`;
      reject(
        new ListenError(
          error.code === 'EADDRINUSE'
            ? `port ${config.port} is already in use on ${config.host}; stop what listens there or set ENGRAM_PORT to another port`
            : error.code === 'EACCES'
              ? `not allowed to listen on ${where}; choose a port above 1023 with ENGRAM_PORT`
              : `cannot listen on ${where}: ${error.message}`,
        ),
      );
    };
    server.once('error', refused);
    server.listen(config.port, config.host, () => {
      server.removeListener('error', refused);
      resolve();
    });
  });
  return server;
}
