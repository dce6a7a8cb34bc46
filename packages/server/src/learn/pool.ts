import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocumentKind } from '../read/extract-document.js';
import { extractDocument } from '../read/extract-document.js';
import type { ExtractedText } from '../read/extract-html.js';
import type { PageKind, ParsePage } from '../read/read-page.js';
import { parsePage } from '../read/read-page.js';
import type { Parsers, ReadDocument } from '../read/read-source.js';
import { UnreadableError } from '../read/unreadable.js';
import type { LearnableSource, SourceFacts } from './facts-of.js';
import { factsOf } from './facts-of.js';

/** Turns a source into facts: in learner threads (`LearnerPool`) or on the calling thread (`factsOf`). */
export type LearnFacts = (source: LearnableSource) => Promise<SourceFacts>;

/** What a learner thread is asked to do. */
export type ThreadTask =
  | { type: 'facts'; source: LearnableSource }
  | { type: 'document'; kind: DocumentKind; bytes: Uint8Array }
  | { type: 'page'; kind: PageKind; bytes: Uint8Array; charset: string | null };

/** What a learner thread answers. */
interface ThreadReply {
  id: number;
  result?: unknown;
  error?: string;
  /** Set when the error was an UnreadableError, with whether trying again could help. */
  unreadable?: { permanent: boolean };
}

interface Task {
  id: number;
  work: ThreadTask;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  task: Task | null;
  /** Stops the thread once it has been idle for `idleMs` (set while it has no task). */
  idleTimer: NodeJS.Timeout | null;
}

/** How a pool keeps its threads. */
export interface LearnerPoolOptions {
  /**
   * A thread with nothing to do for this long stops, giving back its heap and its copies of
   * the learner's libraries and tables (compromise's lexicon, the tokenizer's ranks, WordNet's
   * indexes, the page and document parsers: some 100 MB resident); the next task starts one
   * again (a few hundred ms of one core). 0 keeps threads once started.
   */
  idleMs?: number;
  /**
   * The threads' scheduling priority, as `nice` gives it (0 to 19, higher yields more; Linux,
   * where each thread has its own): with the CPU busy, the threads answering requests run
   * first and learning takes what they leave. 0 leaves the threads as the process is.
   */
  nice?: number;
}

/** How long an idle learner thread is kept before it stops. */
export const LEARNER_IDLE_MS = 30_000;

/**
 * Threads that run the offline learner (tagging, dates, wording: pure CPU work) and parse
 * fetched pages and uploaded PDF and Word files, so that a large note, a long conversation or
 * a big document never holds the thread that answers API requests. Each thread does one thing at a time;
 * the rest wait their turn in order. A thread that dies fails its source's attempt (the job
 * is retried) and is replaced on the next task.
 */
export class LearnerPool {
  readonly #threads: Thread[] = [];
  readonly #waiting: Task[] = [];
  #nextId = 0;
  #closed = false;

  readonly #idleMs: number;
  readonly #nice: number;

  constructor(
    private readonly size: number,
    private readonly entry: URL,
    options: LearnerPoolOptions = {},
  ) {
    this.#idleMs = options.idleMs ?? LEARNER_IDLE_MS;
    this.#nice = options.nice ?? 0;
  }

  /** Threads running now (started on demand, stopped when idle). */
  get running(): number {
    return this.#threads.length;
  }

  /** The facts of a source, learned on one of the pool's threads. */
  learn: LearnFacts = (source) => this.#submit({ type: 'facts', source }) as Promise<SourceFacts>;

  /** The text of an uploaded PDF or Word file, read on one of the pool's threads. */
  readDocument: ReadDocument = (kind, bytes) => this.#submit({ type: 'document', kind, bytes }) as Promise<ExtractedText>;

  /** The text of a fetched page's bytes, parsed on one of the pool's threads. */
  parsePage: ParsePage = (kind, bytes, charset) => this.#submit({ type: 'page', kind, bytes, charset }) as Promise<ExtractedText>;

  #submit(work: ThreadTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error('The learner threads are closed'));
      this.#waiting.push({ id: this.#nextId++, work, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#waiting.length) {
      let thread = this.#threads.find((candidate) => candidate.task === null);
      if (!thread && this.#threads.length < this.size) thread = this.#spawn();
      if (!thread) return;
      const task = this.#waiting.shift()!;
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      thread.idleTimer = null;
      thread.task = task;
      thread.worker.ref();
      thread.worker.postMessage({ id: task.id, ...task.work });
    }
  }

  #spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.entry, { workerData: { nice: this.#nice } }), task: null, idleTimer: null };
    thread.worker.on('message', (message: ThreadReply) => {
      const task = thread.task;
      if (!task || task.id !== message.id) return;
      thread.task = null;
      // An idle thread does not keep the process alive.
      thread.worker.unref();
      if (message.error === undefined) task.resolve(message.result);
      else if (message.unreadable) task.reject(new UnreadableError(message.error, { permanent: message.unreadable.permanent }));
      else task.reject(new Error(message.error));
      this.#dispatch();
      if (thread.task === null) this.#idle(thread);
    });
    const lost = (error: Error) => {
      const index = this.#threads.indexOf(thread);
      if (index !== -1) this.#threads.splice(index, 1);
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      thread.task?.reject(error);
      thread.task = null;
      if (!this.#closed) this.#dispatch();
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', (code) => lost(new Error(`A learner thread stopped (exit code ${code})`)));
    thread.worker.unref();
    this.#threads.push(thread);
    return thread;
  }

  /** Stops `thread` once it has had nothing to do for `idleMs`; a task given to it meanwhile keeps it. */
  #idle(thread: Thread): void {
    if (this.#idleMs <= 0 || this.#closed) return;
    thread.idleTimer = setTimeout(() => {
      thread.idleTimer = null;
      if (thread.task !== null || this.#closed) return;
      const index = this.#threads.indexOf(thread);
      if (index === -1) return;
      // Out of the pool first, so its exit is not taken for a lost thread.
      this.#threads.splice(index, 1);
      thread.worker.removeAllListeners('exit');
      thread.worker.removeAllListeners('error');
      thread.worker.on('error', () => {});
      void thread.worker.terminate();
    }, this.#idleMs);
    // A thread waiting to stop does not keep the process alive.
    thread.idleTimer.unref();
  }

  /** Stops the threads; sources still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#waiting.splice(0)) task.reject(new Error('The learner threads are closed'));
    await Promise.all(
      this.#threads.splice(0).map((thread) => {
        if (thread.idleTimer) clearTimeout(thread.idleTimer);
        return thread.worker.terminate();
      }),
    );
  }
}

/**
 * How this process learns: `threads` learner threads when the built thread entry is there
 * (`dist/learn/thread.js`), else on the calling thread (0 threads, or running from sources).
 */
export function learnerFor(threads: number, options: LearnerPoolOptions = {}): Learner {
  const entry = new URL('./thread.js', import.meta.url);
  if (threads > 0 && entry.protocol === 'file:' && existsSync(fileURLToPath(entry))) {
    const pool = new LearnerPool(threads, entry, options);
    return { learn: pool.learn, parsers: { document: pool.readDocument, page: pool.parsePage }, close: () => pool.close(), threads };
  }
  return { learn: factsOf, parsers: { document: extractDocument, page: parsePage }, close: async () => {}, threads: 0 };
}

/** Where a process learns and reads documents, and how many threads that takes (0: its own). */
export interface Learner {
  learn: LearnFacts;
  parsers: Required<Parsers>;
  close(): Promise<void>;
  threads: number;
}
