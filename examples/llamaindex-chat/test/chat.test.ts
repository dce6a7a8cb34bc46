import { Engram } from '@engram/client';
import { expect, inject, it } from 'vitest';
import { createChatSession } from '../src/chat-session.js';
import { ScriptedLLM } from '../src/scripted-llm.js';
import { LLAMAINDEX_CHAT_TEST_KEY } from './setup.js';

const engram = new Engram({ apiKey: LLAMAINDEX_CHAT_TEST_KEY, baseURL: inject('llamaindexChatEngramUrl'), logger: null });
const systemOf = (llm: ScriptedLLM, index: number) =>
  llm.prompts[index]!.filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');

it('remembers what a user said in one chat when they ask in the next, and keeps it from others', async () => {
  const [alice, bob] = [`alice-${crypto.randomUUID()}`, `bob-${crypto.randomUUID()}`];
  const llm = new ScriptedLLM();

  const first = createChatSession({ engram, llm, user: alice, timeout: 20_000 });
  const streamed: string[] = [];
  expect(await first.send('I am allergic to peanuts.', (text) => streamed.push(text))).toBe('Thanks, I will keep that in mind.');
  expect(streamed.length).toBeGreaterThan(1);
  expect(systemOf(llm, 0)).not.toMatch(/peanuts/);
  expect(await first.send('I also play the cello in an orchestra.')).toBe('Thanks, I will keep that in mind.');
  await first.end();
  const { sources } = await engram.sources.list({ space: alice });
  expect(sources.map((source) => source.kind)).toEqual(['conversation', 'conversation']);
  for (const source of sources) await engram.sources.wait(source.id, { space: alice, timeout: 20_000 });

  const second = createChatSession({ engram, llm, user: alice, timeout: 20_000 });
  const reply = await second.send('What am I allergic to?');
  expect(systemOf(llm, 2)).toMatch(/allergic to peanuts/);
  expect(reply).toMatch(/^From what I remember: .*allergic to peanuts/);

  const recalled = await second.recall('Which instrument do I play?');
  expect(recalled[0]!.text).toMatch(/cello/);
  expect(Number.isInteger(recalled[0]!.memoryId)).toBe(true);
  expect(recalled[0]!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await second.end();

  const bobs = createChatSession({ engram, llm, user: bob, timeout: 20_000 });
  expect(await bobs.send('What am I allergic to?')).toBe('Thanks, I will keep that in mind.');
  expect(systemOf(llm, 3)).not.toMatch(/peanuts/);
  expect(await bobs.recall('allergic peanuts cello')).toEqual([]);
  await bobs.end();
}, 120_000);
