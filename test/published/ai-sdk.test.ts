// @engram/ai-sdk as installed from its tarball (ESM only), with the AI SDK from the registry and
// a model written inline (no network): the middleware puts what Engram knows into the prompt.
import { describe, expect, it } from 'vitest';
import { freshSpace, runScript } from './helpers.js';

describe('@engram/ai-sdk as published', () => {
  it('puts the user memory into the prompt of a wrapped model, and offers memory tools', async () => {
    const space = freshSpace('ai-sdk');
    const result = await runScript(
      'mjs',
      `
      import { Engram } from '@engram/client';
      import { engramMemory, engramTools } from '@engram/ai-sdk';
      import { generateText, wrapLanguageModel } from 'ai';
      import * as mocks from 'ai/test';
      import { createRequire } from 'node:module';

      // npm picks the newest ai within the peer range that suits this Node: 7 (model spec v4) or 6 (v3).
      const MockLanguageModel = mocks.MockLanguageModelV4 ?? mocks.MockLanguageModelV3;
      const aiVersion = createRequire(import.meta.url)('ai/package.json').version;

      const engram = new Engram();
      await engram.forSpace(${JSON.stringify(space)}).memories.add({ text: 'Ines is learning to play the cello.' }, { wait: true });
      const prompts = [];
      const model = new MockLanguageModel({
        doGenerate: async ({ prompt }) => {
          prompts.push(JSON.stringify(prompt));
          return {
            content: [{ type: 'text', text: 'Keep practising the cello.' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
            warnings: [],
          };
        },
      });
      const memory = engramMemory({ client: engram });
      const wrapped = wrapLanguageModel({ model, middleware: memory });
      const { text } = await generateText({ model: wrapped, prompt: 'What instrument is Ines learning?', providerOptions: { engram: { space: ${JSON.stringify(space)} } } });
      await memory.flush();
      const tools = engramTools({ client: engram.forSpace(${JSON.stringify(space)}) });
      console.log(JSON.stringify({ aiMajor: Number(aiVersion.split('.')[0]), text, sawMemory: prompts.some((prompt) => prompt.includes('cello')), tools: Object.keys(tools).sort() }));
    `,
    );
    expect([6, 7]).toContain(result.aiMajor);
    expect({ ...result, aiMajor: undefined }).toEqual({
      aiMajor: undefined,
      text: 'Keep practising the cello.',
      sawMemory: true,
      tools: ['askMemory', 'briefing', 'remember', 'searchMemory'],
    });
  });

  it('is ESM only: require() names no entry', async () => {
    const result = await runScript(
      'cjs',
      `try { require('@engram/ai-sdk'); console.log('"loaded"') } catch (error) { console.log(JSON.stringify(error.code)) }`,
    );
    expect(result).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
