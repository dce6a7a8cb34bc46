import type { Engram } from '@engram/client';
import { type Tool, tool } from 'ai';
import { z } from 'zod';

/** Options of `engramTools()`. */
export interface EngramToolsOptions {
  /** The Engram client; a client made with `forSpace()` or a limited key already names the user's space. */
  client: Engram;
  /** The space (one end user's memory) the tools reach. Default: the client's own. */
  space?: string;
}

const kinds = ['all', 'people', 'plan', 'pref', 'detail'] as const;

type SearchedMemory = Awaited<ReturnType<Engram['search']>>['memories'][number];
type AnsweringMemory = Awaited<ReturnType<Engram['ask']>>['memories'][number];

/** What `searchMemory` takes. */
export interface SearchMemoryInput {
  query: string;
  kind?: (typeof kinds)[number];
  limit?: number;
}

/** What `searchMemory` gives the model: the best matching memories and how many matched. */
export interface SearchMemoryOutput {
  total: number;
  memories: Array<Pick<SearchedMemory, 'id' | 'text' | 'kind' | 'date'>>;
}

/** What `remember` takes. */
export interface RememberInput {
  text: string;
  title?: string;
}

/** What `remember` gives the model: the saved source, learned in the background. */
export interface RememberOutput {
  saved: true;
  source_id: string;
  status: Awaited<ReturnType<Engram['memories']['add']>>['source']['status'];
}

/** What `askMemory` takes. */
export interface AskMemoryInput {
  question: string;
}

/** What `askMemory` gives the model: the answer (null when nothing supports one) and its memories. */
export interface AskMemoryOutput {
  answer: string | null;
  memories: Array<Pick<AnsweringMemory, 'id' | 'text' | 'date'>>;
}

/** What `briefing` takes. */
export interface BriefingInput {
  project?: string;
  cue?: string;
  budget_chars?: number;
}

type DueIntention = Awaited<ReturnType<Engram['briefing']>>['due'][number];

/** What `briefing` gives the model: the briefing text and what is due. */
export interface BriefingOutput {
  project: Awaited<ReturnType<Engram['briefing']>>['project'];
  briefing: string;
  due: Array<Pick<DueIntention, 'id' | 'text' | 'due'>>;
}

/**
 * The tools `engramTools()` returns. Declared with the AI SDK's `Tool` type, the same in ai 6
 * and 7, so the published types hold for either.
 */
// A type alias, not an interface, so it fits the SDKs' `ToolSet` index signature.
export type EngramTools = {
  searchMemory: Tool<SearchMemoryInput, SearchMemoryOutput>;
  remember: Tool<RememberInput, RememberOutput>;
  askMemory: Tool<AskMemoryInput, AskMemoryOutput>;
  briefing: Tool<BriefingInput, BriefingOutput>;
};

/**
 * AI SDK tools for agents that manage memory themselves: `searchMemory` (ranked memories),
 * `remember` (save a note to learn from), `askMemory` (a short answer from memory alone) and
 * `briefing` (where a project stands, what is due, the rules, what happened, within a budget).
 * @example
 * const { text } = await generateText({ model, tools: engramTools({ client: engram.forSpace(user.id) }), stopWhen: isStepCount(5), prompt });
 */
export function engramTools(options: EngramToolsOptions): EngramTools {
  const { client, space } = options;
  const inSpace = space !== undefined ? { space } : {};

  return {
    /** Finds what is remembered about a subject, best first. */
    searchMemory: tool({
      description:
        'Search the long-term memory of this user for facts about a subject. Returns the best matching memories with their dates.',
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

    /** A briefing to start a working session with: state, due promises, rules, episodes and memories. */
    briefing: tool({
      description:
        'Get a briefing before working on a project: where it stands, what is due, the rules that apply, what happened recently, ' +
        'and key memories with their dates. Give a cue (the task at hand) to put what bears on it first.',
      inputSchema: z.object({
        project: z.string().max(200).optional().describe('The project to brief on; leave out for every project'),
        cue: z.string().max(4_000).optional().describe('The task or topic at hand; what bears on it comes first'),
        budget_chars: z.number().int().min(500).max(40_000).optional().describe('Longest briefing in characters (default 6000)'),
      }),
      execute: async ({ project, cue, budget_chars }) => {
        const result = await client.briefing({
          ...(project && { project }),
          ...(cue && { cue }),
          ...(budget_chars && { budget_chars }),
          ...inSpace,
        });
        return {
          project: result.project,
          briefing: result.briefing,
          due: result.due.map(({ id, text, due }) => ({ id, text, due })),
        };
      },
    }),
  };
}
