import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ClientOptions } from '@engram/client';
import { APIError, Engram, NotFoundError } from '@engram/client';
import { pathProblem } from '../files/path.js';

/** File names imported: text and markdown. */
const IMPORTED = /\.(md|markdown|txt)$/i;

/** Where and how an import talks to Engram. */
export interface ImportOptions {
  /** The folder to import; DIR/notes/a.md becomes /notes/a.md. */
  dir: string;
  /** The space the files go to (required: files refuse a blank space). */
  space: string;
  /** The server (ENGRAM_BASE_URL, default http://127.0.0.1:8787). */
  baseUrl?: string;
  /** An account key, or a key limited to the space (ENGRAM_API_KEY). */
  apiKey?: string;
  /** Where the progress bar goes (stderr by default); null for none. */
  progress?: NodeJS.WritableStream | null;
  /** Files sent at once. */
  concurrency?: number;
  /** The fetch the client calls (tests pass their own). */
  fetch?: ClientOptions['fetch'];
}

/** What an import did, file by file counted. */
export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  failures: { path: string; error: string }[];
}

/** The API path of a file under `dir` ('/'-separated, whatever the platform). */
export function filePathOf(dir: string, file: string): string {
  return `/${relative(dir, file).split(sep).join('/')}`;
}

/** Every text and markdown file beneath `dir`, skipping dot-folders (.git) and node_modules. */
export async function listTextFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') await walk(full);
      } else if (entry.isFile() && IMPORTED.test(entry.name)) found.push(full);
    }
  };
  await walk(dir);
  return found.sort();
}

/**
 * The file calls an import makes, through @engram/client (its retries on 429, 5xx and dropped
 * connections, its timeouts and its errors). A missing file reads as null.
 */
function filesApi(options: ImportOptions) {
  const engram = new Engram({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    space: options.space,
    fetch: options.fetch,
    logger: null,
  });
  return {
    read: (path: string) =>
      engram.files.read(path).catch((error: unknown) => {
        if (NotFoundError.isInstance(error)) return null;
        throw error;
      }),
    write: (path: string, text: string) => engram.files.write({ path, text }),
    remove: (path: string) =>
      engram.files.delete(path).then(
        () => 'deleted' as const,
        (error: unknown) => {
          if (NotFoundError.isInstance(error)) return 'absent' as const;
          throw error;
        },
      ),
  };
}

/** One line for a failed call: the status and the server's message, with its request id to find it in the log. */
function failure(error: unknown): string {
  if (APIError.isInstance(error)) {
    const message = (error.body as { error?: { message?: unknown } } | null)?.error?.message;
    return `${error.status} ${typeof message === 'string' ? message : error.message}${error.requestId ? ` (${error.requestId})` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Sends one file unless the server already holds the same text. */
async function syncFile(api: ReturnType<typeof filesApi>, path: string, text: string): Promise<'created' | 'updated' | 'unchanged'> {
  const current = await api.read(path);
  if (current !== null && current.text === text) return 'unchanged';
  const written = await api.write(path, text);
  return written.created ? 'created' : 'updated';
}

/** A one-line progress bar, redrawn in place. */
export function progressBar(stream: NodeJS.WritableStream | null, total: number) {
  let done = 0;
  const draw = (label: string) => {
    if (!stream) return;
    const width = 24;
    const filled = total ? Math.round((done / total) * width) : width;
    stream.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total} ${label.slice(-40).padEnd(40)}`);
  };
  return {
    tick(label: string) {
      done++;
      draw(label);
    },
    end() {
      if (stream) stream.write('\n');
    },
  };
}

/**
 * Imports a folder of text and markdown files into a space as files, over HTTP. Files
 * the server already holds with the same text are skipped (nothing is sent or learned).
 */
export async function importDir(options: ImportOptions): Promise<ImportSummary> {
  const api = filesApi(options);
  const files = await listTextFiles(options.dir);
  const summary: ImportSummary = { created: 0, updated: 0, unchanged: 0, failed: 0, failures: [] };
  const bar = progressBar(options.progress === undefined ? process.stderr : options.progress, files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const path = filePathOf(options.dir, file);
      try {
        const problem = pathProblem(path);
        if (problem !== null) throw new Error(`path ${problem}`);
        summary[await syncFile(api, path, await readFile(file, 'utf8'))]++;
      } catch (error) {
        summary.failed++;
        summary.failures.push({ path, error: failure(error) });
      }
      bar.tick(path);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  bar.end();
  summary.failures.sort((left, right) => (left.path < right.path ? -1 : 1));
  return summary;
}

/** What one pass of a watch did. */
export interface WatchPass {
  written: string[];
  deleted: string[];
  failures: { path: string; error: string }[];
}

/**
 * Keeps a space in step with a folder: after a first full import, looks again every
 * `intervalMs` (polling works on every platform and file system, where recursive fs.watch
 * does not), writes files whose size or time changed and deletes those that went.
 * Returns a handle whose `close()` stops it; `onPass` reports each pass that did something.
 */
export async function watchDir(
  options: ImportOptions & { intervalMs?: number; onPass?: (pass: WatchPass) => void },
): Promise<{ summary: ImportSummary; close: () => Promise<void> }> {
  const api = filesApi(options);
  const seen = new Map<string, string>();
  const snapshot = async () => {
    const now = new Map<string, string>();
    for (const file of await listTextFiles(options.dir)) {
      try {
        const info = await stat(file);
        now.set(file, `${info.size}:${info.mtimeMs}`);
      } catch {
        // Gone between the listing and the look: the next pass sees it gone.
      }
    }
    return now;
  };
  for (const [file, mark] of await snapshot()) seen.set(file, mark);
  const summary = await importDir(options);
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    const result: WatchPass = { written: [], deleted: [], failures: [] };
    const now = await snapshot();
    for (const [file, mark] of now) {
      if (seen.get(file) === mark) continue;
      const path = filePathOf(options.dir, file);
      try {
        if (pathProblem(path) !== null) throw new Error(`path ${pathProblem(path)}`);
        if ((await syncFile(api, path, await readFile(file, 'utf8'))) !== 'unchanged') result.written.push(path);
        seen.set(file, mark);
      } catch (error) {
        result.failures.push({ path, error: failure(error) });
      }
    }
    for (const file of [...seen.keys()]) {
      if (now.has(file)) continue;
      const path = filePathOf(options.dir, file);
      try {
        if ((await api.remove(path)) === 'deleted') result.deleted.push(path);
        seen.delete(file);
      } catch (error) {
        result.failures.push({ path, error: failure(error) });
      }
    }
    if (result.written.length || result.deleted.length || result.failures.length) options.onPass?.(result);
  };
  let busy = false;
  const timer = setInterval(() => {
    if (stopped || busy) return;
    busy = true;
    running = pass()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, options.intervalMs ?? 1_000);
  return {
    summary,
    close: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** The summary line printed at the end of an import. */
export function summaryLine(summary: ImportSummary): string {
  return `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, failed ${summary.failed}`;
}
