import { readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the calling thread's scheduling priority to `nice` (1 to 19; 0 does nothing, nor does a
 * `nice` the thread is already at or below, which only a privileged process could raise). On Linux
 * every thread is a task of its own whose priority `setpriority` sets by its id, read from
 * `/proc/thread-self/stat`; the process's other threads keep theirs. Where there is no such file
 * (another system) it does nothing, since lowering the whole process would slow the requests too.
 * Returns whether the priority was set.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (!Number.isInteger(nice) || nice <= 0) return false;
  let threadId: number;
  try {
    threadId = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(threadId) || threadId <= 0) return false;
  try {
    const target = Math.min(nice, 19);
    if (getPriority(threadId) >= target) return false;
    setPriority(threadId, target);
    return true;
  } catch {
    // Not allowed here (a sandbox without setpriority): the thread keeps the process's priority.
    return false;
  }
}
