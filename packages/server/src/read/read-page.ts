import { extractDocx } from './extract-docx.js';
import type { ExtractedText } from './extract-html.js';
import { extractPdf } from './extract-pdf.js';
import { extractMarkdown, extractPlainText } from './extract-text.js';
import type { FetchOptions } from './fetch-page.js';
import { fetchPage } from './fetch-page.js';
import { sniffFile } from './sniff.js';
import { UnreadableError } from './unreadable.js';

/** A page read by its address. */
export interface ReadPage extends ExtractedText {
  /** 'page' for HTML, markdown and text; a PDF or Word file found at the address says so. */
  kind: 'page' | 'pdf' | 'docx';
  /** Where the text came from, after redirects. */
  url: string;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** Types that say nothing of the content; the bytes decide. */
const VAGUE_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/x-download',
  'application/force-download',
]);

/**
 * Reads a web page once and keeps its main text: HTML through Readability, markdown and
 * plain text as text, a PDF (or .docx) as that file. Throws UnreadableError for what
 * cannot be read: a refused address, an error status, a type that is not read, no text.
 */
export async function readPage(address: string, options: FetchOptions, parse: ParsePage = parsePage): Promise<ReadPage> {
  const page = await fetchPage(address, options);
  const kind = kindOf(page.mediaType, page.body, new URL(page.url).pathname);
  if (kind === null)
    throw new UnreadableError(`Pages of type ${page.mediaType || 'unknown'} are not read; HTML, text, markdown and PDF are`);
  const read = await parse(kind, new Uint8Array(page.body.buffer, page.body.byteOffset, page.body.byteLength), page.charset);
  if (!read.text.trim()) throw new UnreadableError('The page has no readable text');
  return { ...read, kind: kind === 'pdf' || kind === 'docx' ? kind : 'page', url: page.url };
}

/** What a fetched page holds, as far as reading it goes. */
export type PageKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'text';

/** Turns a fetched page's bytes into text: on learner threads (learn/pool.ts) or on this thread (`parsePage`). */
export type ParsePage = (kind: PageKind, body: Uint8Array, charset: string | null) => Promise<ExtractedText>;

/** The text of a fetched page's bytes: HTML through Readability, markdown and plain text as text, a PDF or .docx as that file. */
export async function parsePage(kind: PageKind, bytes: Uint8Array, charset: string | null): Promise<ExtractedText> {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'pdf') return extractPdf(body);
  if (kind === 'docx') return extractDocx(body);
  // Readability and linkedom load on the first page read: a process that reads none keeps about 25 MB.
  if (kind === 'html') return (await import('./extract-html.js')).extractHtml(decode(body, charset, true));
  if (kind === 'markdown') return extractMarkdown(decode(body, charset, false));
  return extractPlainText(decode(body, charset, false));
}

function kindOf(mediaType: string, body: Buffer, path: string): PageKind | null {
  if (mediaType === 'application/pdf' || mediaType === 'application/x-pdf') return 'pdf';
  if (mediaType === DOCX_TYPE) return 'docx';
  if (HTML_TYPES.has(mediaType)) return 'html';
  if (MARKDOWN_TYPES.has(mediaType)) return 'markdown';
  if (mediaType === 'text/plain') return /\.(md|markdown)$/i.test(path) ? 'markdown' : 'text';
  if (!VAGUE_TYPES.has(mediaType)) return null;
  const sniffed = sniffFile(body);
  if (sniffed.kind === 'pdf' || sniffed.kind === 'docx') return sniffed.kind;
  const head = body.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|p|div|article)[\s>]/.test(head)) return 'html';
  if (body.subarray(0, 8192).includes(0)) return null;
  return /\.(md|markdown)$/i.test(path) ? 'markdown' : 'text';
}

/** Decodes text by the charset the server named, else a byte-order mark, else (for HTML) a meta tag, else UTF-8. */
function decode(body: Buffer, charset: string | null, html: boolean): string {
  let label = charset;
  if (!label && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = 'utf-8';
  if (!label && body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
  if (!label && body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
  if (!label && html) {
    const head = body.subarray(0, 2048).toString('latin1');
    label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1] ?? null;
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
