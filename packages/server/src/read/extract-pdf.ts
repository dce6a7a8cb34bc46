import type { ExtractedText } from './extract-html.js';
import { tidy } from './html-text.js';
import { UnreadableError } from './unreadable.js';

/** Between two pages of a PDF's text: a form feed on a line of its own. */
export const PAGE_BREAK = '\n\f\n';

type PdfDocument = Awaited<ReturnType<typeof import('unpdf')['getDocumentProxy']>>;

/** Loaded on first use: pdf.js is large and most processes never read a PDF. */
const unpdf = () => import('unpdf');

/**
 * Opens a PDF. Throws UnreadableError for a damaged or password-protected file; cheap
 * enough to run when a file is uploaded (pages are read later, one by one).
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocumentProxy } = await unpdf();
  try {
    // pdf.js may take the buffer over, so it gets a copy.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'PasswordException') throw new UnreadableError('The PDF is protected by a password', { cause: error });
    throw new UnreadableError(`The PDF is damaged (${(error as Error)?.message ?? 'cannot be opened'})`, { cause: error });
  }
}

/** Checks that a PDF opens (not damaged, not locked), then lets it go. */
export async function checkPdf(bytes: Uint8Array): Promise<void> {
  const pdf = await openPdf(bytes);
  await pdf.destroy();
}

/**
 * The text of a PDF, page by page: pages apart by PAGE_BREAK (so a sentence's page is the
 * number of breaks before it, plus one), lines that wrap a paragraph joined, short lines
 * (headings, the end of a paragraph) kept as their own lines. The title is the document's own.
 */
export async function extractPdf(bytes: Uint8Array): Promise<ExtractedText> {
  const pdf = await openPdf(bytes);
  try {
    const { extractText, getMeta } = await unpdf();
    let pages: string[];
    try {
      ({ text: pages } = await extractText(pdf, { mergePages: false }));
    } catch (error) {
      throw new UnreadableError(`The PDF is damaged (${(error as Error)?.message ?? 'its text cannot be read'})`, { cause: error });
    }
    let title: string | null = null;
    try {
      const info = (await getMeta(pdf)).info as { Title?: unknown };
      if (typeof info?.Title === 'string' && info.Title.trim()) title = info.Title.replace(/\s+/g, ' ').trim().slice(0, 300);
    } catch {
      // A PDF without readable metadata still has its text.
    }
    return { title, text: pages.map(joinWrappedLines).join(PAGE_BREAK).trim() };
  } finally {
    await pdf.destroy();
  }
}

/** The page a character of a PDF's text is on (1-based). */
export function pageAt(text: string, offset: number): number {
  let page = 1;
  for (let index = text.indexOf('\f'); index !== -1 && index < offset; index = text.indexOf('\f', index + 1)) page++;
  return page;
}

/** Joins lines of one page that wrap a paragraph: a long line not ending a sentence carries on. */
function joinWrappedLines(page: string): string {
  const lines = tidy(page).split('\n');
  const widest = Math.max(0, ...lines.map((line) => line.length));
  let out = '';
  lines.forEach((line, index) => {
    if (index === 0) return void (out = line);
    const previous = lines[index - 1]!;
    const wraps = previous.length >= widest * 0.6 && !/[.!?:;"”’)]$/.test(previous) && /^[\p{L}\p{N}(“"‘']/u.test(line);
    if (wraps && previous.endsWith('-') && /^\p{Ll}/u.test(line)) out = `${out.slice(0, -1)}${line}`;
    else out += wraps ? ` ${line}` : `\n${line}`;
  });
  return out;
}
