// The first tests check the exact requests with an injected fetch, and answers checked by the
// protocol schemas; the last block runs briefing, now, episodes, lessons, intentions and memory
// health against the real server.
import {
  BriefingResponseSchema,
  BriefResponseSchema,
  EpisodesResponseSchema,
  GraphResponseSchema,
  IntentionResponseSchema,
  IntentionsResponseSchema,
  LessonsResponseSchema,
  MemoryHealthResponseSchema,
  NowResponseSchema,
  ProfileResponseSchema,
  UsageResponseSchema,
} from '@engram/protocol';
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionDeniedError } from '../src/index.js';
import { expectRequest } from './helpers/expect-request.js';
import { intention, memory } from './helpers/fixtures.js';
import { fakeClient, json } from './helpers/recording-fetch.js';
import { clientOf, freshSpace, startTestServer } from './helpers/server.js';

const state = {
  project: 'launch',
  goal: 'Ship v1',
  focus: 'pricing',
  open_items: ['tiers'],
  decisions: ['monthly only'],
  next_steps: ['draft page'],
  updated_at: '2026-11-22T10:00:00.000Z',
};
const lesson = {
  id: 2,
  type: 'rule' as const,
  text: 'Never deploy on Fridays',
  applies_when: 'deploying',
  why: 'weekend',
  project: 'launch',
  source_id: 'src_1',
  date: '2026-11-20',
};
const episode = { id: 4, project: 'launch', title: 'Pricing call', summary: 'Agreed on tiers', date: '2026-11-21', source_id: 'src_2' };

describe('briefing and recall extras (injected fetch: routes not served yet)', () => {
  it('briefing: POST /v1/briefing with project, cue and budget', async () => {
    const answer = BriefingResponseSchema.parse({
      project: 'launch',
      briefing: 'Where things stand: …',
      now: [state],
      due: [intention()],
      lessons: [lesson],
      episodes: [episode],
      memories: [memory()],
    });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.forSpace('u1').briefing({ project: 'launch', cue: 'pricing', budget_chars: 4000 })).toEqual(answer);
    expectRequest(calls[0], {
      method: 'POST',
      path: '/v1/briefing',
      body: { project: 'launch', cue: 'pricing', budget_chars: 4000 },
      headers: { 'x-memory-space': 'u1' },
      idempotent: false,
    });
    await engram.briefing();
    expectRequest(calls[1], { method: 'POST', path: '/v1/briefing', body: {}, idempotent: false });
  });

  it('now: GET /v1/now?project=', async () => {
    const answer = NowResponseSchema.parse({ now: [state] });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.now({ project: 'launch' })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/now', query: { project: 'launch' } });
    await engram.now();
    expectRequest(calls[1], { method: 'GET', path: '/v1/now' });
  });

  it('episodes: GET /v1/episodes with project and limit', async () => {
    const answer = EpisodesResponseSchema.parse({ episodes: [episode] });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.episodes({ project: 'launch', limit: 5, space: 'u1' })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/episodes', query: { project: 'launch', limit: '5', space: 'u1' } });
  });

  it('lessons: GET /v1/lessons with project and limit', async () => {
    const answer = LessonsResponseSchema.parse({ lessons: [lesson] });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.lessons({ limit: 10 })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/lessons', query: { limit: '10' } });
  });

  it('memoryHealth(): GET /v1/memory-health; memoryHealth.run(): POST /v1/memory-health/run', async () => {
    const answer = MemoryHealthResponseSchema.parse({
      health: 0.75,
      tested_at: '2026-11-22T03:00:00.000Z',
      asked: 4,
      score: 3,
      items: [{ question: 'Where does Ana live?', expected: 'Porto', answer: 'Porto', mark: 'right', memory_ids: [1] }],
    });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.memoryHealth()).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/memory-health' });
    expect(await engram.forSpace('u1').memoryHealth.run()).toEqual(answer);
    expectRequest(calls[1], { method: 'POST', path: '/v1/memory-health/run', body: {}, headers: { 'x-memory-space': 'u1' } });
    await engram.memoryHealth({ space: 'u2' });
    expectRequest(calls[2], { method: 'GET', path: '/v1/memory-health', query: { space: 'u2' } });
  });

  it('profile: GET /v1/profile?subject=', async () => {
    const line = { text: 'Ana lives in Porto', memory_id: 1, kind: 'people' as const };
    const answer = ProfileResponseSchema.parse({ subject: 'Ana', lasting: [line], current: [], grouped: { people: [line] }, memories: 1 });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.profile({ subject: 'Ana' })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/profile', query: { subject: 'Ana' } });
  });

  it('brief: GET /v1/brief with subject and limit', async () => {
    const answer = BriefResponseSchema.parse({ subject: 'Ana', summary: 'Ana lives in Porto.', memories: [memory()], total: 1 });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.brief({ subject: 'Ana', limit: 20 })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/brief', query: { subject: 'Ana', limit: '20' } });
  });

  it('graph: GET /v1/graph', async () => {
    const answer = GraphResponseSchema.parse({
      nodes: [
        { id: 'n1', name: 'Ana', type: 'person', memories: 2 },
        { id: 'n2', name: 'Porto', type: 'place', memories: 1 },
      ],
      edges: [{ from: 'n1', to: 'n2', memory_ids: [1] }],
    });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.graph()).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/graph' });
  });

  it('usage: GET /v1/usage, its space sent in the header only', async () => {
    const answer = UsageResponseSchema.parse({
      plan: 'free',
      trial: true,
      period_start: '2026-11-01T00:00:00.000Z',
      period_end: '2026-12-01T00:00:00.000Z',
      learned_tokens: 1200,
      included_tokens: 1_000_000,
      waiting_tokens: 0,
      answers: 3,
      included_answers: 1000,
      extra_on: false,
      extra_cap_usd: 0,
      extra_used_usd: 0,
      state: 'ok',
      model_input_tokens: 0,
      model_output_tokens: 0,
    });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.usage()).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/usage', headers: { 'x-memory-space': null } });
    await engram.usage({ space: 'u1' });
    expectRequest(calls[1], { method: 'GET', path: '/v1/usage', headers: { 'x-memory-space': 'u1' } });
    await engram.forSpace('u2').usage();
    expectRequest(calls[2], { method: 'GET', path: '/v1/usage', headers: { 'x-memory-space': 'u2' } });
  });
});

describe('intentions (injected fetch: route not served yet)', () => {
  it('list: GET /v1/intentions with status and limit', async () => {
    const answer = IntentionsResponseSchema.parse({ intentions: [intention()] });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.intentions.list({ status: 'open', limit: 10 })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/intentions', query: { status: 'open', limit: '10' } });
    await engram.intentions.list();
    expectRequest(calls[1], { method: 'GET', path: '/v1/intentions' });
  });

  it('update: POST /v1/intentions/{id} with the status', async () => {
    const answer = IntentionResponseSchema.parse({ intention: intention({ status: 'dropped' }) });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.intentions.update(7, { status: 'dropped' })).toEqual(answer);
    expectRequest(calls[0], { method: 'POST', path: '/v1/intentions/7', body: { status: 'dropped' } });
    await engram.intentions.update(7);
    expectRequest(calls[1], { method: 'POST', path: '/v1/intentions/7', body: {} });
  });
});

describe('briefings against the real server', () => {
  const notes = [
    'Project: Lantern',
    '',
    'Goal: open the night market stall before the winter festival.',
    'Our focus this week is the lantern supplier.',
    '- [ ] Get the market permit',
    '- [x] Choose the stall colours',
    "I'll send the permit form to the council by Friday.",
    'Remind me to order candles when we talk about the budget.',
    'Never leave the lanterns lit overnight because the wind knocks them over.',
    'Joana Reis makes the paper shades for the stall.',
  ].join('\n');

  it('briefing, now, episodes and lessons read what a note taught', async () => {
    const engram = clientOf(await startTestServer()).forSpace(freshSpace('lantern'));
    await engram.memories.add({ text: notes, title: 'Stall planning' }, { wait: true });
    const { now } = await engram.now({ project: 'Lantern' });
    expect(now).toEqual([
      expect.objectContaining({
        project: 'Lantern',
        goal: 'Open the night market stall before the winter festival',
        open_items: ['Get the market permit'],
      }),
    ]);
    const { episodes } = await engram.episodes({ limit: 5 });
    expect(episodes).toEqual([expect.objectContaining({ title: 'Stall planning', project: 'Lantern' })]);
    const { lessons } = await engram.lessons({ project: 'Lantern' });
    expect(lessons).toEqual([
      expect.objectContaining({ type: 'rule', text: 'Never leave the lanterns lit overnight', why: 'the wind knocks them over' }),
    ]);
    const briefing = await engram.briefing({ project: 'Lantern', cue: 'budget', budget_chars: 2000 });
    expect(BriefingResponseSchema.parse(briefing)).toEqual(briefing);
    expect(briefing.briefing.length).toBeLessThanOrEqual(2000);
    expect(briefing.briefing).toMatch(/^Where things stand$/m);
    expect(briefing.due.map((intention) => intention.text)).toContainEqual(expect.stringMatching(/order candles/));
    expect(briefing.memories.some((memory) => /Joana Reis/.test(memory.text))).toBe(true);
  }, 60_000);

  it('files.write and memories.add take a project', async () => {
    const engram = clientOf(await startTestServer()).forSpace(freshSpace('lantern'));
    await engram.files.write({ path: '/stall.md', text: 'Our focus is the lantern supplier.', project: 'Lantern' }, { wait: true });
    await engram.memories.add({ text: 'Our goal is to finish the quilt by spring.', project: 'Quilt' }, { wait: true });
    const { now } = await engram.now();
    expect(now.map((state) => state.project).sort()).toEqual(['Lantern', 'Quilt']);
  }, 60_000);

  it('intentions move between lists; memory health is null, then a number', async () => {
    const server = await startTestServer();
    const space = freshSpace('lantern');
    const engram = clientOf(server).forSpace(space);
    await engram.memories.add({ text: notes }, { wait: true });
    const { intentions } = await engram.intentions.list();
    expect(intentions.map((intention) => intention.status)).toEqual(['open', 'open']);
    const { intention } = await engram.intentions.update(intentions[0]!.id);
    expect(intention.status).toBe('done');
    expect((await engram.intentions.list()).intentions).toHaveLength(1);
    expect((await engram.intentions.list({ status: 'done' })).intentions.map((row) => row.id)).toEqual([intention.id]);
    await expect(engram.intentions.update(2_000_000_000)).rejects.toBeInstanceOf(NotFoundError);

    expect(await engram.memoryHealth()).toEqual({ health: null, tested_at: null, asked: 0, score: 0, items: [] });
    const run = await engram.memoryHealth.run();
    expect(run.asked).toBeGreaterThan(0);
    expect(run.health).toBeGreaterThanOrEqual(0);
    expect(run.health).toBeLessThanOrEqual(1);
    expect(await engram.memoryHealth()).toEqual(run);
    const { key } = await clientOf(server).keys.create({ space });
    const limited = clientOf(server, { apiKey: key, maxRetries: 0 });
    await expect(limited.memoryHealth.run()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await limited.memoryHealth()).health).toBe(run.health);
  }, 60_000);
});
