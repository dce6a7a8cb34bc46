import { fingerprint, repliedToTail, textOfContent } from './text.js';

/** What this package reads of an input item of the Responses API. */
export interface InputItemLike {
  type?: string;
  role?: string;
  content?: unknown;
}

/** What this package reads of a `responses.create` body. */
export interface ResponsesBodyLike {
  input?: string | InputItemLike[] | null;
  instructions?: string | null;
  previous_response_id?: string | null;
  stream?: boolean | null;
}

/** What this package reads of an output item. */
interface OutputItemLike {
  type?: string;
  role?: string;
  content?: unknown;
}

/** What this package reads of a response. */
export interface ResponseLike {
  id?: string;
  status?: string | null;
  output?: OutputItemLike[];
}

/** What this package reads of a streamed event. */
export interface ResponseEventLike {
  type?: string;
  delta?: string;
  response?: ResponseLike;
}

/** The input as a list of items (a string input is one user message). */
const itemsOf = (input: ResponsesBodyLike['input']): InputItemLike[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];

const isUserMessage = (item: InputItemLike) => item.role === 'user' && (item.type === undefined || item.type === 'message');

/** The user's latest words when the input ends with them (a new turn), else '' (tool results of a turn under way). */
export function newTurnText(body: ResponsesBodyLike): string {
  const last = itemsOf(body.input).at(-1);
  return last && isUserMessage(last) ? textOfContent(last.content) : '';
}

/** The text of the input's last user message. */
export function lastUserText(body: ResponsesBodyLike): string {
  const items = itemsOf(body.input);
  for (let index = items.length - 1; index >= 0; index--) if (isUserMessage(items[index]!)) return textOfContent(items[index]!.content);
  return '';
}

/**
 * The end of the assistant's message in the input just before its last user message (what the
 * turn replies to), or '' when the input holds none (the reply may be the previous response's).
 */
export function repliedToInInput(body: ResponsesBodyLike): string {
  const items = itemsOf(body.input);
  let index = items.length - 1;
  while (index >= 0 && !isUserMessage(items[index]!)) index--;
  for (index--; index >= 0; index--) {
    const item = items[index]!;
    if (isUserMessage(item) || item.role === 'system' || item.role === 'developer') return '';
    if (item.role !== 'assistant') continue;
    const text = textOfContent(item.content);
    if (text !== '') return repliedToTail(text);
  }
  return '';
}

/** The key of a turn: the space, the response it follows, and the input up to its last user message. */
export function responsesTurnKey(space: string | undefined, body: ResponsesBodyLike): string {
  const items = itemsOf(body.input);
  let userIndex = items.length - 1;
  while (userIndex >= 0 && !isUserMessage(items[userIndex]!)) userIndex--;
  const upToUser = items.slice(0, userIndex + 1).filter((item) => item.role !== 'system' && item.role !== 'developer');
  const words = JSON.stringify(upToUser.map((item) => [item.type ?? 'message', item.role ?? '', textOfContent(item.content)]));
  return `responses\u0000${space ?? ''}\u0000${body.previous_response_id ?? ''}\u0000${upToUser.length}\u0000${fingerprint(words)}`;
}

/** The body with the block added to the instructions, after the app's own. */
export function withInstructions<B extends ResponsesBodyLike>(body: B, block: string): B {
  const own = typeof body.instructions === 'string' && body.instructions.trim() !== '' ? `${body.instructions}\n\n` : '';
  return { ...body, instructions: `${own}${block}` };
}

/** The response's reply text, and whether the turn is over (finished, with no tool call left to answer). */
export function replyOfResponse(response: ResponseLike): { text: string; endsTurn: boolean } {
  const output = response.output ?? [];
  const text = output
    .filter((item) => item.type === 'message' && (item.role === undefined || item.role === 'assistant'))
    .map((item) => textOfContent(item.content))
    .filter((part) => part !== '')
    .join('\n')
    .trim();
  const callsTools = output.some(
    (item) =>
      typeof item.type === 'string' && item.type.endsWith('_call') && item.type !== 'web_search_call' && item.type !== 'file_search_call',
  );
  return { text, endsTurn: (response.status ?? 'completed') === 'completed' && !callsTools };
}

/** Puts the reply together from a stream's events; the completed response has the last word. */
export function eventCollector() {
  let text = '';
  let completed: ResponseLike | undefined;
  return {
    add(event: ResponseEventLike) {
      if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') text += event.delta;
      else if (event.type === 'response.completed' && event.response) completed = event.response;
    },
    result: (): { text: string; endsTurn: boolean; id?: string } => {
      if (!completed) return { text: text.trim(), endsTurn: false };
      const reply = replyOfResponse(completed);
      return {
        text: reply.text !== '' ? reply.text : text.trim(),
        endsTurn: reply.endsTurn,
        ...(completed.id !== undefined && { id: completed.id }),
      };
    },
  };
}
