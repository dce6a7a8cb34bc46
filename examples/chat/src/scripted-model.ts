import { MockLanguageModelV4 } from 'ai/test';

type Prompt = Array<{ role: string; content: unknown }>;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The scripted reply: the first remembered line when the prompt carries memory, else a thank-you. */
function replyTo(prompt: Prompt): string {
  const remembered = prompt
    .filter((message) => message.role === 'system' && typeof message.content === 'string')
    .flatMap((message) => (message.content as string).split('\n'))
    .find((line) => line.startsWith('- '));
  if (remembered) return `From what I remember: ${remembered.slice(2).replace(/\s+\[.*\]$/, '')}`;
  return 'Thanks, I will keep that in mind.';
}

/**
 * A model that needs no network, for running the example offline and testing it: the AI SDK's
 * mock model, streaming a scripted reply. `prompts` holds every prompt it was given.
 */
export function scriptedModel() {
  const prompts: Prompt[] = [];
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      prompts.push(prompt as Prompt);
      const text = replyTo(prompt as Prompt);
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 'reply' });
            for (const word of text.split(/(?<= )/)) controller.enqueue({ type: 'text-delta', id: 'reply', delta: word });
            controller.enqueue({ type: 'text-end', id: 'reply' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
            controller.close();
          },
        }),
      };
    },
  });
  return { model, prompts };
}
