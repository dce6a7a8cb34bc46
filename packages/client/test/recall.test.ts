import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../src/index.js';
import { BadRequestError } from '../src/index.js';
import type { TestServer } from './helpers/server.js';
import { clientOf, freshSpace, startTestServer } from './helpers/server.js';

const EMPTY_CONTEXT = 'There is nothing stored about this yet. Say so rather than guessing.';

let server: TestServer;
let engram: Engram;
let space: string;

beforeAll(async () => {
  server = await startTestServer();
  engram = clientOf(server);
  space = freshSpace();
  await engram.forSpace(space).memories.add('Clara is a vegetarian. Clara lives in Lyon. Clara plays the cello.', { wait: true });
});

afterAll(async () => {
  await server.close();
});

describe('recall against a real server', () => {
  it('context: a prompt-ready block with sources, and the fixed sentence when nothing is known', async () => {
    const user = engram.forSpace(space);
    const known = await user.context('Where does Clara live?');
    expect(known.question).toBe('Where does Clara live?');
    expect(known.empty).toBe(false);
    expect(known.used).toBe(known.memories.length);
    expect(known.context).toMatch(/^- .*Lyon.*\[note, \d{1,2} [A-Z][a-z]+ \d{4}\]/m);
    const bare = await user.context({ question: 'Where does Clara live?', with_sources: false, limit: 1 });
    expect(bare.memories).toHaveLength(1);
    expect(bare.context).not.toMatch(/\[note/);
    const unknown = await engram.forSpace(freshSpace()).context("What is Clara's job?");
    expect(unknown).toMatchObject({ context: EMPTY_CONTEXT, empty: true, used: 0, memories: [] });
  });

  it('ask: an answer from the memory alone, null when nothing supports one', async () => {
    const known = await engram.ask({ question: 'Which instrument does Clara play?', space });
    expect(known.answer).toMatch(/cello/);
    expect(known.memories.length).toBeGreaterThan(0);
    expect(known.clash).toBe(false);
    const unknown = await engram.forSpace(freshSpace()).ask('Which instrument does Clara play?');
    expect(unknown.answer).toBeNull();
    expect(typeof unknown.message).toBe('string');
  });

  it('search: ranked memories with counts, filtered by kind and limited', async () => {
    const user = engram.forSpace(space);
    const found = await user.search('Lyon');
    expect(found.memories.length).toBeGreaterThan(0);
    expect(found.memories.some((memory) => /Lyon/.test(memory.text))).toBe(true);
    expect(found.memories[0]!.score).toBeGreaterThan(0);
    expect(found.counts.all).toBe(found.total);
    const all = await user.search({ q: 'Clara', limit: 50 });
    for (const kind of ['people', 'plan', 'pref', 'detail'] as const) {
      const ofKind = await user.search({ q: 'Clara', kind, limit: 50 });
      expect(ofKind.memories.every((memory) => memory.kind === kind)).toBe(true);
      expect(ofKind.memories).toHaveLength(all.memories.filter((memory) => memory.kind === kind).length);
    }
    const one = await user.search({ q: 'Clara', limit: 1 });
    expect(one.memories).toHaveLength(1);
    await expect(user.search({ q: '' })).rejects.toBeInstanceOf(BadRequestError);
  });
});
