import type { Engram } from '@engram/client';
import { inSpace } from './in-space.js';

/** What is known of a session's files: their paths in order, and the last one's lines. */
interface Loaded {
  paths: string[];
  lastLines: string[];
}

/**
 * A chat session's transcript as JSON lines in Engram files written with `learn: false`, so they
 * are kept but never learned (the turns are learned once, from the conversation saved beside
 * them). The lines fill `${directory}/000001.jsonl`, then `000002.jsonl`, … up to `linesPerFile`
 * each, so adding a turn rewrites one short file rather than the whole session.
 */
export class Transcript {
  readonly #client: Engram;
  readonly #space: string | undefined;
  readonly #directory: string;
  readonly #linesPerFile: number;
  #loaded: Loaded | undefined;

  constructor(client: Engram, space: string | undefined, directory: string, linesPerFile: number) {
    this.#client = client;
    this.#space = space;
    this.#directory = directory;
    this.#linesPerFile = linesPerFile;
  }

  /** Every line, in order, read afresh from Engram. */
  async lines(): Promise<string[]> {
    const paths = await this.#paths();
    const texts = await Promise.all(paths.map(async (path) => (await this.#client.files.read(path, inSpace(this.#space))).text));
    const files = texts.map(splitLines);
    this.#loaded = { paths, lastLines: files[files.length - 1] ?? [] };
    return files.flat();
  }

  /** The last line written, or undefined for a new session (read once; `append` then reads nothing more). */
  async lastLine(): Promise<string | undefined> {
    const loaded = this.#loaded ?? (await this.#load());
    return loaded.lastLines.at(-1);
  }

  /** Adds lines at the end: the last file is filled, then new ones are started. */
  async append(lines: string[]): Promise<void> {
    if (!lines.length) return;
    const loaded = this.#loaded ?? (await this.#load());
    let pending = [...lines];
    while (pending.length) {
      const full = loaded.paths.length === 0 || loaded.lastLines.length >= this.#linesPerFile;
      if (full) {
        loaded.paths.push(`${this.#directory}/${String(loaded.paths.length + 1).padStart(6, '0')}.jsonl`);
        loaded.lastLines = [];
      }
      const room = this.#linesPerFile - loaded.lastLines.length;
      const taken = pending.slice(0, room);
      pending = pending.slice(room);
      const next = [...loaded.lastLines, ...taken];
      await this.#client.files.write({
        path: loaded.paths[loaded.paths.length - 1]!,
        text: next.map((line) => `${line}\n`).join(''),
        learn: false,
        ...inSpace(this.#space),
      });
      loaded.lastLines = next;
    }
  }

  /** Deletes every file of the session. */
  async clear(): Promise<void> {
    await this.#client.files.deleteByPrefix(`${this.#directory}/`, inSpace(this.#space));
    this.#loaded = { paths: [], lastLines: [] };
  }

  async #load(): Promise<Loaded> {
    const paths = await this.#paths();
    const last = paths[paths.length - 1];
    const lastLines = last ? splitLines((await this.#client.files.read(last, inSpace(this.#space))).text) : [];
    this.#loaded = { paths, lastLines };
    return this.#loaded;
  }

  /** The session's files in order (their names are zero-padded, so path order is the order written). */
  async #paths(): Promise<string[]> {
    const paths: string[] = [];
    for await (const file of this.#client.files.list({ prefix: `${this.#directory}/`, limit: 200, ...inSpace(this.#space) })) {
      paths.push(file.path);
    }
    return paths;
  }
}

function splitLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
