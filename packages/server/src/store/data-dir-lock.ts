import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The lock file inside ENGRAM_DATA_DIR. */
export const LOCK_FILE = 'engram.lock';

/** What the lock file holds: who holds the embedded store. */
interface LockHolder {
  pid: number;
  /** The engram command that holds it (serve, worker, keys create, …). */
  command: string;
  started_at: string;
}

/** Refusal to open an embedded store that another live process holds. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const serving = holder.command === 'serve' || holder.command === 'worker';
    super(
      serving
        ? `a server is running on this data dir (${dataDir}, engram ${holder.command}, pid ${holder.pid}); stop it or use the API`
        : `the data dir ${dataDir} is in use by engram ${holder.command} (pid ${holder.pid}); wait for it to finish`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this id is alive (one we may not signal is alive too). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : null;
  } catch {
    return null;
  }
}

/** A held lock on a data directory. */
export interface DataDirLock {
  release(): void;
}

/**
 * Takes the embedded store of `dataDir` for this process. PGlite is one process's database: a
 * second process on the same files would acknowledge writes that the first one later
 * overwrites, so a second `engram serve`, or a CLI command that writes while a server runs,
 * is refused with {@link DataDirLockedError}. A lock left by a process that died is taken over.
 */
export function lockDataDir(dataDir: string, command: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, command, started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    let descriptor: number;
    try {
      descriptor = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      const holder = readHolder(path);
      if (holder && isAlive(holder.pid)) throw new DataDirLockedError(resolve(dataDir), holder);
      // The holder died without releasing it (or never finished writing it): take it over.
      try {
        unlinkSync(path);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
      continue;
    }
    writeSync(descriptor, `${JSON.stringify(mine)}\n`);
    closeSync(descriptor);
    break;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only our own lock is removed: never one another process took over meanwhile.
    if (readHolder(path)?.pid === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    }
  };
  process.on('exit', release);
  return { release };
}
