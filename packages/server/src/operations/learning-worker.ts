import type { WorkerOptions } from '../jobs/worker.js';
import { Worker } from '../jobs/worker.js';
import type { Db } from '../store/database.js';
import { learnSource } from './learn-source.js';

/** A worker's options as embedders give them: what a job does is learning its source unless told. */
export type LearningWorkerOptions = Omit<WorkerOptions, 'run'> & Partial<Pick<WorkerOptions, 'run'>>;

/**
 * The learning worker the package exports (as `Worker`): jobs/worker.ts's loop, running
 * `learnSource` on each job unless given another handler. `engram serve` and `engram worker`
 * give it the metered handler (operations/learn-source.ts `learnMetered`).
 */
export class LearningWorker extends Worker {
  constructor(db: Db, options: LearningWorkerOptions) {
    super(db, { ...options, run: options.run ?? ((db, job) => learnSource(db, job)) });
  }
}
