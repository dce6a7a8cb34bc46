/**
 * The embedded store's thread (node:worker_threads): it owns the PGlite database and runs the
 * PostgreSQL wire-protocol messages the server's one connection sends (store/embedded-store.ts),
 * so that the WebAssembly executing a statement never holds the thread that answers HTTP
 * requests. It runs nothing of the server but PGlite.
 *
 * Plain JavaScript, kept beside the sources and copied into dist/store by the build
 * (scripts/copy-assets.mjs): a Worker loads it as it is, from the sources (tests) or the build.
 * Its messages are typed in store/embedded-store.ts (ThreadOptions, ThreadRequest, ThreadReply).
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = parentPort;
/** A reply's bytes gathered before they are sent on while the statement still runs. */
const STREAM_BYTES = 64 * 1024;
/** @type {{ dataDir: string; sharedBuffers?: string }} */
const options = workerData;
const send = (reply, transfer = []) => port.postMessage(reply, transfer);
/** V8 flags set before PGlite compiles its WebAssembly (below). */
const WASM_FLAGS = ['--wasm-lazy-compilation', '--no-liftoff'];
const message = (error) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

// PGlite's WebAssembly is compiled function by function when first called, straight with V8's
// optimising compiler (TurboFan), on this thread. By default V8 compiles them with its baseline
// compiler (Liftoff) first and then recompiles the functions that run often with TurboFan on its
// background threads: a large Postgres function takes tens of MB of compiler memory there, and
// glibc's malloc keeps what each of those threads freed (some 60 to 80 MB of the idle process).
// Compiled here, that memory is one thread's, reused from one function to the next; the code is
// the optimised code from the first call (learning and search as fast or faster), for about a
// second more at start. The flags are V8's, so they hold for the whole process, set before PGlite
// compiles (docs/benchmarks.md, "Memory: PGlite's WebAssembly compiled on the store's thread").
for (const flag of WASM_FLAGS) setFlagsFromString(flag);

let lite;
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
  send({ type: 'failed', error: message(error) });
  // Nothing left to wait for: the thread ends, and the server's side sees 'failed' first.
  port.close();
}

if (lite) {
  // One request at a time, in the order they came (the server sends one at a time anyway).
  let queue = Promise.resolve();
  port.on('message', (request) => {
    queue = queue.then(() => handle(request));
  });
  send({ type: 'ready' });
}

async function handle(request) {
  if (request.type === 'close') {
    try {
      await lite.close();
    } catch (error) {
      send({ type: 'closed', error: message(error) });
      return;
    }
    send({ type: 'closed' });
    return;
  }
  // The raw reply bytes, parsed by the caller: PGlite's own execProtocolStream is this plus the
  // parse, which runs on the server's thread (the messages are objects node-postgres reads). Each
  // part PGlite writes (up to its 1 MB buffer) is a view of its memory: copied out, and the copy
  // moved (not copied again) to the server's thread. Parts are gathered up to STREAM_BYTES and
  // the last ones go with 'done': a statement of a short reply (most: a save's, a key's) costs
  // one message each way, not two back; a long reply still streams as it is written.
  let parts = [];
  let size = 0;
  const gathered = () => {
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    parts = [];
    size = 0;
    return bytes;
  };
  try {
    await lite.execProtocolRawStream(request.bytes, {
      onRawData: (chunk) => {
        parts.push(chunk.slice());
        size += chunk.length;
        if (size >= STREAM_BYTES) {
          const bytes = gathered();
          send({ type: 'chunk', id: request.id, bytes }, [bytes.buffer]);
        }
      },
    });
  } catch (error) {
    send({ type: 'error', id: request.id, error: message(error) });
    return;
  }
  const bytes = gathered();
  send({ type: 'done', id: request.id, bytes }, [bytes.buffer]);
}
