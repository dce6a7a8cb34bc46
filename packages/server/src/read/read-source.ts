import { LIMITS } from '@engram/protocol';
import type { Config } from '../config.js';
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

/** The source as reading sees it. */
export type SourceToRead = Pick<SourceRow, 'kind' | 'url' | 'body' | 'title'>;

/** The text read from a page or an uploaded file, ready to keep as the source's body. */
export interface ReadText {
  body: string;
  title: string | null;
  kind: SourceRow['kind'];
}

/** Whether a source's text must be read (a page not yet fetched, a file not yet opened) before it is learned. */
export function needsReading(source: SourceToRead): boolean {
  return READ_KINDS.has(source.kind) && source.body === null;
}

/**
 * The "read the source's text" step of learning: a page is fetched, a PDF or Word file (its
 * bytes given by `file`) opened. Returns the text to keep as the source's body, with the title
 * it gives itself when the caller gave none. Throws UnreadableError when it cannot be read
 * (`permanent` when no later try may fix it); writes nothing.
 */
export async function readSourceText(
  source: SourceToRead,
  file: () => Promise<Uint8Array | null>,
  options: ReadOptions = DEFAULT_READ_OPTIONS,
  parsers?: Parsers,
): Promise<ReadText> {
  let read: ExtractedText & { kind: SourceRow['kind'] };
  if (source.kind === 'page') {
    if (!source.url) throw new UnreadableError('The source has no address');
    read = await readPage(source.url, options, parsers?.page);
  } else {
    const bytes = await file();
    if (!bytes) throw new UnreadableError('The uploaded file is no longer there');
    read = { ...(await (parsers?.document ?? extractDocument)(source.kind === 'pdf' ? 'pdf' : 'docx', bytes)), kind: source.kind };
  }
  // A page or file may hold NUL characters or broken UTF-16 that no text column keeps: they are dropped.
  const body = storable(read.text.slice(0, LIMITS.textChars));
  const title = source.title ?? (read.title === null ? null : storable(read.title));
  return { body, title, kind: read.kind };
}

/** Text as it can be stored: NUL characters dropped, a lone surrogate made U+FFFD. */
export function storable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this drops
  return text.replace(/\u0000/g, '').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
