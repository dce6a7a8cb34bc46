/**
 * Where the learner's and the ranking's rules can be mutated: one entry of a word list (an
 * array or Set of strings, a space-separated word string that is split, a key of a lookup
 * object), one alternative of a regular expression (in a regex literal or in the strings a
 * RegExp is built from), or one named ranking weight. Found with the TypeScript parser, so
 * every site is a real element of the source and deleting it leaves valid code.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** One mutation: replace source[start, end) by `text` in `file`. */
export interface Site {
  file: string;
  kind: 'entry' | 'alternative' | 'weight';
  /** Line (1-based) of the site, for the report. */
  line: number;
  /** What is deleted or changed, for the report. */
  label: string;
  start: number;
  end: number;
  text: string;
}

/** The learner's and the ranking's files whose lists, patterns and weights are rules. */
export const RULE_FILES = [
  'packages/server/src/learn/chit-chat.ts',
  'packages/server/src/learn/classify.ts',
  'packages/server/src/learn/conjugate.ts',
  'packages/server/src/learn/coreference.ts',
  'packages/server/src/learn/dates.ts',
  'packages/server/src/learn/lasting.ts',
  'packages/server/src/learn/learn.ts',
  'packages/server/src/learn/name-types.ts',
  'packages/server/src/learn/names.ts',
  'packages/server/src/learn/questions.ts',
  'packages/server/src/learn/refers-back.ts',
  'packages/server/src/text/messages.ts',
  'packages/server/src/text/segment.ts',
  'packages/server/src/learn/slots.ts',
  'packages/server/src/learn/speaker.ts',
  'packages/server/src/learn/tense.ts',
  'packages/server/src/recall/ask.ts',
  'packages/server/src/recall/query.ts',
  'packages/server/src/recall/search.ts',
  'packages/server/src/recall/synonyms.ts',
];

/** The module of named ranking weights: each numeric constant is scaled, not deleted. */
export const WEIGHTS_FILE = 'packages/server/src/recall/weights.ts';

const hasLetter = (text: string) => /\p{L}/u.test(text);

/** Lists whose entries are data, not rules (the names of the months a date is written with). */
const SKIPPED_LISTS = new Set(['monthNames', 'weekdayNames', 'MONTHS', 'PARTS']);

/** The top-level alternatives of regex source text, as [start, end) within it, per group. */
export function regexAlternatives(source: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  // A stack of groups, each with the start of its current alternative and whether it had a '|'.
  interface Group {
    alternatives: { start: number; end: number }[];
    /** Where the alternative holding the group started. */
    outer: number;
  }
  const stack: Group[] = [{ alternatives: [], outer: 0 }];
  let current = 0;
  let inClass = false;
  const close = (group: Group, end: number) => {
    group.alternatives.push({ start: current, end });
    if (group.alternatives.length > 1) found.push(...group.alternatives);
  };
  for (let index = 0; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') {
      index++;
      continue;
    }
    if (inClass) {
      if (character === ']') inClass = false;
      continue;
    }
    if (character === '[') {
      inClass = true;
      continue;
    }
    if (character === '(') {
      // Skip the group's opener: (?: (?= (?! (?<= (?<! (?<name>
      let open = index + 1;
      if (source[open] === '?') {
        open++;
        if (source[open] === '<' && source[open + 1] !== '=' && source[open + 1] !== '!') {
          open = source.indexOf('>', open) + 1;
        } else {
          if (source[open] === '<') open++;
          open++;
        }
      }
      stack.push({ alternatives: [], outer: current });
      current = open;
      index = open - 1;
      continue;
    }
    if (character === '|') {
      stack[stack.length - 1]!.alternatives.push({ start: current, end: index });
      current = index + 1;
      continue;
    }
    if (character === ')') {
      if (stack.length > 1) {
        const group = stack.pop()!;
        close(group, index);
        current = group.outer;
      } else {
        // A fragment closing a group opened in the string before it.
        stack[0]!.alternatives.push({ start: current, end: index });
        current = index + 1;
      }
    }
  }
  // Alternatives of a fragment's unclosed groups (a string that is only part of a pattern).
  while (stack.length > 0) {
    const group = stack.pop()!;
    close(group, source.length);
    current = group.outer;
  }
  return found;
}

/** Every mutation site of one file. */
export function sitesOf(file: string, root: string): Site[] {
  const source = readFileSync(`${root}/${file}`, 'utf8');
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const sites: Site[] = [];
  const lineOf = (position: number) => tree.getLineAndCharacterOfPosition(position).line + 1;
  const listName = (node: ts.Node): string | undefined => {
    for (let up: ts.Node | undefined = node; up; up = up.parent) {
      if (ts.isVariableDeclaration(up) && ts.isIdentifier(up.name)) return up.name.text;
    }
    return undefined;
  };
  /** Deletes an element of a comma-separated list with the comma after it (or before it, for the last). */
  const deleteElement = (list: ts.NodeArray<ts.Node>, index: number, label: string, kind: Site['kind']) => {
    const element = list[index]!;
    const start = element.getStart(tree);
    const end = index + 1 < list.length ? list[index + 1]!.getStart(tree) : element.getEnd();
    const from = index + 1 < list.length || index === 0 ? start : list[index - 1]!.getEnd();
    sites.push({ file, kind, line: lineOf(start), label, start: from, end, text: '' });
  };
  const alternativesIn = (text: string, offset: number, context: string) => {
    for (const alternative of regexAlternatives(text)) {
      const body = text.slice(alternative.start, alternative.end);
      if (!hasLetter(body)) continue;
      // Delete the alternative and the '|' after it, else the one before it.
      const after = text[alternative.end] === '|';
      const start = offset + alternative.start - (after ? 0 : 1);
      const end = offset + alternative.end + (after ? 1 : 0);
      if (!after && text[alternative.start - 1] !== '|') continue;
      sites.push({
        file,
        kind: 'alternative',
        line: lineOf(offset + alternative.start),
        label: `${context}: ${body}`,
        start,
        end,
        text: '',
      });
    }
  };
  const visit = (node: ts.Node): void => {
    const name = listName(node);
    if (name !== undefined && SKIPPED_LISTS.has(name)) return;
    if (ts.isRegularExpressionLiteral(node)) {
      const text = node.getText(tree);
      const body = text.slice(1, text.lastIndexOf('/'));
      alternativesIn(body, node.getStart(tree) + 1, `/${name ?? 'regex'}/`);
      return;
    }
    if (ts.isArrayLiteralExpression(node) && node.elements.length >= 3 && node.elements.every((element) => ts.isStringLiteral(element))) {
      // Word lists; a list of space-separated word strings (ATTRIBUTE_WORDS) is handled by its strings.
      if (
        !node.elements.some(
          (element) => (element as ts.StringLiteral).text.includes(' ') && (element as ts.StringLiteral).text.split(' ').length > 3,
        )
      ) {
        node.elements.forEach((element, index) => {
          if (hasLetter((element as ts.StringLiteral).text))
            deleteElement(node.elements, index, `${name}: '${(element as ts.StringLiteral).text}'`, 'entry');
        });
        return;
      }
    }
    if (ts.isObjectLiteralExpression(node) && node.properties.length >= 4 && name !== undefined) {
      const simple = node.properties.every(
        (property) =>
          ts.isPropertyAssignment(property) && (ts.isStringLiteral(property.initializer) || ts.isNumericLiteral(property.initializer)),
      );
      if (simple) {
        node.properties.forEach((property, index) => deleteElement(node.properties, index, `${name}: ${property.getText(tree)}`, 'entry'));
        return;
      }
    }
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const raw = node.getText(tree);
      // The characters between the quotes (template pieces: between ` or } and ` or ${).
      const open = 1;
      const closeLength = ts.isTemplateHead(node) || ts.isTemplateMiddle(node) ? 2 : 1;
      // A doubled backslash is one backslash of the pattern: read "\\(" as an escaped "(".
      const inner = raw.slice(open, raw.length - closeLength).replaceAll('\\\\', '_\\');
      const offset = node.getStart(tree) + open;
      const parent = node.parent;
      const split =
        ts.isPropertyAccessExpression(parent) &&
        parent.name.text === 'split' &&
        ts.isCallExpression(parent.parent) &&
        parent.parent.arguments.length === 1 &&
        ts.isStringLiteral(parent.parent.arguments[0]!) &&
        parent.parent.arguments[0].text === ' ';
      const wordList = split || (ts.isArrayLiteralExpression(parent) && inner.split(' ').length > 3 && !inner.includes('|'));
      if (wordList) {
        for (const match of inner.matchAll(/\S+/g)) {
          const start = offset + match.index;
          const following = inner[match.index + match[0].length] === ' ';
          sites.push({
            file,
            kind: 'entry',
            line: lineOf(start),
            label: `${name}: '${match[0]}'`,
            start: following ? start : start - (match.index > 0 ? 1 : 0),
            end: start + match[0].length + (following ? 1 : 0),
            text: '',
          });
        }
        return;
      }
      if (inner.includes('|') && hasLetter(inner) && !inner.includes('\n')) alternativesIn(inner, offset, `'${name ?? 'pattern'}'`);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return sites;
}

/** The weight sites: each numeric `export const NAME = …` of the weights module, scaled by `factor`. */
export function weightSites(root: string, factors: readonly number[]): Site[] {
  const source = readFileSync(`${root}/${WEIGHTS_FILE}`, 'utf8');
  const tree = ts.createSourceFile(WEIGHTS_FILE, source, ts.ScriptTarget.Latest, true);
  const sites: Site[] = [];
  for (const statement of tree.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer;
      if (!ts.isIdentifier(declaration.name) || value === undefined || !ts.isNumericLiteral(value)) continue;
      for (const factor of factors) {
        const scaled = Number(value.text.replaceAll('_', '')) * factor;
        sites.push({
          file: WEIGHTS_FILE,
          kind: 'weight',
          line: tree.getLineAndCharacterOfPosition(value.getStart(tree)).line + 1,
          label: `${declaration.name.text} ${value.text} → ${Number(scaled.toPrecision(6))} (×${factor})`,
          start: value.getStart(tree),
          end: value.getEnd(),
          text: String(Number(scaled.toPrecision(6))),
        });
      }
    }
  }
  return sites;
}
