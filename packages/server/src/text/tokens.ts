import nlp from './nlp.js';

/** A word as compromise tagged it, placed in the text it came from. */
export interface Token {
  start: number;
  end: number;
  /** The exact characters in the text ('' for the hidden half of a contraction such as the "am" of "I'm"). */
  text: string;
  /** Lower-cased, compromise's normal form. */
  normal: string;
  /** What a contraction part stands for ("am" in "I'm"), else null. */
  implied: string | null;
  tags: ReadonlySet<string>;
}

/** The fields of a compromise term we read; its published types leave out `implicit`. */
interface CompromiseTerm {
  text: string;
  normal: string;
  implicit?: string;
  tags?: Set<string>;
}

const noTags: ReadonlySet<string> = new Set();

/**
 * Tags a whole text once. Parsing is the slowest step of learning, so a message is parsed
 * a single time and each sentence reads the tokens that fall inside it.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const sentences = nlp(text).docs as unknown as CompromiseTerm[][];
  let cursor = 0;
  for (const sentence of sentences) {
    for (const term of sentence) {
      let start = cursor;
      if (term.text !== '') {
        const found = text.indexOf(term.text, cursor);
        // compromise keeps the input's characters, so a miss means a term we cannot place; skip it.
        if (found === -1) continue;
        start = found;
      }
      const end = start + term.text.length;
      tokens.push({
        start,
        end,
        text: term.text,
        normal: term.normal,
        implied: term.implicit ?? null,
        tags: term.tags ?? noTags,
      });
      cursor = end;
    }
  }
  return tokens;
}

/** The tokens whose text lies in [start, end), assuming tokens are in text order. */
export function tokensWithin(tokens: readonly Token[], start: number, end: number): Token[] {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (tokens[middle]!.start < start) low = middle + 1;
    else high = middle;
  }
  const within: Token[] = [];
  for (let index = low; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.start >= end) break;
    if (token.end <= end) within.push(token);
  }
  return within;
}
