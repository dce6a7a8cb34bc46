import type { Engram } from '@engram/client';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { inSpace } from './internal/in-space.js';

/** Options of `engramTools()`. */
export interface EngramToolsOptions {
  /** The Engram client; a client made with `forSpace()` or a limited key already names the user's space. */
  client: Engram;
  /** The space (one end user's memory) the tools reach. Default: the client's own. */
  space?: string;
}

const kinds = ['all', 'people', 'plan', 'pref', 'detail'] as const;

/**
 * LangChain tools for agents that manage memory themselves, in this order: `searchMemory`
 * (ranked memories), `remember` (save a note to learn from) and `askMemory` (a short answer from
 * memory alone). Each returns JSON text for the model. Errors reach the agent as LangChain
 * handles tool errors.
 * @example
 * const model = chatModel.bindTools(engramTools({ client: engram.forSpace(user.id) }));
 */
export function engramTools(options: EngramToolsOptions) {
  const { client, space } = options;

  /** Finds what is remembered about a subject, best first. */
  const searchMemory = tool(
    async ({ query, kind, limit }) => {
      const { memories, total } = await client.search({ q: query, ...(kind && { kind }), ...(limit && { limit }), ...inSpace(space) });
      return JSON.stringify({ total, memories: memories.map(({ id, text, kind, date }) => ({ id, text, kind, date })) });
    },
    {
      name: 'searchMemory',
      description:
        'Search the long-term memory of this user for facts about a subject. Returns the best matching memories with their dates.',
      schema: z.object({
        query: z.string().min(1).max(2_000).describe('What to look for, in a few words'),
        kind: z.enum(kinds).optional().describe('Only memories of this kind: people, plan, pref (preferences) or detail'),
        limit: z.number().int().min(1).max(50).optional().describe('Most memories to return (default 10)'),
      }),
    },
  );

  /** Saves something worth remembering; it is learned in the background. */
  const remember = tool(
    async ({ text, title }) => {
      const { source } = await client.memories.add({ text, ...(title && { title }), ...inSpace(space) });
      return JSON.stringify({ saved: true, source_id: source.id, status: source.status });
    },
    {
      name: 'remember',
      description: 'Save a fact, preference or plan about this user to long-term memory. Write it as a full sentence.',
      schema: z.object({
        text: z.string().min(1).max(20_000).describe('What to remember, as one or a few full sentences'),
        title: z.string().max(300).optional().describe('A short title'),
      }),
    },
  );

  /** Answers a question from memory alone; `answer` is null when nothing remembered supports one. */
  const askMemory = tool(
    async ({ question }) => {
      const { answer, memories } = await client.ask({ question, ...inSpace(space) });
      return JSON.stringify({ answer, memories: memories.map(({ id, text, date }) => ({ id, text, date })) });
    },
    {
      name: 'askMemory',
      description: 'Ask the long-term memory of this user a question. Answers from memory alone; answer is null when nothing is known.',
      schema: z.object({
        question: z.string().min(1).max(2_000).describe('The question, as a full sentence'),
      }),
    },
  );

  const tools: [typeof searchMemory, typeof remember, typeof askMemory] = [searchMemory, remember, askMemory];
  return tools;
}
