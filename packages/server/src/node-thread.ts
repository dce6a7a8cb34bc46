/**
 * The thread `engram serve` and `engram worker` run Engram on (node:worker_threads): the API, the
 * workers, the recall copies and the libraries they read all live here, and the process's main
 * thread (cli.ts) only starts it, hands it the operator's signals and prints what it says.
 *
 * Why a thread: its V8 heap can be given a small young generation (`resourceLimits`), which a
 * main thread cannot be given from inside the process (V8 sizes it before any code runs; only
 * `node --max-semi-space-size` can). With V8's default, the API's young generation grows to two
 * 16 MB semi-spaces at start and stays there, and under load the old generation fills with what
 * the larger nursery let live long enough to be promoted (docs/benchmarks.md, "Memory: the API
 * on a thread of its own").
 */
import { parentPort, workerData } from 'node:worker_threads';

/** What cli.ts asks of the thread: which command, with its flags already checked. */
export interface NodeThreadData {
  command: 'serve' | 'worker';
  /** `--no-workers`. */
  noWorkers: boolean;
  /** `--concurrency N`, when given. */
  concurrency: number | undefined;
}

/** What the thread tells cli.ts, in the order it happens (one port, so in that order). */
export type NodeThreadMessage =
  /** A line for the operator (the first start's key, a warning, the banner), written to stderr. */
  | { type: 'notice'; text: string }
  /** Started: the banner has been sent. */
  | { type: 'started' }
  /** Could not start (a bad setting, the port taken, the data directory held): one line, no stack. */
  | { type: 'failed'; message: string }
  /** Stopped after a 'stop', its store closed (`error` when stopping failed); the thread ends next. */
  | { type: 'stopped'; error?: string };

/** What cli.ts tells the thread. */
export type NodeThreadRequest = { type: 'stop' };

/**
 * The young generation of the thread Engram runs on, in MB (two semi-spaces and the young
 * large-object space: 8 MB semi-spaces). V8's default lets it grow to 48, which kept the idle
 * process some 15 MB larger; 12 (4 MB semi-spaces) collected so often under load that searches
 * from 32 callers ran 10 % slower, for the same idle size as 24 (docs/benchmarks.md, "The
 * embedded store's statements posted at once").
 */
export const NODE_YOUNG_GENERATION_MB = 24;

const asked = (workerData as { engramNode?: NodeThreadData } | null)?.engramNode;
if (parentPort && asked) void run(parentPort, asked);

async function run(to: NonNullable<typeof parentPort>, data: NodeThreadData): Promise<void> {
  const say = (message: NodeThreadMessage) => to.postMessage(message);
  const notice = (text: string) => say({ type: 'notice', text });
  let node: import('./server.js').RunningNode;
  try {
    const { loadConfig } = await import('./config.js');
    const config = loadConfig();
    const roles =
      data.command === 'serve'
        ? { api: true, workers: data.noWorkers ? 0 : (data.concurrency ?? config.workers) }
        : { api: false, workers: Math.max(1, data.concurrency ?? config.workers) };
    const { startNode } = await import('./server.js');
    node = await startNode(config, roles, {
      announceKey: (key) => notice(`Engram made the owner account. Its key, shown once:\n\n  ${key}\n\n`),
      warn: (message) => notice(`engram: warning: ${message}\n`),
    });
    const store = node.store.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';
    notice(
      roles.api
        ? `Engram is listening on ${node.url} (store: ${store}, workers: ${roles.workers}, learner threads: ${node.learnerThreads})\n`
        : `Engram workers running: ${roles.workers} (store: ${store}, learner threads: ${node.learnerThreads}, pid ${process.pid})\n`,
    );
    if (node.releasedClaims) notice(`Engram gave back ${node.releasedClaims} learning jobs its last run left unfinished\n`);
  } catch (error) {
    say({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  to.on('message', (request: NodeThreadRequest) => {
    if (request.type !== 'stop') return;
    node.close().then(
      () => {
        say({ type: 'stopped' });
        process.exit(0);
      },
      (error: unknown) => {
        say({ type: 'stopped', error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  });
  say({ type: 'started' });
}
