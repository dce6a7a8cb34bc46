import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { ThreadOptions, ThreadReply, ThreadRequest } from './embedded-thread.js';

/**
 * Extended-protocol messages that answer nothing until a Sync or a Flush follows (Parse, Bind,
 * Describe, Execute, Close): they are held and sent with it, so that a statement crosses to the
 * thread once, not once per message.
 */
const HELD = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);

interface Pending {
  messages: BackendMessage[];
  resolve(messages: BackendMessage[]): void;
  reject(error: Error): void;
}

/**
 * The embedded store (PGlite) running on a thread of its own (store/embedded-thread.ts). On this
 * thread it stands in for the PGlite object that `@electric-sql/pglite/node-postgres` drives,
 * which uses just `waitReady` and `execProtocolStream`: the wire-protocol bytes node-postgres
 * writes go to the thread, PGlite runs them there, and its reply bytes come back and are parsed
 * here into the messages node-postgres reads, as PGlite's own `execProtocolStream` does. A thread
 * that stops (or a statement that throws inside PGlite, which leaves it unusable) fails every
 * pending and later statement with `failure`.
 */
export class EmbeddedThread {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #parser = new Parser();
  #held: Uint8Array[] = [];
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

  /** What PGlite's `execProtocolStream(bytes, { throwOnError: false })` answers, run on the thread. */
  async execProtocolStream(bytes: Uint8Array, _options?: { throwOnError?: boolean }): Promise<BackendMessage[]> {
    if (this.#failure) throw this.#failure;
    if (HELD.has(bytes[0]!)) {
      this.#held.push(bytes);
      return [];
    }
    const held = this.#held;
    this.#held = [];
    held.push(bytes);
    return this.#exec(concat(held));
  }

  #exec(bytes: Uint8Array): Promise<BackendMessage[]> {
    return new Promise((resolve, reject) => {
      if (this.#failure) return reject(this.#failure);
      const id = this.#nextId++;
      this.#pending.set(id, { messages: [], resolve, reject });
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
      this.#parser.parse(bytes, (message) => pending.messages.push(message));
      return;
    }
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.type === 'done') pending.resolve(pending.messages);
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
