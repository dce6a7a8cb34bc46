import { parentPort, workerData } from 'node:worker_threads';
import { extractDocument } from '../read/extract-document.js';
import { parsePage } from '../read/read-page.js';
import { UnreadableError } from '../read/unreadable.js';
import { factsOf } from './facts-of.js';
import type { ThreadTask } from './pool.js';
import { lowerThreadPriority } from './thread-priority.js';

/**
 * A learner thread (see pool.ts): it turns each source it is sent into facts, and each
 * fetched page or uploaded PDF or Word file into text, and sends them back, so that the API's own thread
 * never does that CPU work. It first lowers its own scheduling priority (`nice`, pool.ts).
 */
lowerThreadPriority((workerData as { nice?: number } | null)?.nice ?? 0);
parentPort?.on('message', async (task: ThreadTask & { id: number }) => {
  try {
    const result =
      task.type === 'facts'
        ? await factsOf(task.source)
        : task.type === 'document'
          ? await extractDocument(task.kind, task.bytes)
          : await parsePage(task.kind, task.bytes, task.charset);
    parentPort!.postMessage({ id: task.id, result });
  } catch (error) {
    parentPort!.postMessage({
      id: task.id,
      error: error instanceof Error ? error.message : String(error),
      unreadable: error instanceof UnreadableError ? { permanent: error.permanent } : undefined,
    });
  }
});
