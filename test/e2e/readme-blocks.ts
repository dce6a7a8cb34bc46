import { readFileSync } from 'node:fs';

/** One command of a README shell block and the answer the README shows for it (`# → …`). */
export interface ShownCommand {
  command: string;
  answer?: string;
}

/** The first ```sh block under a heading of a Markdown file. */
export function shellBlockUnder(file: string, heading: string): string {
  const markdown = readFileSync(file, 'utf8');
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(markdown.slice(start));
  if (!block) throw new Error(`no sh block under "${heading}"`);
  return block[1] ?? '';
}

/**
 * Splits a shell block into its commands, a command running on while a quote is open or a line
 * ends with a backslash. Comment lines are dropped, except `# → …`, the answer of the command before.
 */
export function commandsOf(block: string): ShownCommand[] {
  const commands: ShownCommand[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending === '' && line.trim().startsWith('#')) {
      const answer = /^#\s*→\s*(.*)$/.exec(line.trim());
      const previous = commands.at(-1);
      if (answer && previous !== undefined) previous.answer = answer[1];
      continue;
    }
    if (pending === '' && line.trim() === '') continue;
    pending += pending === '' ? line : `\n${line}`;
    if (!quoteOpen(pending) && !pending.endsWith('\\')) {
      commands.push({ command: pending });
      pending = '';
    }
  }
  if (pending !== '') throw new Error(`unfinished command: ${pending}`);
  return commands;
}

/** Whether a single or double quote is still open at the end of the text (shell quoting, roughly). */
function quoteOpen(text: string): boolean {
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (quote === null && character === '#' && (index === 0 || /\s/.test(text.charAt(index - 1)))) {
      const end = text.indexOf('\n', index);
      if (end < 0) return false;
      index = end;
    } else if (quote === null && (character === "'" || character === '"')) quote = character;
    else if (quote === character) quote = null;
    else if (quote === '"' && character === '\\') index++;
  }
  return quote !== null;
}
