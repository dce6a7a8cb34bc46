/** Elements whose text is never read: code, styling, forms and page furniture. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'button',
  'select',
  'textarea',
  'input',
  'head',
  'title',
  'meta',
  'link',
]);

/** Elements that stand on their own lines. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'body',
  'html',
]);

/** The smallest part of a DOM this walker needs (linkedom and browsers both have it). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/**
 * The text of an HTML tree with its structure kept in plain text: headings as "# Heading"
 * lines, paragraphs apart by a blank line, list items as "- item", table cells apart by
 * " | ". The sentence splitter reads these lines as the document's own breaks.
 */
export function blockText(root: DomNode): string {
  const out: string[] = [];
  const breakLines = (count: number) => out.push(count === 2 ? '\n\n' : '\n');
  const walk = (node: DomNode, preformatted: boolean): void => {
    if (node.nodeType === 3) {
      const text = node.textContent ?? '';
      out.push(preformatted ? text : text.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toLowerCase();
    if (SKIPPED.has(name)) return;
    if (name === 'br') return void breakLines(1);
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      breakLines(2);
      out.push(`${'#'.repeat(Number(heading[1]))} `);
    } else if (name === 'li') {
      breakLines(1);
      out.push('- ');
    } else if (name === 'td' || name === 'th') {
      out.push(' | ');
    } else if (BLOCKS.has(name)) {
      breakLines(name === 'li' || name === 'tr' || name === 'dt' || name === 'dd' ? 1 : 2);
    }
    const children = node.childNodes;
    for (let index = 0; index < children.length; index++) walk(children[index]!, preformatted || name === 'pre');
    if (heading || (BLOCKS.has(name) && name !== 'li')) breakLines(2);
  };
  walk(root, false);
  return tidy(out.join(''));
}

/** Trims each line, drops table-cell separators at line ends, and keeps at most one blank line. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(/^(?:\s*\|\s*)+/, '')
        .replace(/(?:\s*\|\s*)+$/, '')
        .replace(/[^\S\f]+/g, ' ')
        .trim(),
    )
    .join('\n')
    .replace(/^(?:#{1,6}|-)\s*$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
