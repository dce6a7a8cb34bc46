import { EventEmitter } from 'node:events';
import { type ResourceLimits, Worker, type WorkerOptions } from 'node:worker_threads';
import pg from 'pg';
import { serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { StatementOrder } from './statement-order.js';

/** What the embedded store's thread (store/embedded-thread.mjs) is started with. */
export interface ThreadOptions {
  dataDir: string;
  /** PostgreSQL's shared_buffers (e.g. '32MB'); PGlite's default (128MB) when absent. */
  sharedBuffers?: string;
  /** V8 limits of the thread's heap (`new Worker`'s `resourceLimits`); V8's defaults when absent. */
  resourceLimits?: ResourceLimits;
}

/** What the server asks the thread. */
export type ThreadRequest = { type: 'exec'; id: number; bytes: Uint8Array } | { type: 'close' };

/** What the thread answers: once started, then one reply per request. */
export type ThreadReply =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  /** Part of a request's reply, sent as PGlite writes it (a statement's rows are parsed meanwhile). */
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  /** The request's reply is complete: its last part (or its whole reply, when short) with it. */
  | { type: 'done'; id: number; bytes: Uint8Array }
  /** PGlite threw (not an SQL error, which is a message of the reply). */
  | { type: 'error'; id: number; error: string }
  | { type: 'closed'; error?: string };

interface Pending {
  onMessage(message: BackendMessage): void;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The embedded store (PGlite) running on a thread of its own (store/embedded-thread.mjs): the
 * wire-protocol bytes node-postgres writes (through `ThreadConnection`) go to the thread, PGlite
 * runs them there, and its reply comes back in parts as PGlite writes it, each parsed here into
 * the messages node-postgres reads, as PGlite's own `execProtocolStream` does. A thread that
 * stops (or a statement that throws inside PGlite, which leaves it unusable) fails every pending
 * and later statement with `failure`.
 */
export class EmbeddedThread {
  readonly waitReady: Promise<void>;
  /** The order the connections' statements reach the one session in (store/statement-order.ts). */
  readonly order = new StatementOrder();
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #parser = new Parser();
  #nextId = 0;
  #failure: Error | null = null;
  #closing: Promise<void> | null = null;
  #onClosed: (() => void) | null = null;

  constructor(options: ThreadOptions) {
    // Plain JavaScript beside this file, in the sources and in the build alike.
    const { resourceLimits, ...workerData } = options;
    this.#worker = startThread(new URL('./embedded-thread.mjs', import.meta.url), { workerData, resourceLimits });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (reply: ThreadReply) => {
        if (reply.type === 'ready') {
          // An idle store does not keep the process alive; a statement running does (run).
          if (this.#pending.size === 0 && !this.#closing) this.#worker.unref();
          resolve();
        } else if (reply.type === 'failed') {
          this.#fail(new Error(`The embedded store could not open: ${reply.error}`));
          reject(this.#failure);
          void this.#worker.terminate();
        } else if (reply.type === 'closed') {
          this.#onClosed?.();
        } else this.#answer(reply);
      });
      const stopped = (error: Error) => {
        this.#fail(error);
        reject(this.#failure);
      };
      this.#worker.on('error', (error) => stopped(new Error(`The embedded store's thread failed: ${error.message}`)));
      this.#worker.on('exit', (code) => {
        this.#onClosed?.();
        if (this.#closing) stopped(new Error('The embedded store is closed'));
        else stopped(new Error(`The embedded store's thread stopped (exit code ${code}); restart the server`));
      });
    });
    // Handled by whoever awaits it (openStore); never an unhandled rejection meanwhile.
    this.waitReady.catch(() => {});
  }

  /** The thread (tests: the store runs there). */
  get worker(): Worker {
    return this.#worker;
  }

  /** How many statements are posted to the thread and not yet answered in full (tests). */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Why the store can no longer run statements, once its thread has stopped or failed. */
  get failure(): Error | null {
    return this.#failure;
  }

  /**
   * Runs wire-protocol messages on the thread; `onMessage` gets each message of the reply as its
   * part arrives (rows are handed on while the thread still writes the rest), and the promise
   * resolves when the reply is complete. `bytes` is moved to the thread (its buffer is detached).
   */
  run(bytes: Uint8Array, onMessage: (message: BackendMessage) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#failure) return reject(this.#failure);
      const id = this.#nextId++;
      this.#pending.set(id, { onMessage, resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#post({ type: 'exec', id, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  #answer(reply: Extract<ThreadReply, { id: number }>): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'chunk') {
      // Parsed as it comes, while the thread goes on; a message cut between two parts is kept
      // by the parser until the rest comes.
      this.#parser.parse(asBuffer(reply.bytes), pending.onMessage);
      return;
    }
    if (reply.type === 'done' && reply.bytes.length) this.#parser.parse(asBuffer(reply.bytes), pending.onMessage);
    this.#pending.delete(reply.id);
    // Closing keeps the thread referenced until PGlite has closed (a statement answered
    // meanwhile must not let the process end first).
    if (this.#pending.size === 0 && !this.#closing) this.#worker.unref();
    if (reply.type === 'done') pending.resolve();
    else {
      // An exception out of PGlite leaves its WebAssembly in an unknown state: nothing more runs on it.
      const error = new Error(`The embedded store failed: ${reply.error}`);
      pending.reject(error);
      this.#fail(error);
      void this.#worker.terminate();
    }
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    // Said once in the process's log (a store closed on purpose says nothing); every statement
    // from now on fails with it.
    if (!this.#closing) console.error(`[engram] ${error.message}`);
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
 * A node-postgres connection to the embedded store: what `@electric-sql/pglite/node-postgres`
 * gives a PGlite on the same thread, for `EmbeddedThread`. It hands node-postgres each message of
 * a reply as it is parsed, where PGlite's collects a statement's whole reply first, so the
 * messages of a statement of many rows are garbage as soon as node-postgres has made its row of
 * each rather than all held until the last. Extended-protocol messages that answer nothing until
 * a Sync or Flush follows (Parse, Bind, Describe, Execute, Close) are held and sent with it: a
 * statement crosses to the thread once. Several connections share the thread's one session;
 * their statements reach it in the order `EmbeddedThread.order` keeps (a transaction has the
 * session to itself), and each prepares its own named statements (`prepareSuffix`).
 */
export class ThreadConnection extends EventEmitter {
  // What node-postgres's Client reads or sets on its connection.
  _connecting = false;
  readonly stream = { destroy: () => this.end() };
  parsedStatements = {};
  submittedNamedStatements = {};
  /** Whether this connection's statements are a request's (else background work's): set by whoever lends it. */
  urgent = true;
  /** The session's transaction status after this connection's last reply: idle (I), in a transaction (T) or in a failed one (E). */
  transactionStatus: 'I' | 'T' | 'E' = 'I';
  /** Added to the names of the statements this connection prepares: the session is shared, the names are per connection. */
  readonly prepareSuffix: string;
  #queue: Promise<void>;
  #held: Uint8Array[] = [];
  #messages = false;
  static #made = 0;

  constructor(private readonly thread: EmbeddedThread) {
    super();
    this.prepareSuffix = `_c${ThreadConnection.#made++}`;
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
    // One fresh buffer of the whole statement, moved (not copied) to the thread.
    const request = concat(this.#held);
    this.#held = [];
    const onMessage = (message: BackendMessage) => {
      if (message.name === 'readyForQuery') this.transactionStatus = (message as unknown as { status: 'I' | 'T' | 'E' }).status;
      if (this.#messages) this.emit('message', message);
      this.emit(message.name === 'error' ? 'errorMessage' : message.name, message);
    };
    this.#queue = this.#queue
      .then(() => this.thread.order.submit(this, this.urgent, () => this.thread.run(request, onMessage)))
      .catch((error) => {
        this.emit('error', error);
      });
  }
}

/** How many connections node-postgres keeps to the embedded store (statements they post run one after another). */
export const EMBEDDED_CONNECTIONS = 8;

/**
 * node-postgres's pool configuration for the embedded store: up to `EMBEDDED_CONNECTIONS`
 * connections to `thread`, each a `ThreadConnection` of its own, kept open while idle.
 */
export function poolConfigOf(thread: EmbeddedThread): pg.PoolConfig {
  class ThreadClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      // `connection` is how node-postgres takes a connection made elsewhere (PGlite's adapter does the same).
      super({ ...config, connection: new ThreadConnection(thread) } as pg.ClientConfig);
    }
  }
  return {
    max: EMBEDDED_CONNECTIONS,
    idleTimeoutMillis: 0,
    user: 'postgres',
    password: 'dummy',
    database: 'postgres',
    host: 'localhost',
    port: 5432,
    Client: ThreadClient,
  };
}

const threads = new WeakMap<object, EmbeddedThread>();

/** Records which thread `store` runs on (store/database.ts). */
export function recordThread(store: object, thread: EmbeddedThread): void {
  threads.set(store, thread);
}

/** The thread an embedded store runs on (tests). */
export function embeddedThreadOf(store: object): EmbeddedThread | undefined {
  return threads.get(store);
}

/**
 * A thread started with the process's Node flags (a loader given with --import, say) but those a
 * thread refuses in a list of its own: --input-type, which applies to `node -e` code only and
 * would stop the store of a server started that way, and the V8 and process-wide flags
 * (`node --max-semi-space-size=4`, `--title`), which already act on the whole process. Node names
 * the flags it refuses; they are left out and the thread started again.
 */
function startThread(url: URL, options: WorkerOptions): Worker {
  const argv: string[] = [];
  for (let index = 0; index < process.execArgv.length; index++) {
    const arg = process.execArgv[index]!;
    if (arg === '--input-type') index++;
    else if (!arg.startsWith('--input-type=')) argv.push(arg);
  }
  try {
    return new Worker(url, { ...options, execArgv: argv });
  } catch (error) {
    const refused = refusedFlags(error);
    if (!refused) throw error;
    return new Worker(url, { ...options, execArgv: argv.filter((arg) => !refused.has(arg)) });
  }
}

/** The flags a `new Worker` refused (ERR_WORKER_INVALID_EXEC_ARGV lists them), or null for any other error. */
function refusedFlags(error: unknown): Set<string> | null {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return null;
  const message = String((error as Error).message);
  const listed = message.slice(message.indexOf(': ') + 2);
  return new Set(listed.split(', ').filter((flag) => flag.startsWith('-')));
}

/** The thread's bytes as a Buffer over the same memory (node-postgres's parser reads Buffers), not a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  // Always a fresh buffer: node-postgres may write into pooled Buffers, which must not be moved.
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
