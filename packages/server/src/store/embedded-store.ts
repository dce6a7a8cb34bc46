import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import { serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { ThreadOptions, ThreadReply, ThreadRequest } from './embedded-thread.js';

interface Pending {
  onMessage(message: BackendMessage): void;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The embedded store (PGlite) running on a thread of its own (store/embedded-thread.ts): the
 * wire-protocol bytes node-postgres writes (through `ThreadConnection`) go to the thread, PGlite
 * runs them there, and its reply comes back in parts as PGlite writes it, each parsed here into
 * the messages node-postgres reads, as PGlite's own `execProtocolStream` does. A thread that
 * stops (or a statement that throws inside PGlite, which leaves it unusable) fails every pending
 * and later statement with `failure`.
 */
export class EmbeddedThread {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #parser = new Parser();
  #nextId = 0;
  #failure: Error | null = null;
  #closing: Promise<void> | null = null;
  #onClosed: (() => void) | null = null;

  constructor(options: ThreadOptions) {
    const entry = threadEntry();
    this.#worker = new Worker(entry.url, { workerData: options, eval: entry.eval });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (reply: ThreadReply) => {
        if (reply.type === 'ready') {
          this.#worker.unref();
          resolve();
        } else if (reply.type === 'failed') {
          this.#fail(new Error(`The embedded store could not open: ${reply.error}`));
          reject(this.#failure);
        } else if (reply.type === 'closed') {
          this.#onClosed?.();
        } else this.#answer(reply);
      });
      const stopped = (error: Error) => {
        this.#fail(error);
        reject(error);
      };
      this.#worker.on('error', (error) => stopped(new Error(`The embedded store's thread failed: ${error.message}`)));
      this.#worker.on('exit', (code) => {
        if (this.#closing) {
          this.#onClosed?.();
          stopped(new Error('The embedded store is closed'));
          return;
        }
        stopped(new Error(`The embedded store's thread stopped (exit code ${code}); restart the server`));
      });
    });
    // Handled by whoever awaits it (openStore); never an unhandled rejection meanwhile.
    this.waitReady.catch(() => {});
  }

  /** The thread (tests: the store runs there). */
  get worker(): Worker {
    return this.#worker;
  }

  /** Why the store can no longer run statements, once its thread has stopped or failed. */
  get failure(): Error | null {
    return this.#failure;
  }

  /**
   * Runs wire-protocol messages on the thread; `onMessage` gets each message of the reply as its
   * part arrives (rows are handed on while the thread still writes the rest), and the promise
   * resolves when the reply is complete.
   */
  run(bytes: Uint8Array, onMessage: (message: BackendMessage) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#failure) return reject(this.#failure);
      const id = this.#nextId++;
      this.#pending.set(id, { onMessage, resolve, reject });
      // A statement running keeps the process alive; an idle store does not.
      if (this.#pending.size === 1) this.#worker.ref();
      this.#post({ type: 'exec', id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  #answer(reply: Extract<ThreadReply, { id: number }>): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'chunk') {
      // Parsed as it comes, while the thread goes on (each reply holds whole messages in all).
      const bytes = Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.length);
      this.#parser.parse(bytes, pending.onMessage);
      return;
    }
    this.#pending.delete(reply.id);
    // Closing keeps it alive until PGlite has closed (a statement answered meanwhile must not unref it).
    if (this.#pending.size === 0 && !this.#closing) this.#worker.unref();
    if (reply.type === 'done') pending.resolve();
    else {
      // An exception out of PGlite (not an SQL error, which is a message of the reply) leaves
      // its WebAssembly in an unknown state: nothing more runs on it.
      const error = new Error(`The embedded store failed: ${reply.error}`);
      pending.reject(error);
      this.#fail(error);
      void this.#worker.terminate();
    }
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #post(request: ThreadRequest, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(request, transfer);
  }

  /** Closes PGlite on its thread (its files closed cleanly), then ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#failure) {
        this.#worker.ref();
        const closed = new Promise<void>((resolve) => {
          this.#onClosed = resolve;
        });
        this.#post({ type: 'close' });
        await closed;
      }
      this.#fail(new Error('The embedded store is closed'));
      await this.#worker.terminate();
    })();
    return this.#closing;
  }
}

/**
 * The one connection node-postgres has to the embedded store: what `@electric-sql/pglite/
 * node-postgres` gives a PGlite on the same thread, for `EmbeddedThread`. It hands node-postgres
 * each message of a reply as it is parsed, where PGlite's collects a statement's whole reply
 * first, so the messages of a statement of 100k rows are garbage as soon as node-postgres has
 * made its row of each (collected young) rather than all held until the last. Extended-protocol
 * messages that answer nothing until a Sync or Flush follows (Parse, Bind, Describe, Execute,
 * Close) are held and sent with it: a statement crosses to the thread once.
 */
class ThreadConnection extends EventEmitter {
  // What node-postgres's Client reads or sets on its connection.
  _connecting = false;
  readonly stream = { destroy: () => this.end() };
  parsedStatements = {};
  submittedNamedStatements = {};
  #queue: Promise<void>;
  #held: Uint8Array[] = [];
  #messages = false;

  constructor(private readonly thread: EmbeddedThread) {
    super();
    this.on('newListener', (name) => {
      if (name === 'message') this.#messages = true;
    });
    this.#queue = thread.waitReady.catch(() => {});
  }

  async connect(): Promise<void> {
    this._connecting = true;
    await this.thread.waitReady;
    process.nextTick(() => this.emit('readyForQuery'));
  }

  requestSsl(): void {}
  startup(): void {}
  cancel(): void {}
  password(): void {}
  ref(): void {}
  unref(): void {}
  sendSASLInitialResponseMessage(mechanism: string, response: string): void {
    this.#send(serialize.sendSASLInitialResponseMessage(mechanism, response));
  }
  sendSCRAMClientFinalMessage(response: string): void {
    this.#send(serialize.sendSCRAMClientFinalMessage(response));
  }
  query(text: string): void {
    this.#send(serialize.query(text));
  }
  parse(query: Parameters<typeof serialize.parse>[0]): void {
    this.#held.push(serialize.parse(query));
  }
  bind(config: Parameters<typeof serialize.bind>[0]): void {
    this.#held.push(serialize.bind(config));
  }
  execute(config: Parameters<typeof serialize.execute>[0]): void {
    this.#held.push(serialize.execute(config));
  }
  describe(message: Parameters<typeof serialize.describe>[0]): void {
    this.#held.push(serialize.describe(message));
  }
  close(message: Parameters<typeof serialize.close>[0]): void {
    this.#held.push(serialize.close(message));
  }
  flush(): void {
    this.#send(serialize.flush());
  }
  sync(): void {
    this.#send(serialize.sync());
  }
  sendCopyFromChunk(chunk: Buffer): void {
    this.#send(serialize.copyData(chunk));
  }
  endCopyFrom(): void {
    this.#send(serialize.copyDone());
  }
  sendCopyFail(message: string): void {
    this.#send(serialize.copyFail(message));
  }

  end(): void {
    this.#queue = this.#queue.then(() => {
      this.emit('end');
    });
    for (const name of this.eventNames()) if (name !== 'newListener') this.removeAllListeners(name);
    this.#messages = false;
  }

  #send(bytes: Uint8Array): void {
    this.#held.push(bytes);
    // Copied out of node-postgres's Buffers (which may share a pool) into one moved to the thread.
    const request = concat(this.#held);
    this.#held = [];
    this.#queue = this.#queue
      .then(() =>
        this.thread.run(request, (message) => {
          if (this.#messages) this.emit('message', message);
          this.emit(message.name === 'error' ? 'errorMessage' : message.name, message);
        }),
      )
      .catch((error) => {
        this.emit('error', error);
      });
  }
}

/** node-postgres's configuration for the embedded store: one connection, to `thread`. */
export function pgConfigOf(thread: EmbeddedThread): pg.PoolConfig {
  return {
    max: 1,
    user: 'postgres',
    password: 'dummy',
    database: 'postgres',
    host: 'localhost',
    port: 5432,
    connection: new ThreadConnection(thread),
  } as pg.PoolConfig;
}

/**
 * The thread's entry: the built `embedded-thread.js` next to this file, or, running from sources
 * (tests, and anything run with tsx), `embedded-thread.ts` loaded through tsx's loader, which
 * the thread registers first (a worker's own `--import` does not apply to its entry on Node 20).
 */
function threadEntry(): { url: URL | string; eval: boolean } {
  const built = new URL('./embedded-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { url: built, eval: false };
  const tsx = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs'),
  ).href;
  const source = new URL('./embedded-thread.ts', import.meta.url).href;
  return { url: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`, eval: true };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  // Always a fresh buffer: node-postgres writes into pooled Buffers, which must not be transferred.
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
