import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { factsOf } from './facts-of.js';
import type { LearnableSource, SourceFacts } from './facts-of.js';

/** Turns a source into facts: in learner threads (`LearnerPool`) or on the calling thread (`factsOf`). */
export type LearnFacts = (source: LearnableSource) => Promise<SourceFacts>;

interface Task {
  id: number;
  source: LearnableSource;
  resolve: (facts: SourceFacts) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  task: Task | null;
}

/**
 * Threads that run the offline learner (tagging, dates, wording: pure CPU work), so that a
 * large note or a long conversation never holds the thread that answers API requests. Each
 * thread learns one source at a time; sources wait their turn in order. A thread that dies
 * fails its source's attempt (the job is retried) and is replaced on the next source.
 */
export class LearnerPool {
  readonly #threads: Thread[] = [];
  readonly #waiting: Task[] = [];
  #nextId = 0;
  #closed = false;

  constructor(
    private readonly size: number,
    private readonly entry: URL,
  ) {}

  /** The facts of a source, learned on one of the pool's threads. */
  learn: LearnFacts = (source) =>
    new Promise<SourceFacts>((resolve, reject) => {
      if (this.#closed) return reject(new Error('The learner threads are closed'));
      this.#waiting.push({ id: this.#nextId++, source, resolve, reject });
      this.#dispatch();
    });

  #dispatch(): void {
    while (this.#waiting.length) {
      let thread = this.#threads.find((candidate) => candidate.task === null);
      if (!thread && this.#threads.length < this.size) thread = this.#spawn();
      if (!thread) return;
      const task = this.#waiting.shift()!;
      thread.task = task;
      thread.worker.ref();
      thread.worker.postMessage({ id: task.id, source: task.source });
    }
  }

  #spawn(): Thread {
    const thread: Thread = { worker: new Worker(this.entry), task: null };
    thread.worker.on('message', (message: { id: number; result?: SourceFacts; error?: string }) => {
      const task = thread.task;
      if (!task || task.id !== message.id) return;
      thread.task = null;
      // An idle thread does not keep the process alive.
      thread.worker.unref();
      if (message.error !== undefined) task.reject(new Error(message.error));
      else task.resolve(message.result!);
      this.#dispatch();
    });
    const lost = (error: Error) => {
      const index = this.#threads.indexOf(thread);
      if (index !== -1) this.#threads.splice(index, 1);
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

  /** Stops the threads; sources still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const task of this.#waiting.splice(0)) task.reject(new Error('The learner threads are closed'));
    await Promise.all(this.#threads.splice(0).map((thread) => thread.worker.terminate()));
  }
}

/**
 * How this process learns: `threads` learner threads when the built thread entry is there
 * (`dist/learn/thread.js`), else on the calling thread (0 threads, or running from sources).
 */
export function learnerFor(threads: number): { learn: LearnFacts; close(): Promise<void>; threads: number } {
  const entry = new URL('./thread.js', import.meta.url);
  if (threads > 0 && entry.protocol === 'file:' && existsSync(fileURLToPath(entry))) {
    const pool = new LearnerPool(threads, entry);
    return { learn: pool.learn, close: () => pool.close(), threads };
  }
  return { learn: factsOf, close: async () => {}, threads: 0 };
}
