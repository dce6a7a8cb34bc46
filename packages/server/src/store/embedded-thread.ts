/**
 * The embedded store's thread (node:worker_threads): it owns the PGlite database and runs the
 * PostgreSQL wire-protocol messages the server's one connection sends (store/embedded-store.ts),
 * so that the WebAssembly executing a statement never holds the thread that answers HTTP
 * requests. It runs nothing of the server but PGlite.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** What the thread is started with. */
export interface ThreadOptions {
  dataDir: string;
  /** PostgreSQL's shared_buffers (e.g. '32MB'); PGlite's default (128MB) when absent. */
  sharedBuffers?: string;
}

/** What the server asks the thread. */
export type ThreadRequest = { type: 'exec'; id: number; bytes: Uint8Array } | { type: 'close' };

/** What the thread answers: once started, then one reply per request. */
export type ThreadReply =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  /** Part of a request's reply, sent as PGlite writes it (a statement's rows are parsed meanwhile). */
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  /** The request's reply is complete. */
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; error: string }
  | { type: 'closed' };

const port = parentPort!;
const options = workerData as ThreadOptions;
const send = (reply: ThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

let lite: PGlite;
try {
  // Durability (docs/deploy.md): relaxedDurability off and synchronous_commit on, so a commit's
  // WAL is written before its reply leaves this thread.
  lite = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    relaxedDurability: false,
    ...(options.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] } : {}),
  });
  await lite.exec('set synchronous_commit = on');
} catch (error) {
  send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

// One request at a time, in the order they came (the server sends one at a time anyway).
let queue = Promise.resolve();
port.on('message', (request: ThreadRequest) => {
  queue = queue.then(() => handle(request));
});

async function handle(request: ThreadRequest): Promise<void> {
  if (request.type === 'close') {
    try {
      await lite.close();
    } finally {
      send({ type: 'closed' });
    }
    return;
  }
  // The raw reply bytes, parsed by the caller: PGlite's own execProtocolStream is this plus the
  // parse, which runs on the server's thread (the messages are objects node-postgres reads). Each
  // part PGlite writes (up to its 1 MB buffer) is copied out of its memory and sent at once.
  try {
    await lite.execProtocolRawStream(request.bytes, {
      onRawData: (chunk) => {
        const bytes = chunk.slice();
        send({ type: 'chunk', id: request.id, bytes }, [bytes.buffer as ArrayBuffer]);
      },
    });
  } catch (error) {
    send({ type: 'error', id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return;
  }
  send({ type: 'done', id: request.id });
}

send({ type: 'ready' });
