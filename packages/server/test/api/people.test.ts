import { beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../fixtures/people-conversation.js';
import { allMemories, call, expectError, freshSpace, saveAndLearn } from './helpers.js';

interface Item {
  text: string;
  memory_id: number;
  kind: string;
}
interface GraphNode {
  id: string;
  name: string;
  type: string;
  memories: number;
}
interface GraphEdge {
  from: string;
  to: string;
  memory_ids: number[];
}

const query = (space: string, parameters: Record<string, string | number> = {}) =>
  `?${new URLSearchParams({ space, ...Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, String(value)])) })}`;
const profile = async (space: string, parameters: Record<string, string> = {}) => {
  const reply = await call('GET', `/v1/profile${query(space, parameters)}`);
  expect(reply.status).toBe(200);
  return reply.body as { subject: string; lasting: Item[]; current: Item[]; grouped: Record<string, Item[]>; memories: number };
};
const graph = async (space: string, parameters: Record<string, string | number> = {}) => {
  const reply = await call('GET', `/v1/graph${query(space, parameters)}`);
  expect(reply.status).toBe(200);
  return reply.body as { nodes: GraphNode[]; edges: GraphEdge[] };
};
const texts = (items: Item[]) => items.map((item) => item.text);
const edgeBetween = (found: { nodes: GraphNode[]; edges: GraphEdge[] }, first: string, second: string) => {
  const id = (name: string) => found.nodes.find((node) => node.name === name)?.id;
  const [a, b] = [id(first), id(second)];
  return found.edges.find((edge) => (edge.from === a && edge.to === b) || (edge.from === b && edge.to === a));
};

/** Saves the three sessions of the conversation, one source each, and waits until each is learned. */
async function saveConversation(space: string) {
  const sources = [];
  for (const [index, messages] of sessions.entries()) {
    sources.push(await saveAndLearn(space, { messages, title: `Catch-up ${index + 1}` }));
  }
  return sources;
}

describe('people and the graph over a conversation of several people', () => {
  const space = freshSpace('people');
  beforeAll(async () => {
    await saveConversation(space);
  });

  it('splits what lasts about a person from what holds now', async () => {
    const maya = await profile(space, { subject: 'Maya' });
    expect(maya.subject).toBe('Maya');
    expect(texts(maya.lasting)).toContain('Maya grew up in Galway before Maya and friends moved to England.');
    expect(texts(maya.lasting)).toContain("Maya's brother Sam helps Maya's family with the garden on weekends.");
    expect(texts(maya.lasting).some((text) => text.startsWith('Maya is allergic to peanuts'))).toBe(true);
    expect(texts(maya.current).some((text) => text.startsWith('Maya moved to Lisbon'))).toBe(true);
    expect(texts(maya.current).some((text) => text.startsWith('Maya is learning Portuguese'))).toBe(true);
    expect(texts(maya.current).some((text) => text.startsWith('Tom and Maya are planning to get married'))).toBe(true);
    // Nothing is in both lists, and grouped holds the same items by kind.
    const lastingIds = new Set(maya.lasting.map((item) => item.memory_id));
    expect(maya.current.filter((item) => lastingIds.has(item.memory_id))).toEqual([]);
    expect(Object.keys(maya.grouped).sort()).toEqual(['detail', 'people', 'plan', 'pref']);
    const groupedIds = Object.values(maya.grouped)
      .flat()
      .map((item) => item.memory_id)
      .sort();
    expect(groupedIds).toEqual([...maya.lasting, ...maya.current].map((item) => item.memory_id).sort());
    for (const [kind, items] of Object.entries(maya.grouped)) for (const item of items) expect(item.kind).toBe(kind);
    // Plans never count as lasting.
    expect(maya.lasting.filter((item) => item.kind === 'plan')).toEqual([]);
    // The count is every current memory that names her, but for her own remarks about others.
    const memories = await allMemories(space);
    expect(maya.memories).toBe(maya.lasting.length + maya.current.length);
    const naming = memories.filter((memory) => memory.about.includes('Maya'));
    const remarks = naming.filter((memory) => memory.text.startsWith('Maya said ') && !memory.text.slice(10).includes('Maya'));
    expect(remarks.length).toBeGreaterThan(0);
    expect(maya.memories).toBe(naming.length - remarks.length);
    expect(texts(maya.lasting)).toContain("Leo said Maya's mother has good taste.");
  });

  it('shows a replaced fact only by its current value', async () => {
    const maya = await profile(space, { subject: 'Maya' });
    const everything = texts([...maya.lasting, ...maya.current]);
    expect(everything.some((text) => text.startsWith('Maya lives in Leeds'))).toBe(false);
    // Her job changed too: the clinic in Alfama replaced the hospital.
    expect(texts(maya.current)).toContain('Maya found a job at a clinic in Alfama.');
    expect(everything.some((text) => text.includes('St James Hospital'))).toBe(false);
    const leo = await profile(space, { subject: 'Leo' });
    const leoFacts = texts([...leo.lasting, ...leo.current]);
    expect(texts(leo.current)).toContain('Leo works at Northwind Labs now as a food scientist.');
    expect(leoFacts.some((text) => text.includes('works at Riverside Bakery'))).toBe(false);
    // Recall leaves it out too.
    const old = (await call('POST', '/v1/search', { body: { q: 'Riverside Bakery pastry chef', space } })).body.memories as {
      text: string;
    }[];
    expect(old.some((memory) => memory.text.includes('Riverside Bakery'))).toBe(false);
  });

  it('finds a subject whatever its case or possessive, by first name alone, and the owner as "me"', async () => {
    const leo = await profile(space, { subject: 'Leo' });
    for (const subject of ['leo', "LEO'S", '  Leo’s ']) {
      const again = await profile(space, { subject });
      expect(again.subject).toBe('Leo');
      expect(again.memories).toBe(leo.memories);
    }
    const sally = await profile(space, { subject: 'Sally' });
    expect(sally.subject).toBe('Sally Rooney');
    expect(sally.memories).toBeGreaterThan(0);
    // The owner is the one the space's user messages name: Maya.
    const maya = await profile(space, { subject: 'Maya' });
    const owner = await profile(space);
    const me = await profile(space, { subject: 'me' });
    expect(owner).toEqual(maya);
    expect(me).toEqual(maya);
    const nobody = await profile(space, { subject: 'Quentin' });
    expect(nobody).toEqual({
      subject: 'Quentin',
      lasting: [],
      current: [],
      grouped: { people: [], plan: [], pref: [], detail: [] },
      memories: 0,
    });
  });

  it('briefs a subject from their most telling memories', async () => {
    const reply = await call('GET', `/v1/brief${query(space, { subject: 'leo', limit: 5 })}`);
    expect(reply.status).toBe(200);
    const leo = await profile(space, { subject: 'Leo' });
    expect(reply.body.subject).toBe('Leo');
    expect(reply.body.total).toBe(leo.memories);
    expect(reply.body.memories).toHaveLength(5);
    expect(reply.body.summary).toContain('Leo works at Northwind Labs now as a food scientist.');
    expect(reply.body.summary).not.toContain('Riverside Bakery');
    for (const memory of reply.body.memories) {
      expect(memory.status).toBe('current');
      expect(memory.about).toContain('Leo');
    }
    const whole = await call('GET', `/v1/brief${query(space, { subject: 'Leo' })}`);
    expect(whole.body.memories).toHaveLength(Math.min(60, leo.memories));
    const none = await call('GET', `/v1/brief${query(space, { subject: 'Quentin' })}`);
    expect(none.body).toEqual({ subject: 'Quentin', summary: 'Nothing is remembered about Quentin yet.', memories: [], total: 0 });
  });

  it('draws an edge only where one memory names both ends, and lists those memories', async () => {
    const found = await graph(space);
    const byName = new Map(found.nodes.map((node) => [node.name, node]));
    expect(byName.get('Maya')).toMatchObject({ type: 'person' });
    expect(byName.get('Leo')).toMatchObject({ type: 'person' });
    expect(byName.get('Lisbon')).toMatchObject({ type: 'place' });
    expect(byName.get('Northwind Labs')).toMatchObject({ type: 'org' });
    expect(new Set(found.nodes.map((node) => node.id)).size).toBe(found.nodes.length);
    expect(new Set(found.nodes.map((node) => node.name.toLowerCase())).size).toBe(found.nodes.length);
    // Most memories first.
    const counts = found.nodes.map((node) => node.memories);
    expect(counts).toEqual([...counts].sort((left, right) => right - left));
    const memories = new Map((await allMemories(space)).map((memory) => [memory.id, memory]));
    const nameOf = new Map(found.nodes.map((node) => [node.id, node.name.toLowerCase()]));
    expect(found.edges.length).toBeGreaterThan(10);
    for (const edge of found.edges) {
      expect(edge.memory_ids.length).toBeGreaterThan(0);
      for (const id of edge.memory_ids) {
        const memory = memories.get(id)!;
        expect(memory, `memory ${id} of an edge is current`).toBeDefined();
        expect(memory.text.toLowerCase()).toContain(nameOf.get(edge.from));
        expect(memory.text.toLowerCase()).toContain(nameOf.get(edge.to));
      }
    }
    // A node's count is the number of current memories naming it.
    expect(byName.get('Lisbon')!.memories).toBe([...memories.values()].filter((memory) => memory.about.includes('Lisbon')).length);
    expect(edgeBetween(found, 'Leo', 'Northwind Labs')).toBeDefined();
    expect(edgeBetween(found, 'Maya', 'Tom')).toBeDefined();
    // Nothing inferred: Greta and Ines are never named in one memory.
    expect(edgeBetween(found, 'Greta', 'Ines')).toBeUndefined();
  });

  it('keeps the nodes most memories name when a limit is given', async () => {
    const whole = await graph(space);
    const top = await graph(space, { limit: 3 });
    expect(top.nodes).toEqual(whole.nodes.slice(0, 3));
    const kept = new Set(top.nodes.map((node) => node.id));
    for (const edge of top.edges) expect(kept.has(edge.from) && kept.has(edge.to)).toBe(true);
  });
});

describe('what the graph forgets', () => {
  it('loses the edges only a deleted source supported, and keeps those other memories support', async () => {
    const space = freshSpace('graph-delete');
    await saveConversation(space);
    const before = await graph(space);
    expect(edgeBetween(before, 'Greta', 'Copenhagen')).toBeDefined();
    expect(edgeBetween(before, 'Sam', 'Greta')).toBeUndefined();
    const note = await saveAndLearn(space, { text: 'Sam visited Greta in Copenhagen.' });
    const during = await graph(space);
    const samGreta = edgeBetween(during, 'Sam', 'Greta');
    expect(samGreta).toBeDefined();
    const greta = during.nodes.find((node) => node.name === 'Greta')!;
    expect(greta.memories).toBe(before.nodes.find((node) => node.name === 'Greta')!.memories + 1);
    expect(edgeBetween(during, 'Greta', 'Copenhagen')!.memory_ids.length).toBe(
      edgeBetween(before, 'Greta', 'Copenhagen')!.memory_ids.length + 1,
    );

    const deleted = await call('DELETE', `/v1/sources/${note.id}?space=${encodeURIComponent(space)}`);
    expect(deleted.status).toBe(200);
    const after = await graph(space);
    expect(edgeBetween(after, 'Sam', 'Greta')).toBeUndefined();
    expect(edgeBetween(after, 'Greta', 'Copenhagen')).toEqual(edgeBetween(before, 'Greta', 'Copenhagen'));
    expect(after).toEqual(before);
  });

  it('loses what only a deleted or corrected memory supported', async () => {
    const space = freshSpace('graph-forget');
    await saveAndLearn(space, { text: 'Nadia works at Globex Corporation.' });
    await saveAndLearn(space, { text: 'Nadia plays tennis with Omar in Valencia.' });
    const before = await graph(space);
    const tennis = edgeBetween(before, 'Omar', 'Valencia')!;
    expect(tennis.memory_ids).toHaveLength(1);
    const removed = await call('DELETE', `/v1/memories/${tennis.memory_ids[0]}?space=${encodeURIComponent(space)}`);
    expect(removed.status).toBe(200);
    const after = await graph(space);
    expect(after.nodes.map((node) => node.name).sort()).toEqual(['Globex Corporation', 'Nadia']);
    expect(after.edges).toHaveLength(1);

    const work = edgeBetween(after, 'Nadia', 'Globex Corporation')!;
    const corrected = await call('PATCH', `/v1/memories/${work.memory_ids[0]}`, { body: { text: 'Nadia works at Initech.', space } });
    expect(corrected.status).toBe(200);
    await call('GET', `/v1/sources/${corrected.body.source.id}?wait=20&space=${encodeURIComponent(space)}`);
    const fixed = await graph(space);
    expect(fixed.nodes.map((node) => node.name)).not.toContain('Globex Corporation');
    expect(edgeBetween(fixed, 'Nadia', 'Initech')).toBeDefined();
    const nadia = await profile(space, { subject: 'nadia' });
    expect(texts([...nadia.lasting, ...nadia.current])).toEqual(['Nadia works at Initech.']);
  });
});

describe('people and the graph between spaces and callers', () => {
  it('never shares nodes between two spaces', async () => {
    const first = freshSpace('graph-first');
    const second = freshSpace('graph-second');
    await saveAndLearn(first, { text: 'My friend Tariq moved to Lisbon with his sister Ana.' });
    await saveAndLearn(second, { text: 'Sofia loves the old trams of Lisbon.' });
    await saveAndLearn(second, { text: 'Sofia works at Hooli.' });
    const one = await graph(first);
    const two = await graph(second);
    expect(one.nodes.map((node) => node.name).sort()).toEqual(['Ana', 'Lisbon', 'Tariq', 'The user']);
    expect(two.nodes.map((node) => node.name).sort()).toEqual(['Hooli', 'Lisbon', 'Sofia']);
    expect(one.nodes.find((node) => node.name === 'Lisbon')!.memories).toBe(1);
    expect(two.nodes.find((node) => node.name === 'Lisbon')!.memories).toBe(1);
    const firstIds = new Set((await allMemories(first)).map((memory) => memory.id));
    for (const edge of two.edges) for (const id of edge.memory_ids) expect(firstIds.has(id)).toBe(false);
    expect((await profile(first, { subject: 'Sofia' })).memories).toBe(0);
    expect((await profile(second, { subject: 'Tariq' })).memories).toBe(0);
  });

  it('holds a limited key to its own space', async () => {
    const own = freshSpace('graph-key');
    const other = freshSpace('graph-other');
    await saveAndLearn(own, { text: 'Ingrid lives in Bergen.' });
    await saveAndLearn(other, { text: 'Pavel lives in Brno.' });
    const made = await call('POST', '/v1/keys', { body: { space: own, name: 'app' } });
    const key = made.body.key as string;
    const mine = await call('GET', '/v1/graph', { key });
    expect(mine.status).toBe(200);
    expect(mine.body.nodes.map((node: GraphNode) => node.name).sort()).toEqual(['Bergen', 'Ingrid']);
    expect((await call('GET', '/v1/profile?subject=Ingrid', { key })).body.memories).toBe(1);
    for (const path of ['/v1/graph', '/v1/profile?subject=Pavel', '/v1/brief?subject=Pavel']) {
      expectError(await call('GET', path, { key, space: other }), 403, 'permission_denied');
      expectError(
        await call('GET', `${path}${path.includes('?') ? '&' : '?'}space=${encodeURIComponent(other)}`, { key }),
        403,
        'permission_denied',
      );
    }
    expectError(await call('GET', '/v1/graph', { key: null }), 401, 'authentication_error');
  });

  it('refuses blank and out-of-range input with the error shape', async () => {
    const space = freshSpace('graph-bad');
    const cases: [string, string][] = [
      ['/v1/profile?subject=', 'subject'],
      ['/v1/profile?subject=%20%20', 'subject'],
      [`/v1/profile?subject=${'a'.repeat(201)}`, 'subject'],
      ['/v1/brief?subject=%20', 'subject'],
      ['/v1/brief?subject=Ana&limit=0', 'limit'],
      ['/v1/brief?subject=Ana&limit=201', 'limit'],
      ['/v1/brief?subject=Ana&limit=many', 'limit'],
      ['/v1/graph?limit=0', 'limit'],
      ['/v1/graph?limit=1001', 'limit'],
      ['/v1/graph?limit=2.5', 'limit'],
    ];
    for (const [path, field] of cases) {
      const error = expectError(await call('GET', path, { space }), 400, 'invalid_request');
      expect(error.details.field, path).toBe(field);
    }
    expectError(await call('GET', `/v1/graph?space=${encodeURIComponent(space)}`, { space: `${space}-x` }), 400, 'invalid_request');
  });

  it('answers an empty space with nothing, and the owner of notes as "The user"', async () => {
    const space = freshSpace('graph-empty');
    expect(await graph(space)).toEqual({ nodes: [], edges: [] });
    await saveAndLearn(space, { text: 'I have a cat called Miso. I work at Umbrella Health.' });
    const found = await graph(space);
    const owner = found.nodes.find((node) => node.name === 'The user');
    expect(owner).toMatchObject({ type: 'person', memories: 2 });
    expect(edgeBetween(found, 'The user', 'Umbrella Health')).toBeDefined();
    const me = await profile(space, { subject: 'I' });
    expect(me.subject).toBe('The user');
    expect(me.memories).toBe(2);
    expect(texts(me.current)).toContain('The user works at Umbrella Health.');
  });

  it('gives the owner the clipped notes an app writes about them ("User prefers…", "Drives…")', async () => {
    const space = freshSpace('clipped-notes');
    await saveAndLearn(space, { text: 'User prefers aisle seats. Drives a grey Skoda. Works at Umbrella Health.' });
    const me = await profile(space);
    expect(me.subject).toBe('The user');
    expect(me.memories).toBe(3);
    expect([...texts(me.lasting), ...texts(me.current)].sort()).toEqual([
      'The user drives a grey Skoda.',
      'The user prefers aisle seats.',
      'The user works at Umbrella Health.',
    ]);
  });
});
