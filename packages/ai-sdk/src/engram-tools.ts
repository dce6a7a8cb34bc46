import type { Engram } from '@engram/client';
import { tool } from 'ai';
import { z } from 'zod';

/** Options of `engramTools()`. */
export interface EngramToolsOptions {
  /** The Engram client; a client made with `forSpace()` or a limited key already names the user's space. */
  client: Engram;
  /** The space (one end user's memory) the tools reach. Default: the client's own. */
  space?: string;
}

const kinds = ['all', 'people', 'plan', 'pref', 'detail'] as const;

/**
 * AI SDK tools for agents that manage memory themselves: `searchMemory` (ranked memories),
 * `remember` (save a note to learn from) and `askMemory` (a short answer from memory alone).
 * @example
 * const { text } = await generateText({ model, tools: engramTools({ client: engram.forSpace(user.id) }), stopWhen: isStepCount(5), prompt });
 */
export function engramTools(options: EngramToolsOptions) {
  const { client, space } = options;
  const inSpace = space !== undefined ? { space } : {};

  return {
    /** Finds what is remembered about a subject, best first. */
    searchMemory: tool({
      description: 'Search the long-term memory of this user for facts about a subject. Returns the best matching memories with their dates.',
      inputSchema: z.object({
        query: z.string().min(1).max(2_000).describe('What to look for, in a few words'),
        kind: z.enum(kinds).optional().describe('Only memories of this kind: people, plan, pref (preferences) or detail'),
        limit: z.number().int().min(1).max(50).optional().describe('Most memories to return (default 10)'),
      }),
      execute: async ({ query, kind, limit }) => {
        const { memories, total } = await client.search({ q: query, ...(kind && { kind }), ...(limit && { limit }), ...inSpace });
        return { total, memories: memories.map(({ id, text, kind, date }) => ({ id, text, kind, date })) };
      },
    }),

    /** Saves something worth remembering; it is learned in the background. */
    remember: tool({
      description: 'Save a fact, preference or plan about this user to long-term memory. Write it as a full sentence.',
      inputSchema: z.object({
        text: z.string().min(1).max(20_000).describe('What to remember, as one or a few full sentences'),
        title: z.string().max(300).optional().describe('A short title'),
      }),
      execute: async ({ text, title }) => {
        const { source } = await client.memories.add({ text, ...(title && { title }), ...inSpace });
        return { saved: true, source_id: source.id, status: source.status };
      },
    }),

    /** Answers a question from memory alone; `answer` is null when nothing remembered supports one. */
    askMemory: tool({
      description: 'Ask the long-term memory of this user a question. Answers from memory alone; answer is null when nothing is known.',
      inputSchema: z.object({
        question: z.string().min(1).max(2_000).describe('The question, as a full sentence'),
      }),
      execute: async ({ question }) => {
        const { answer, memories } = await client.ask({ question, ...inSpace });
        return { answer, memories: memories.map(({ id, text, date }) => ({ id, text, date })) };
      },
    }),
  };
}
