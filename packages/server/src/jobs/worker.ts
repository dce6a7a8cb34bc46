import { randomUUID } from 'node:crypto';
import type { Db } from '../store/database.js';
import { learnSource } from './learn-source.js';
import { claimJob, failJob } from './queue.js';
import type { Job } from './queue.js';

/** Options of a learning worker. */
export interface WorkerOptions {
  /** How long to sleep when no job is due, in milliseconds. */
  pollMs: number;
  /** Called with errors the loop itself hits (not a job's failure, which is recorded on the job). */
  onError?: (error: unknown) => void;
  /** What a job does; learning a source by default. */
  run?: (db: Db, job: Job) => Promise<void>;
  /** Housekeeping when no job is due (releasing waiting sources), at most once per `idleEveryMs`. */
  onIdle?: () => Promise<unknown>;
  idleEveryMs?: number;
}

/**
 * Takes learning jobs from the queue one at a time until stopped. Several workers,
 * in one process or many, share the queue safely.
 */
export class Worker {
  readonly id = `worker_${randomUUID()}`;
  #running = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #idleAt = 0;

  constructor(
    private readonly db: Db,
    private readonly options: WorkerOptions,
  ) {}

  /** Starts the loop. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks for work now instead of at the next poll (a source was just added). */
  poke(): void {
    this.#wake?.();
  }

  /** Stops after the job in hand, if any. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  /** Runs due jobs until none is left; returns how many ran. Used by tests and `engram worker --once`. */
  async drain(): Promise<number> {
    let ran = 0;
    while (await this.#runOne()) ran += 1;
    return ran;
  }

  async #runOne(): Promise<boolean> {
    const job = await claimJob(this.db, this.id);
    if (!job) return false;
    try {
      await (this.options.run ?? learnSource)(this.db, job);
    } catch (error) {
      await failJob(this.db, job, error instanceof Error ? error : new Error(String(error)));
    }
    return true;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let worked = false;
      try {
        worked = await this.#runOne();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (worked || !this.#running) continue;
      if (this.options.onIdle && Date.now() - this.#idleAt >= (this.options.idleEveryMs ?? 5_000)) {
        this.#idleAt = Date.now();
        try {
          if (await this.options.onIdle()) continue;
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = null;
    }
  }
}
