import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../store/database.js';
import type { Job } from '../store/queue-repository.js';
import { claimJob, DEFAULT_LEASE_SECONDS, failJob, releaseJob, renewLeases } from '../store/queue-repository.js';

/** Options of a learning worker. */
export interface WorkerOptions {
  /** How long to sleep when no job is due, in milliseconds. */
  pollMs: number;
  /** Called with errors the loop itself hits (not a job's failure, which is recorded on the job). */
  onError?: (error: unknown) => void;
  /** What a job does (learning its source: operations/learn-source.ts). */
  run: (db: Db, job: Job) => Promise<unknown>;
  /** Housekeeping when no job is due, at most once per `idleEveryMs`. */
  onIdle?: () => Promise<unknown>;
  idleEveryMs?: number;
  /** How long a claimed job stays this worker's without a renewal, in seconds. */
  leaseSeconds?: number;
  /** How often the lease of the job in hand is renewed, in milliseconds (a third of the lease by default). */
  heartbeatMs?: number;
  /**
   * A wake-up (`poke`) of an idle worker waits until no other came for this long (a burst of
   * saves is stored before learning starts competing with it for the store), 10 ms by default...
   */
  wakeQuietMs?: number;
  /** ...but never longer than this after the first, 100 ms by default. */
  wakeMaxMs?: number;
}

/** A worker's id names its machine and process, so an operator can tell whose claim a job holds. */
const newWorkerId = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Takes learning jobs from the queue one at a time until stopped. Several workers,
 * in one process or many, share the queue safely. While it works on a job it renews the
 * job's lease, so that only a worker that died (or stalled past its lease) loses its job.
 */
export class Worker {
  readonly id = newWorkerId();
  #running = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #wakeTimer: NodeJS.Timeout | null = null;
  #firstPoke = 0;
  #idleAt = 0;
  #inHand: { job: Job; done: Promise<void> } | null = null;

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

  /**
   * Looks for work soon instead of at the next poll (a source was just added): once no other
   * wake-up came for `wakeQuietMs`, or `wakeMaxMs` after the first. A worker at work already
   * takes the next job when it is done, and a poke then costs nothing.
   */
  poke(): void {
    if (!this.#wake) return;
    const quiet = this.options.wakeQuietMs ?? 10;
    const most = this.options.wakeMaxMs ?? 100;
    const now = Date.now();
    if (!this.#wakeTimer) this.#firstPoke = now;
    else clearTimeout(this.#wakeTimer);
    const delay = Math.max(0, Math.min(quiet, this.#firstPoke + most - now));
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = null;
      this.#wake?.();
    }, delay);
    this.#wakeTimer.unref();
  }

  /**
   * Stops taking jobs and waits for the job in hand. With a deadline, a job still running
   * when it passes is given back (its attempt not counted) so another worker takes it at once.
   */
  async stop(deadlineMs?: number): Promise<void> {
    this.#running = false;
    this.#wake?.();
    if (deadlineMs === undefined || !this.#loop) {
      await this.#loop;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), deadlineMs);
    });
    const outcome = await Promise.race([this.#loop.then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late' && this.#inHand) {
      try {
        await releaseJob(this.db, this.#inHand.job);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  /** Runs due jobs until none is left; returns how many ran. Used by tests and `engram worker --once`. */
  async drain(): Promise<number> {
    let ran = 0;
    while (await this.#runOne()) ran += 1;
    return ran;
  }

  async #runOne(): Promise<boolean> {
    const leaseSeconds = this.options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    const job = await claimJob(this.db, this.id, leaseSeconds);
    if (!job) return false;
    const heartbeat = setInterval(
      () => {
        renewLeases(this.db, this.id, [job.id], leaseSeconds).catch((error: unknown) => this.options.onError?.(error));
      },
      this.options.heartbeatMs ?? (leaseSeconds * 1_000) / 3,
    );
    const done = (async () => {
      try {
        await this.options.run(this.db, job);
      } catch (error) {
        await failJob(this.db, job, error instanceof Error ? error : new Error(String(error)));
      }
    })();
    this.#inHand = { job, done };
    try {
      await done;
    } finally {
      clearInterval(heartbeat);
      this.#inHand = null;
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
        const done = () => {
          clearTimeout(timer);
          if (this.#wakeTimer) clearTimeout(this.#wakeTimer);
          this.#wakeTimer = null;
          resolve();
        };
        const timer = setTimeout(done, this.options.pollMs);
        this.#wake = done;
      });
      this.#wake = null;
    }
  }
}
