import type {
  ChatMessage,
  ChatResponse,
  ChatResponseChunk,
  LLMChatParamsNonStreaming,
  LLMChatParamsStreaming,
  LLMMetadata,
} from 'llamaindex';
import { BaseLLM } from 'llamaindex';

/** The scripted reply: the first remembered line when the prompt carries memory, else a thank-you. */
function replyTo(messages: ChatMessage[]): string {
  const remembered = messages
    .filter((message) => message.role === 'system' && typeof message.content === 'string')
    .flatMap((message) => (message.content as string).split('\n'))
    .find((line) => line.startsWith('- '));
  if (remembered) return `From what I remember: ${remembered.slice(2).replace(/\s+\[.*\]$/, '')}`;
  return 'Thanks, I will keep that in mind.';
}

/**
 * A LlamaIndex LLM that needs no network, for running the example offline and testing it: it
 * answers from the memory in its prompt, word by word when streaming. `prompts` holds every
 * prompt it was given.
 */
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

  chat(params: LLMChatParamsStreaming): Promise<AsyncIterable<ChatResponseChunk>>;
  chat(params: LLMChatParamsNonStreaming): Promise<ChatResponse>;
  async chat(params: LLMChatParamsStreaming | LLMChatParamsNonStreaming): Promise<AsyncIterable<ChatResponseChunk> | ChatResponse> {
    this.prompts.push(params.messages);
    const reply = replyTo(params.messages);
    if (!params.stream) return { message: { role: 'assistant', content: reply }, raw: null };
    return (async function* () {
      for (const word of reply.split(/(?<= )/)) yield { delta: word, raw: null };
    })();
  }
}
