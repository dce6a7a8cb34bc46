import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../src/index.js';
import { BadRequestError, PermissionDeniedError } from '../src/index.js';
import type { TestServer } from './helpers/server.js';
import { clientOf, freshSpace, startTestServer } from './helpers/server.js';

let server: TestServer;
let engram: Engram;
let space: string;

beforeAll(async () => {
  server = await startTestServer();
  engram = clientOf(server);
  space = freshSpace('people');
  const user = engram.forSpace(space);
  const at = '2026-11-02T09:00:00Z';
  await user.memories.add(
    {
      messages: [
        { role: 'user', name: 'Lena', content: 'I live in Hamburg with my husband Jonas.', at },
        { role: 'assistant', name: 'Kofi', content: 'I work at Harbour Robotics as an engineer.', at },
        { role: 'user', name: 'Lena', content: 'My brother Felix is visiting us next week.', at },
        { role: 'assistant', name: 'Kofi', content: 'Jonas and I play football every Sunday.', at },
      ],
    },
    { wait: true },
  );
});

afterAll(async () => {
  await server.close();
});

describe('people and the graph against a real server', () => {
  it('profile(): lasting and current facts of a subject, and of the owner when left out', async () => {
    const user = engram.forSpace(space);
    const lena = await user.profile({ subject: "lena's" });
    expect(lena.subject).toBe('Lena');
    expect(lena.current.map((item) => item.text)).toContain("Lena lives in Hamburg with Lena's husband Jonas.");
    expect(lena.current.some((item) => item.kind === 'plan' && item.text.includes('Felix'))).toBe(true);
    expect(lena.memories).toBe(lena.lasting.length + lena.current.length);
    expect(Object.keys(lena.grouped).sort()).toEqual(['detail', 'people', 'plan', 'pref']);
    // The owner is who the space's user messages name.
    expect(await user.profile()).toEqual(lena);
    const kofi = await engram.profile({ subject: 'Kofi', space });
    expect(kofi.current.map((item) => item.text)).toContain('Kofi works at Harbour Robotics as an engineer.');
  });

  it('brief(): a summary, the memories behind it and their total', async () => {
    const brief = await engram.forSpace(space).brief({ subject: 'Jonas', limit: 1 });
    expect(brief.subject).toBe('Jonas');
    expect(brief.total).toBe(2);
    expect(brief.memories).toHaveLength(1);
    expect(brief.memories[0]!.about).toContain('Jonas');
    expect(brief.summary).toContain('Jonas');
  });

  it('graph(): typed nodes and edges that each list the memories naming both ends', async () => {
    const graph = await engram.forSpace(space).graph();
    const byName = new Map(graph.nodes.map((node) => [node.name, node]));
    expect(byName.get('Lena')?.type).toBe('person');
    expect(byName.get('Hamburg')?.type).toBe('place');
    expect(byName.get('Harbour Robotics')?.type).toBe('org');
    expect(byName.get('Jonas')?.memories).toBe(2);
    const memories = (await engram.forSpace(space).memories.list({ limit: 200 })).memories;
    const textOf = new Map(memories.map((memory) => [memory.id, memory.text.toLowerCase()]));
    const nameOf = new Map(graph.nodes.map((node) => [node.id, node.name.toLowerCase()]));
    expect(graph.edges.length).toBeGreaterThan(0);
    for (const edge of graph.edges) {
      expect(edge.memory_ids.length).toBeGreaterThan(0);
      for (const id of edge.memory_ids) {
        expect(textOf.get(id)).toContain(nameOf.get(edge.from));
        expect(textOf.get(id)).toContain(nameOf.get(edge.to));
      }
    }
    const top = await engram.graph({ space, limit: 1 });
    expect(top.nodes).toEqual(graph.nodes.slice(0, 1));
    expect(top.edges).toEqual([]);
  });

  it('raises the API errors: a blank subject, a limit out of range, another space', async () => {
    await expect(engram.profile({ subject: ' ', space })).rejects.toBeInstanceOf(BadRequestError);
    await expect(engram.graph({ space, limit: 5000 })).rejects.toBeInstanceOf(BadRequestError);
    const { key } = await engram.forSpace(space).keys.create({ name: 'device' });
    const limited = clientOf(server, { apiKey: key });
    expect((await limited.graph()).nodes.length).toBeGreaterThan(0);
    await expect(limited.graph({ space: freshSpace() })).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
