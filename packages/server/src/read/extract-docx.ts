import type { ExtractedText } from './extract-html.js';
import { blockText } from './html-text.js';
import { UnreadableError } from './unreadable.js';

/**
 * The text of a Word .docx file (mammoth): headings as "# Heading" lines, paragraphs,
 * lists and tables kept apart; the title is the first heading.
 */
export async function extractDocx(bytes: Uint8Array): Promise<ExtractedText> {
  // Loaded on first use: most processes never read a Word file (about 25 MB resident together).
  const [{ default: mammoth }, { parseHTML }] = await Promise.all([import('mammoth'), import('linkedom')]);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
  } catch (error) {
    throw new UnreadableError(`The Word file is damaged (${(error as Error)?.message ?? 'cannot be opened'})`, { cause: error });
  }
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const heading = document.querySelector('h1, h2, h3');
  const title = heading?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 300) || null;
  return { title, text: blockText(document.body as never) };
}
