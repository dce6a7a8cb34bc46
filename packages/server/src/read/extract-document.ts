import { extractDocx } from './extract-docx.js';
import type { ExtractedText } from './extract-html.js';
import { extractPdf } from './extract-pdf.js';
import { UnreadableError } from './unreadable.js';

/** An uploaded document's kind. */
export type DocumentKind = 'pdf' | 'docx';

/** The text of an uploaded PDF or Word file; UnreadableError when it is damaged or holds no text. */
export async function extractDocument(kind: DocumentKind, bytes: Uint8Array): Promise<ExtractedText> {
  const read = kind === 'pdf' ? await extractPdf(bytes) : await extractDocx(bytes);
  if (!read.text.trim()) {
    throw new UnreadableError(
      kind === 'pdf' ? 'The PDF has no text (a scanned PDF needs text recognition first)' : 'The Word file has no text',
    );
  }
  return read;
}
