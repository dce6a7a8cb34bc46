import { z } from 'zod';
import { billableText } from '../files/diff.js';
import type { LearnableSource, SourceFacts } from '../learn/facts-of.js';
import { textPieces } from '../learn/facts-of.js';
import type { LearnedFact, MessageInput, ReadMessage } from '../learn/index.js';
import { readMessages } from '../learn/index.js';
import { countTextTokens } from '../text/token-count.js';
import type { Model, ModelUsage } from './model-client.js';
import { ModelError } from './model-error.js';

/** A current memory shown to the model so that it can say a new fact updates it. */
export interface NearMemory {
  id: number;
  text: string;
  date: string;
}

/** What learning with a model needs besides the model. */
export interface ModelLearnHelpers {
  /** The offline learner: it learns every piece the model could not. */
  offline: (source: LearnableSource) => Promise<SourceFacts>;
  /** The few current memories nearest a piece of text (not all of them: the prompt stays small). */
  nearest: (text: string) => Promise<NearMemory[]>;
  /** Characters of source text per model call. */
  chunkChars?: number;
}

/** What a source taught with a model: the facts, tokens read, and what the model calls cost. */
export interface ModelSourceFacts extends SourceFacts {
  model: ModelUsage & { calls: number; fallbacks: number };
}

/** The answer the model must give for one piece of a source (OpenAI structured outputs, strict). */
export const ModelFactsSchema = z.object({
  facts: z.array(
    z.object({
      text: z.string().describe('One fact in the third person, with every relative date made absolute'),
      kind: z.enum(['people', 'plan', 'pref', 'detail']),
      about: z.array(z.string()).describe('Names of the people, places, organisations and things it mentions'),
      message: z.number().int().nullable().describe('The number of the message it comes from; null for a note'),
      quote: z.string().describe('The exact words of the source the fact comes from'),
      updates: z.number().int().nullable().describe('The id of a listed current memory this fact replaces, else null'),
    }),
  ),
});

const SYSTEM = `You turn what a user saved into facts for their long-term memory.
Write each fact as one short sentence in the third person (use speakers' names; "the user" when none is given),
with every relative date ("last Friday", "next month") made absolute using the date given for the message or note.
Only facts someone states: skip greetings, questions, requests to an assistant, the assistant's own suggestions,
hypotheticals and quoted speech, unless they state a fact about someone.
kind: people (relationships, who someone is), plan (intentions, plans, events to come), pref (likes, dislikes, wishes), detail (anything else).
quote: copy the exact words of the source the fact comes from. message: the number in brackets of that message.
updates: when a fact replaces one of the listed current memories (a new address, a changed job, a moved date), its id; else null.
Answer with JSON only.`;

/** Source text per model call, in characters (about 1,500 tokens). */
const CHUNK_CHARS = 6_000;

interface Piece {
  /** What the model reads. */
  prompt: string;
  /** The messages it holds (conversations), by index. */
  messages: Map<number, ReadMessage>;
  /** Where it lies in the note's text (notes). */
  span: { start: number; end: number } | null;
}

/**
 * Learns a source with the model: one structured-output call per piece of about 6,000
 * characters, shown the few nearest current memories so that it can say which one a new
 * fact updates. Any piece the model fails on (time-out, 429, malformed JSON, refusal) is
 * learned by the offline learner instead, so nothing is lost; the offline learner runs at
 * most once per source.
 */
export async function learnWithModel(model: Model, source: LearnableSource, helpers: ModelLearnHelpers): Promise<ModelSourceFacts> {
  const writtenAt = source.written_at;
  const size = helpers.chunkChars ?? CHUNK_CHARS;
  const read = source.messages ? readMessages(source.messages as MessageInput[]) : null;
  const text = source.body ?? '';
  const pieces = read ? messagePieces(read, writtenAt, size) : notePieces(text, writtenAt, size);
  const tokens = read
    ? read.reduce((sum, message) => sum + countTextTokens(message.text), 0)
    : countTextTokens(source.kind === 'file' ? billableText(text) : text);

  const usage = { input: 0, output: 0, calls: 0, fallbacks: 0 };
  const facts: LearnedFact[] = [];
  const failed: Piece[] = [];
  for (const piece of pieces) {
    const near = await helpers.nearest(piece.prompt.slice(0, 2_000));
    usage.calls++;
    try {
      const answer = await model.structured({ name: 'facts', schema: ModelFactsSchema, system: SYSTEM, user: userPrompt(piece, near) });
      usage.input += answer.usage.input;
      usage.output += answer.usage.output;
      facts.push(...toLearnedFacts(answer.value.facts, piece, text, writtenAt, new Set(near.map((memory) => memory.id))));
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      usage.input += error.usage.input;
      usage.output += error.usage.output;
      failed.push(piece);
    }
  }
  if (failed.length) {
    usage.fallbacks = failed.length;
    const offline = await helpers.offline(source);
    facts.push(...offline.facts.filter((fact) => failed.some((piece) => holds(piece, fact))));
  }
  return { facts, tokens, model: usage };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

function messagePieces(messages: ReadMessage[], writtenAt: Date, size: number): Piece[] {
  const pieces: Piece[] = [];
  let current: Piece = { prompt: '', messages: new Map(), span: null };
  for (const message of messages) {
    if (!message.text.trim()) continue;
    const line = `[${message.index}] ${message.name ?? (message.role === 'user' ? 'The user' : 'The assistant')} (${message.role}, ${day(message.at ?? writtenAt)}): ${message.text}\n`;
    if (current.messages.size && current.prompt.length + line.length > size) {
      pieces.push(current);
      current = { prompt: '', messages: new Map(), span: null };
    }
    current.prompt += line;
    current.messages.set(message.index, message);
  }
  if (current.messages.size) pieces.push(current);
  return pieces;
}

function notePieces(text: string, writtenAt: Date, size: number): Piece[] {
  return textPieces(text, size)
    .filter(({ start, end }) => text.slice(start, end).trim())
    .map(({ start, end }) => ({
      prompt: `Note written ${day(writtenAt)}:\n${text.slice(start, end)}`,
      messages: new Map(),
      span: { start, end },
    }));
}

function userPrompt(piece: Piece, near: NearMemory[]): string {
  const known = near.length
    ? `Current memories (id, date, text):\n${near.map((memory) => `${memory.id} (${memory.date}) ${memory.text}`).join('\n')}`
    : 'Current memories: none.';
  return `${known}\n\nWhat was saved:\n${piece.prompt}`;
}

/** Whether an offline fact comes from a piece the model failed on. */
function holds(piece: Piece, fact: LearnedFact): boolean {
  if (piece.span) return fact.sentence.start >= piece.span.start && fact.sentence.start < piece.span.end;
  return fact.sentence.messageIndex !== null && piece.messages.has(fact.sentence.messageIndex);
}

/** The model's facts as the store keeps them, each traced to the words it came from; what cannot be traced is dropped. */
function toLearnedFacts(
  answered: z.infer<typeof ModelFactsSchema>['facts'],
  piece: Piece,
  text: string,
  writtenAt: Date,
  nearIds: Set<number>,
): LearnedFact[] {
  const facts: LearnedFact[] = [];
  for (const fact of answered) {
    const wording = fact.text.replace(/\s+/gu, ' ').trim();
    if (!wording || wording.length > 1_000) continue;
    const about = [...new Set(fact.about.map((name) => name.trim()).filter((name) => name && name.length <= 100))].slice(0, 12);
    const replaces = fact.updates !== null && nearIds.has(fact.updates) ? fact.updates : undefined;
    if (piece.span) {
      const region = text.slice(piece.span.start, piece.span.end);
      const found = locate(region, fact.quote);
      if (!found) continue;
      const start = piece.span.start + found.start;
      facts.push({
        text: wording,
        kind: fact.kind,
        about,
        date: day(writtenAt),
        sentence: { text: text.slice(start, piece.span.start + found.end), messageIndex: null, start, end: piece.span.start + found.end },
        replaces,
      });
      continue;
    }
    const message = fact.message === null ? undefined : piece.messages.get(fact.message);
    if (!message) continue;
    const found = locate(message.text, fact.quote) ?? { start: 0, end: message.text.length };
    facts.push({
      text: wording,
      kind: fact.kind,
      about,
      date: day(message.at ?? writtenAt),
      sentence: { text: message.text.slice(found.start, found.end), messageIndex: message.index, start: found.start, end: found.end },
      context: message.text,
      replaces,
    });
  }
  return facts;
}

/** Where the quoted words stand in a text: exactly, else ignoring case and runs of white space. */
export function locate(text: string, quote: string): { start: number; end: number } | null {
  const wanted = quote.trim();
  if (!wanted) return null;
  const exact = text.indexOf(wanted);
  if (exact >= 0) return { start: exact, end: exact + wanted.length };
  const pattern = wanted
    .split(/\s+/u)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('\\s+');
  const match = new RegExp(pattern, 'iu').exec(text);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}
