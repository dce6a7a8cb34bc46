import type { Engram } from '@engram/client';
import { EngramRetriever, engramBlock } from '@engram/llamaindex';
import type { LLM, MemoryMessage, TextNode } from 'llamaindex';
import { createMemory, SimpleChatEngine } from 'llamaindex';

/** One remembered fact, as `/recall` prints it. */
export interface Recalled {
  text: string;
  score: number;
  memoryId: number;
  kind: string;
  date: string;
}

/**
 * One user's chat: a LlamaIndex `SimpleChatEngine` whose `Memory` holds an Engram block, so each
 * new message gets what Engram knows about the user, and each finished turn is saved to learn from.
 * `recall()` asks the Engram retriever directly.
 */
export function createChatSession({ engram, llm, user, timeout }: { engram: Engram; llm: LLM; user: string; timeout?: number }) {
  // `timeout`: how long a message may wait for memory before the chat goes on without it (default 2 s).
  const block = engramBlock({ client: engram, space: user, ...(timeout !== undefined && { timeout }) });
  const memory = createMemory({ memoryBlocks: [block] });
  const engine = new SimpleChatEngine({ llm, memory });
  const retriever = new EngramRetriever({ client: engram, space: user, k: 5 });

  return {
    /** Sends a message and gives the reply, streamed to `onText` as it comes. */
    async send(message: string, onText: (text: string) => void = () => undefined): Promise<string> {
      const stream = await engine.chat({ message, stream: true });
      let reply = '';
      for await (const chunk of stream) {
        reply += chunk.delta;
        onText(chunk.delta);
      }
      return reply;
    },

    /** The memories that bear on a question, best first. */
    async recall(question: string): Promise<Recalled[]> {
      const nodes = await retriever.retrieve({ query: question });
      return nodes.map(({ node, score }) => ({
        text: (node as TextNode).text,
        score: score ?? 0,
        memoryId: node.metadata.memory_id as number,
        kind: node.metadata.kind as string,
        date: node.metadata.date as string,
      }));
    },

    /** Saves the last turn (the block saves each earlier one when the next message comes) and waits for every save. */
    async end(): Promise<void> {
      const { messages } = JSON.parse(memory.snapshot()) as { messages: MemoryMessage[] };
      await block.put(messages);
      await block.flush();
    },
  };
}
