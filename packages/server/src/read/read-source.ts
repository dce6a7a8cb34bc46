import { LIMITS } from '@engram/protocol';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Job } from '../jobs/queue.js';
import { failJobNow } from '../jobs/queue.js';
import type { Db } from '../store/database.js';
import type { SourceRow } from '../store/source-repository.js';
import type { Resolver } from './address-guard.js';
import type { DocumentKind } from './extract-document.js';
import { extractDocument } from './extract-document.js';
import type { ExtractedText } from './extract-html.js';
import type { FetchOptions } from './fetch-page.js';
import type { ParsePage } from './read-page.js';
import { readPage } from './read-page.js';
import { UnreadableError } from './unreadable.js';

/** How pages are read: the guard and the limits (DECISIONS.md defaults). */
export type ReadOptions = FetchOptions;

/** Safe defaults: private addresses refused, 10 MB, 15 s, 5 redirects. */
export const DEFAULT_READ_OPTIONS: ReadOptions = { allowPrivate: false, maxBytes: 10 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 };

/** The configuration fields that say how pages are read. */
export type ReadConfig = Partial<Pick<Config, 'allowPrivateUrls' | 'urlMaxBytes' | 'urlTimeoutMs' | 'urlMaxRedirects'>>;

/** The read options of a configuration; a field it leaves out keeps its safe default. */
export function readOptionsFrom(config: ReadConfig, resolver?: Resolver): ReadOptions {
  return {
    allowPrivate: config.allowPrivateUrls ?? DEFAULT_READ_OPTIONS.allowPrivate,
    maxBytes: config.urlMaxBytes ?? DEFAULT_READ_OPTIONS.maxBytes,
    timeoutMs: config.urlTimeoutMs ?? DEFAULT_READ_OPTIONS.timeoutMs,
    maxRedirects: config.urlMaxRedirects ?? DEFAULT_READ_OPTIONS.maxRedirects,
    ...(resolver ? { resolver } : {}),
  };
}

/** Reads an uploaded PDF or Word file's text: in learner threads (learn/pool.ts) or on this thread. */
export type ReadDocument = (kind: DocumentKind, bytes: Uint8Array) => Promise<ExtractedText>;

/** Where the CPU work of reading is done: learner threads (learn/pool.ts), or this thread for what is absent. */
export interface Parsers {
  document?: ReadDocument;
  page?: ParsePage;
}

/** Sources whose text is read from elsewhere before anything is learned. */
const READ_KINDS = new Set(['page', 'pdf', 'docx']);

async function extract(
  db: Db,
  source: SourceRow,
  options: ReadOptions,
  parsers?: Parsers,
): Promise<ExtractedText & { kind: SourceRow['kind'] }> {
  if (source.kind === 'page') {
    if (!source.url) throw new UnreadableError('The source has no address');
    return readPage(source.url, options, parsers?.page);
  }
  const { rows } = await sql<{
    file: Buffer | null;
  }>`select file from sources where account_id = ${source.account_id} and id = ${source.id}`.execute(db);
  const file = rows[0]?.file;
  if (!file) throw new UnreadableError('The uploaded file is no longer there');
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const read = await (parsers?.document ?? extractDocument)(source.kind === 'pdf' ? 'pdf' : 'docx', bytes);
  return { ...read, kind: source.kind };
}

/**
 * The "read the source's text" step of learning. A page is fetched and a PDF or Word file
 * opened, once: its text becomes the source's body (the file's bytes are dropped), and a
 * title it gives itself is kept when the caller gave none. Other sources pass through.
 *
 * Returns the source ready to learn, or null when it cannot be read: then the source has
 * failed with `error: {type: "unreadable", message}` and its job is gone. A failure that a
 * later try may fix (a reset connection, a 5xx) is thrown, so the job backs off and runs
 * again, and fails as unreadable on its last attempt.
 */
export async function readSourceText(
  db: Db,
  job: Job,
  source: SourceRow,
  options: ReadOptions = DEFAULT_READ_OPTIONS,
  parsers?: Parsers,
): Promise<SourceRow | null> {
  if (!READ_KINDS.has(source.kind) || source.body !== null) return source;
  let read: ExtractedText & { kind: SourceRow['kind'] };
  try {
    read = await extract(db, source, options, parsers);
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error;
    if (!error.permanent && job.attempts < job.maxAttempts) throw error;
    await failJobNow(db, job, { type: 'unreadable', message: error.message.slice(0, 1_000) });
    await sql`update sources set file = null where account_id = ${source.account_id} and id = ${source.id}`.execute(db);
    return null;
  }
  // A page or file may hold NUL characters or broken UTF-16 that no text column keeps: they are dropped.
  const body = storable(read.text.slice(0, LIMITS.textChars));
  const title = source.title ?? (read.title === null ? null : storable(read.title));
  await sql`
    update sources set body = ${body}, title = ${title}, kind = ${read.kind}, file = null
    where account_id = ${source.account_id} and id = ${source.id}`.execute(db);
  return { ...source, body, title, kind: read.kind };
}

/** Text as it can be stored: NUL characters dropped, a lone surrogate made U+FFFD. */
export function storable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this drops
  return text.replace(/\u0000/g, '').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Keeps an uploaded file's bytes with its source until a worker reads them (within the caller's transaction). */
export async function storeSourceFile(transaction: Db, accountId: number, sourceId: string, bytes: Uint8Array): Promise<void> {
  await sql`
    update sources set file = ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)}
    where account_id = ${accountId} and id = ${sourceId}`.execute(transaction);
}
