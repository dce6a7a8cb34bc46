import type {
  ChatMessage,
  ChatResponse,
  ChatResponseChunk,
  LLMChatParamsNonStreaming,
  LLMChatParamsStreaming,
  LLMMetadata,
} from 'llamaindex';
import { BaseLLM } from 'llamaindex';

/** What the scripted model answers, given the messages it was sent. */
export type Script = (messages: ChatMessage[]) => string;

/** A LlamaIndex LLM that answers by a script and keeps every prompt it was sent: the tests' model. */
export class ScriptedLLM extends BaseLLM {
  readonly prompts: ChatMessage[][] = [];
  metadata: LLMMetadata = {
    model: 'scripted',
    temperature: 0,
    topP: 1,
    contextWindow: 16_000,
    tokenizer: undefined,
    structuredOutput: false,
  };

  constructor(private readonly script: Script) {
    super();
  }

  chat(params: LLMChatParamsStreaming): Promise<AsyncIterable<ChatResponseChunk>>;
  chat(params: LLMChatParamsNonStreaming): Promise<ChatResponse>;
  async chat(params: LLMChatParamsStreaming | LLMChatParamsNonStreaming): Promise<AsyncIterable<ChatResponseChunk> | ChatResponse> {
    const messages = structuredClone(params.messages);
    this.prompts.push(messages);
    const reply = this.script(messages);
    if (!params.stream) return { message: { role: 'assistant', content: reply }, raw: null };
    const half = Math.ceil(reply.length / 2);
    return (async function* () {
      yield { delta: reply.slice(0, half), raw: null };
      yield { delta: reply.slice(half), raw: null };
    })();
  }
}

/** The text of the system messages of a prompt, joined. */
export const systemText = (messages: ChatMessage[]) =>
  messages
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
