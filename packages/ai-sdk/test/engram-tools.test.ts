import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { engramTools } from '../src/index.js';
import type { Step } from './helpers/sdks.js';
import { sdks } from './helpers/sdks.js';
import { freshSpace, learned, recordingClient } from './helpers/server.js';

type Executable = { execute: (input: unknown, options: unknown) => Promise<unknown>; inputSchema: z.ZodType };
const run = (tool: unknown, input: unknown) => (tool as Executable).execute(input, { toolCallId: 'call-1', messages: [] });

describe('engramTools', () => {
  it("remembers, searches and asks in the user's space only", async () => {
    const [space, other] = [freshSpace('fay'), freshSpace('gus')];
    const { client } = recordingClient();
    const tools = engramTools({ client, space });
    const others = engramTools({ client, space: other });

    const saved = await run(tools.remember, { text: 'Fay is allergic to peanuts.' });
    expect(saved).toMatchObject({ saved: true, source_id: expect.stringMatching(/^src_/) });
    await learned(client, space);

    const found = (await run(tools.searchMemory, { query: 'peanuts' })) as { total: number; memories: Array<{ text: string }> };
    expect(found.total).toBeGreaterThan(0);
    expect(found.memories[0]!.text).toMatch(/peanuts/);
    const asked = (await run(tools.askMemory, { question: 'What is Fay allergic to?' })) as { answer: string | null };
    expect(asked.answer).toMatch(/peanuts/i);

    expect(await run(others.searchMemory, { query: 'peanuts' })).toEqual({ total: 0, memories: [] });
    expect(((await run(others.askMemory, { question: 'What is Fay allergic to?' })) as { answer: unknown }).answer).toBeNull();
  });

  it("briefs on a project from what the user's space learned", async () => {
    const space = freshSpace('ivy');
    const { client } = recordingClient();
    const tools = engramTools({ client, space });
    await run(tools.remember, {
      text: 'Project: Garden\n\nOur goal is to plant the herb bed before April.\nNever water the basil at noon because the leaves scorch.',
    });
    await learned(client, space);
    const briefed = (await run(tools.briefing, { project: 'Garden', budget_chars: 1000 })) as { project: string; briefing: string };
    expect(briefed.project).toBe('Garden');
    expect(briefed.briefing.length).toBeLessThanOrEqual(1000);
    expect(briefed.briefing).toMatch(/Goal: Plant the herb bed before April/);
    expect(briefed.briefing).toMatch(/Rule: Never water the basil at noon\./);
    const other = (await run(engramTools({ client, space: freshSpace('jay') }).briefing, { project: 'Garden' })) as { briefing: string };
    expect(other.briefing).not.toMatch(/herb bed/);
  });

  it('describes its inputs with zod schemas that refuse bad input', () => {
    const { client } = recordingClient();
    const tools = engramTools({ client });
    expect(Object.keys(tools)).toEqual(['searchMemory', 'remember', 'askMemory', 'briefing']);
    const briefing = (tools.briefing as unknown as Executable).inputSchema;
    expect(briefing.safeParse({ project: 'Falcon', cue: 'pricing', budget_chars: 2000 }).success).toBe(true);
    expect(briefing.safeParse({ budget_chars: 100 }).success).toBe(false);
    const schema = (tools.searchMemory as unknown as Executable).inputSchema;
    expect(schema.safeParse({ query: 'peanuts', kind: 'pref' }).success).toBe(true);
    expect(schema.safeParse({ query: '' }).success).toBe(false);
    expect(schema.safeParse({ query: 'x', kind: 'nonsense' }).success).toBe(false);
  });

  it.each(sdks)('lets a model of $name save and find a memory in a tool loop', async (sdk) => {
    const space = freshSpace('hal');
    const { client, to } = recordingClient();
    const script = (prompt: Array<{ role: string }>): Step =>
      prompt[prompt.length - 1]!.role === 'tool'
        ? { text: 'Saved.' }
        : { toolCall: { name: 'remember', input: { text: 'Hal runs every morning at six.' } } };
    // No memory middleware here: the agent manages memory itself.
    const passThrough = { specificationVersion: 'v3' as const } as never;
    const { model } = sdk.model(passThrough, script);
    const { text } = await sdk.generateText({
      model,
      tools: engramTools({ client, space }),
      stopWhen: sdk.stopAfter(3),
      prompt: 'Remember that I run at six.',
    });
    expect(text).toBe('Saved.');
    expect(to('POST', '/v1/memories').map((call) => call.body)).toEqual([{ text: 'Hal runs every morning at six.', space }]);
  });
});
