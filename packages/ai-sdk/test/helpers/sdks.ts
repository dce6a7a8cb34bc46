// The same middleware tests run against ai 7 (LanguageModel specification v4) and ai 6 (v3).
// The two SDKs' types differ in their version tags only where these tests don't look, so each is
// reached through the small surface below.
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import type { EngramMemoryMiddleware } from '../../src/index.js';

/** A message of the prompt the mock model received. */
export interface SeenMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }>;
}

/** One scripted step: a reply, or a call of a tool. */
export type Step = { text: string } | { toolCall: { name: string; input: Record<string, unknown> } };

/** What a test does through one SDK. */
export interface Sdk {
  name: string;
  /** A mock model playing `steps` in turn (the last one again when they run out), wrapped with the middleware. */
  model(middleware: EngramMemoryMiddleware, script: (prompt: SeenMessage[]) => Step): { model: unknown; prompts: SeenMessage[][] };
  generateText(options: Record<string, unknown>): Promise<{ text: string }>;
  /** Streams to the end and returns the text. */
  streamText(options: Record<string, unknown>): Promise<{ text: string }>;
  stopAfter(steps: number): unknown;
  tool: (definition: Record<string, unknown>) => unknown;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function contentOf(step: Step, callNumber: number) {
  if ('text' in step) return { content: [{ type: 'text', text: step.text }], finishReason: { unified: 'stop', raw: 'stop' } };
  return {
    content: [
      { type: 'tool-call', toolCallId: `call-${callNumber}`, toolName: step.toolCall.name, input: JSON.stringify(step.toolCall.input) },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  };
}

function streamOf(step: Step, callNumber: number): ReadableStream<Record<string, unknown>> {
  const { content, finishReason } = contentOf(step, callNumber);
  const parts: Array<Record<string, unknown>> = [{ type: 'stream-start', warnings: [] }];
  for (const part of content) {
    if (part.type === 'text') {
      // Two deltas, so the reply is put together from pieces.
      const text = (part as { text: string }).text;
      const half = Math.ceil(text.length / 2);
      parts.push({ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: text.slice(0, half) });
      parts.push({ type: 'text-delta', id: 't1', delta: text.slice(half) }, { type: 'text-end', id: 't1' });
    } else {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason, usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

function makeSdk(
  name: string,
  ai: typeof ai7 | typeof ai6,
  Mock: typeof MockLanguageModelV4 | typeof MockLanguageModelV3,
  stopAfter: (steps: number) => unknown,
): Sdk {
  // The SDKs' generic signatures differ by version; the tests pass plain option objects.
  const loose = ai as unknown as {
    wrapLanguageModel(options: { model: unknown; middleware: unknown }): unknown;
    generateText(options: Record<string, unknown>): Promise<{ text: string }>;
    streamText(options: Record<string, unknown>): { text: PromiseLike<string>; consumeStream(): PromiseLike<void> };
    tool(definition: Record<string, unknown>): unknown;
  };
  return {
    name,
    model(middleware, script) {
      const prompts: SeenMessage[][] = [];
      let calls = 0;
      const next = (options: { prompt: unknown }) => {
        const prompt = structuredClone(options.prompt) as SeenMessage[];
        prompts.push(prompt);
        return { step: script(prompt), number: ++calls };
      };
      const mock = new (Mock as unknown as new (options: Record<string, unknown>) => unknown)({
        doGenerate: async (options: { prompt: unknown }) => {
          const { step, number } = next(options);
          return { ...contentOf(step, number), usage, warnings: [] };
        },
        doStream: async (options: { prompt: unknown }) => {
          const { step, number } = next(options);
          return { stream: streamOf(step, number) };
        },
      });
      return { model: loose.wrapLanguageModel({ model: mock, middleware }), prompts };
    },
    generateText: (options) => loose.generateText(options),
    async streamText(options) {
      const result = loose.streamText(options);
      await result.consumeStream();
      return { text: await result.text };
    },
    stopAfter,
    tool: (definition) => loose.tool(definition),
  };
}

/** ai 7 and ai 6. */
export const sdks: Sdk[] = [
  makeSdk('ai 7 (specification v4)', ai7, MockLanguageModelV4, (steps) => ai7.isStepCount(steps)),
  makeSdk('ai 6 (specification v3)', ai6, MockLanguageModelV3, (steps) => ai6.stepCountIs(steps)),
];

/** The system messages of a prompt. */
export const systemTexts = (prompt: SeenMessage[]) =>
  prompt.filter((message) => message.role === 'system').map((message) => message.content as string);
