import type { Config } from '../config.js';
import type { Model } from '../model/model-client.js';
import type { Db } from '../store/database.js';
import { claimSlot, finishSlot } from '../store/periodic-repository.js';

/** What a periodic job is given when it runs. */
export interface PeriodicContext {
  db: Db;
  config: Config;
  /** The clock the job's work reads (tests move it); slots follow the wall clock. */
  now: () => Date;
  /** The process's optional model (ENGRAM_LLM_*), for jobs that use it. */
  model?: Model | null;
}

/** A job that runs once per cluster in each slot of time, whichever process gets there first. */
export interface PeriodicJob {
  /** Unique name; registering a name again replaces the job. */
  name: string;
  /** Runs once in every window of this many milliseconds (windows start at the epoch). */
  everyMs?: number;
  /** Or runs once a day, at or after this time of day in UTC ("HH:MM"). */
  dailyAt?: string;
  /** The work. Its error is kept on the run's row and logged; the next slot runs again. */
  run(context: PeriodicContext): Promise<unknown>;
  /** A run that started this long ago and never finished (its process died) may be run again; 15 minutes by default. */
  staleMs?: number;
}

const registry = new Map<string, PeriodicJob>();

/**
 * Registers a job that the periodic runner of every Engram process ticks, and that runs
 * once per cluster per slot (a row in `periodic_runs`, claimed by whichever process inserts it).
 * @example registerPeriodic({ name: 'memory-health', dailyAt: '03:00', run: ({ db }) => testMemories(db) })
 */
export function registerPeriodic(job: PeriodicJob): void {
  if ((job.everyMs === undefined) === (job.dailyAt === undefined)) throw new Error(`periodic job ${job.name}: give everyMs or dailyAt`);
  if (job.everyMs !== undefined && !(job.everyMs >= 1)) throw new Error(`periodic job ${job.name}: everyMs must be at least 1`);
  if (job.dailyAt !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(job.dailyAt)) {
    throw new Error(`periodic job ${job.name}: dailyAt is "HH:MM" in UTC`);
  }
  registry.set(job.name, job);
}

/** The registered periodic jobs. */
export function periodicJobs(): PeriodicJob[] {
  return [...registry.values()];
}

/**
 * The slot a job is due in at `now`, or null before a daily job's first time: the window
 * number for `everyMs`, the day (of the last time of day passed) for `dailyAt`.
 */
export function slotOf(job: PeriodicJob, now: Date): string | null {
  if (job.everyMs !== undefined) return String(Math.floor(now.getTime() / job.everyMs));
  const [hours, minutes] = job.dailyAt!.split(':').map(Number) as [number, number];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hours, minutes);
  const day = now.getTime() >= today ? new Date(today) : new Date(today - 86_400_000);
  return day.toISOString().slice(0, 10);
}

/** Options of a periodic runner. */
export interface PeriodicRunnerOptions {
  /** Who runs (kept on the claimed rows). */
  owner: string;
  /** How often to look for due jobs, in milliseconds. */
  tickMs: number;
  /** This process's own jobs (built on its config), run beside the registered ones. */
  jobs?: PeriodicJob[];
  onError?: (error: unknown, job: PeriodicJob) => void;
}

/**
 * Ticks the registered periodic jobs in one process. Every process of a cluster runs one;
 * the slot rows make each job run once per slot across all of them.
 */
export class PeriodicRunner {
  #timer: NodeJS.Timeout | null = null;
  #tried = new Map<string, string>();
  readonly #runs = new Map<string, Promise<void>>();

  constructor(
    private readonly context: PeriodicContext,
    private readonly options: PeriodicRunnerOptions,
  ) {}

  /** Starts ticking (the first tick at once). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick(), this.options.tickMs);
    this.#timer.unref();
    void this.tick();
  }

  /** Stops ticking and waits for the runs under way. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await Promise.all(this.#runs.values());
  }

  /**
   * Starts every registered job whose slot is due and not yet claimed. Each job runs on its
   * own: a slow one (the nightly memory test) never holds another's slot (the usage roll-over),
   * and a job still running is not started again.
   */
  async tick(): Promise<void> {
    for (const job of [...(this.options.jobs ?? []), ...periodicJobs()]) {
      if (this.#runs.has(job.name)) continue;
      const run = this.#runJob(job).finally(() => this.#runs.delete(job.name));
      this.#runs.set(job.name, run);
    }
    await Promise.all(this.#runs.values());
  }

  async #runJob(job: PeriodicJob): Promise<void> {
    // Slots follow the wall clock; the context's clock (which tests move) is the jobs' business.
    const slot = slotOf(job, new Date());
    // Each process asks the store once per slot; the row decides who runs it.
    if (slot === null || this.#tried.get(job.name) === slot) return;
    try {
      if (!(await claimSlot(this.context.db, job.name, slot, this.options.owner, job.staleMs ?? 15 * 60_000))) {
        this.#tried.set(job.name, slot);
        return;
      }
      this.#tried.set(job.name, slot);
      let error: string | null = null;
      try {
        await job.run(this.context);
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
        this.options.onError?.(failure, job);
      }
      await finishSlot(this.context.db, job.name, slot, this.options.owner, error);
    } catch (failure) {
      // The store did not answer: the slot is tried again at the next tick.
      this.options.onError?.(failure, job);
    }
  }
}
