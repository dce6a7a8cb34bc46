import { parentPort } from 'node:worker_threads';
import { factsOf } from './facts-of.js';
import type { LearnableSource } from './facts-of.js';

/**
 * A learner thread (see pool.ts): it turns each source it is sent into facts and sends them
 * back, so that the API's own thread never does the learner's CPU work.
 */
parentPort?.on('message', async (task: { id: number; source: LearnableSource }) => {
  try {
    parentPort!.postMessage({ id: task.id, result: await factsOf(task.source) });
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
