import type { LearnedStructures } from '../brief/learn-structures.js';
import { learnStructures } from '../brief/learn-structures.js';
import { billableText } from '../files/diff.js';
import type { SourceRow } from '../store/source-repository.js';
import { countTextTokens } from '../text/token-count.js';
import type { LearnedFact, MessageInput } from './index.js';
import { learnFromMessages, learnFromText, readMessages } from './index.js';

/**
 * What the learner needs of a source: its text or messages, its kind and when it was written,
 * and (for briefings) its title and the project it was saved under.
 */
export type LearnableSource = Pick<SourceRow, 'kind' | 'body' | 'messages' | 'written_at'> & Partial<Pick<SourceRow, 'title' | 'project'>>;

/** The facts a source teaches, the tokens of the text read, and the project state, intentions, lessons and episode it teaches. */
export interface SourceFacts {
  facts: LearnedFact[];
  tokens: number;
  structures?: LearnedStructures;
}

/** The facts a source teaches, by the offline learner, and the tokens of the text it read. */
export async function factsOf(source: LearnableSource): Promise<SourceFacts> {
  const options = { writtenAt: source.written_at, note: source.kind === 'note' };
  if (source.messages) {
    const messages = readMessages(source.messages as MessageInput[]);
    const tokens = messages.reduce((sum, message) => sum + countTextTokens(message.text), 0);
    const facts = learnFromMessages(messages, options);
    return { facts, tokens, structures: learnStructures(source, facts) };
  }
  const text = source.body ?? '';
  const facts = await learnFromLongText(text, options);
  // A file's body blanks what is already learned; the blanks are not billed.
  return { facts, tokens: countTextTokens(source.kind === 'file' ? billableText(text) : text), structures: learnStructures(source, facts) };
}

/** Text is learned in pieces of about this many characters, cut between paragraphs or sentences. */
const LEARN_CHUNK_CHARS = 8_000;

/**
 * Learns a note of any length. The learner's cost grows faster than the length of what it is
 * given, so a long text is learned piece by piece (cut at a line break, else after a sentence),
 * blank pieces (a file's already-learned text) are skipped, and offsets point back into the text.
 * Learning is CPU work: when it runs on the server's own thread (no learner threads), the
 * event loop gets its turn between pieces, so API requests are answered meanwhile.
 */
export async function learnFromLongText(text: string, options: { writtenAt: Date; note?: boolean }): Promise<LearnedFact[]> {
  const facts: LearnedFact[] = [];
  const all = textPieces(text, LEARN_CHUNK_CHARS);
  for (const [index, { start, end }] of all.entries()) {
    // Only the stretch between the first and last non-blank character is read.
    const piece = text.slice(start, end);
    const first = piece.search(/\S/u);
    if (first >= 0) {
      const offset = start + first;
      const last = piece.length - piece.trimEnd().length;
      for (const fact of learnFromText(piece.slice(first, piece.length - last), options)) {
        facts.push({ ...fact, sentence: { ...fact.sentence, start: fact.sentence.start + offset, end: fact.sentence.end + offset } });
      }
    }
    if (index < all.length - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return facts;
}

/**
 * Cuts a text into pieces of about `size` characters, each cut at a line break in its second
 * half, else after a sentence there, else at `size`: [start, end) offsets that cover the text.
 */
export function textPieces(text: string, size: number): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const half = Math.floor(size / 2);
      const window = text.slice(start + half, end);
      const lineBreak = window.lastIndexOf('\n');
      const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
      const cut = lineBreak >= 0 ? lineBreak + 1 : sentenceEnd >= 0 ? sentenceEnd + 2 : -1;
      if (cut >= 0) end = start + half + cut;
    }
    pieces.push({ start, end });
    start = end;
  }
  return pieces;
}
