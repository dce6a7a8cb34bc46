import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { blockText } from './html-text.js';

/** Text read from a document, with the title it gives itself. */
export interface ExtractedText {
  title: string | null;
  text: string;
}

/** Page furniture that is never the article, for pages Readability cannot make out. */
const FURNITURE = 'nav, header, footer, aside, form, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';

/**
 * The main text of an HTML page (Readability over linkedom): the article without its
 * navigation, footer and side bars, headings and paragraphs kept as lines.
 */
export function extractHtml(html: string): ExtractedText {
  const { document } = parseHTML(html);
  const pageTitle = cleanTitle(document.title);
  let text = '';
  let title = pageTitle;
  try {
    // Readability changes the document it reads, so it gets its own copy, without the page's furniture.
    const copy = parseHTML(html).document;
    removeFurniture(copy);
    const article = new Readability(copy as unknown as Document, { charThreshold: 200, keepClasses: false }).parse();
    if (article?.content) {
      text = blockText(parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document.body as never);
      title = cleanTitle(article.title) ?? pageTitle;
    }
  } catch {
    // A page Readability cannot take apart is read whole below.
  }
  if (!text.trim()) {
    removeFurniture(document);
    text = blockText((document.body ?? document.documentElement) as never);
  }
  return { title, text };
}

/** Removes navigation, side bars, footers and a site header (a header inside the article stays: it holds the headline). */
function removeFurniture(document: { querySelectorAll(selector: string): ArrayLike<unknown> }): void {
  for (const element of Array.from(document.querySelectorAll(FURNITURE)) as {
    remove(): void;
    closest(selector: string): unknown;
    nodeName: string;
  }[]) {
    if (element.nodeName.toLowerCase() === 'header' && element.closest('article, main')) continue;
    element.remove();
  }
}

function cleanTitle(title: string | null | undefined): string | null {
  const trimmed = title?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed.slice(0, 300) : null;
}
