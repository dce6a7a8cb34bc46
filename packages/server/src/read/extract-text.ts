import type { ExtractedText } from './extract-html.js';
import { tidy } from './html-text.js';

/**
 * A markdown page as plain text: front matter, images, link targets, emphasis marks,
 * code fences and HTML comments dropped; headings and list items kept as lines.
 */
export function extractMarkdown(markdown: string): ExtractedText {
  let text = markdown.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  text = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text)?.[1] ?? null;
  text = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?\n\1[^\n]*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/^[ \t]*\[[^\]]+\]:[ \t]+\S+.*$/gm, '')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^\n*_]*?\S)[*_](?!\w)/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^[ \t]*[*+][ \t]+/gm, '- ')
    .replace(/^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$/gm, '');
  return { title: heading ? heading.slice(0, 300) : null, text: tidy(text) };
}

/** A plain-text page, as it is (line breaks kept). */
export function extractPlainText(text: string): ExtractedText {
  return { title: null, text: tidy(text.replace(/^\uFEFF/, '')) };
}
