/** One message as the API receives it (content may be a string, an array of blocks {type:'text', text} / {type:'image',...}, or parts {type:'text', text}). */
export interface MessageInput {
  role: string;
  content: unknown;
  name?: string | null;
  at?: string | null;
}

/** A message after reading: only text kept. */
export interface ReadMessage {
  index: number;
  role: 'user' | 'assistant' | 'tool';
  name: string | null;
  at: Date | null;
  text: string;
}

/** Roles whose words are never learned: they are instructions to the model, not things anyone said. */
const skippedRoles = new Set(['system', 'developer']);

/** Reads message content shapes; drops system and developer messages; keeps the original index. */
export function readMessages(messages: MessageInput[]): ReadMessage[] {
  const read: ReadMessage[] = [];
  messages.forEach((message, index) => {
    const role = readRole(message.role);
    if (role === null) return;
    const text = readContent(message.content);
    // A tool's output is often JSON for the model; only prose from a tool is worth learning.
    if (role === 'tool' && !isPlainText(text)) return;
    read.push({ index, role, name: readName(message.name), at: readTime(message.at), text });
  });
  return read;
}

function readRole(role: string): ReadMessage['role'] | null {
  const normalised = typeof role === 'string' ? role.trim().toLowerCase() : '';
  if (skippedRoles.has(normalised)) return null;
  if (normalised === 'user' || normalised === 'assistant') return normalised;
  // 'function' is the older name OpenAI used for tool results.
  if (normalised === 'tool' || normalised === 'function') return 'tool';
  return null;
}

/** Keeps only text: a string, or the text of every text block or part, one per line. */
export function readContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const item of content) {
      const text = readBlockText(item);
      if (text !== null) texts.push(text);
    }
    return texts.join('\n');
  }
  return readBlockText(content) ?? '';
}

function readBlockText(block: unknown): string | null {
  if (typeof block === 'string') return block;
  if (block === null || typeof block !== 'object') return null;
  const record = block as Record<string, unknown>;
  // 'input_text' and 'output_text' are the OpenAI Responses API's names for text parts.
  const type = record.type;
  const isText = type === undefined || type === 'text' || type === 'input_text' || type === 'output_text';
  return isText && typeof record.text === 'string' ? record.text : null;
}

function isPlainText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return false;
  if (/^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return false;
    } catch {
      return true;
    }
  }
  return true;
}

function readName(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const trimmed = name.trim();
  return trimmed === '' ? null : trimmed;
}

function readTime(at: string | null | undefined): Date | null {
  if (typeof at !== 'string' || at.trim() === '') return null;
  const time = new Date(at);
  return Number.isNaN(time.getTime()) ? null : time;
}
