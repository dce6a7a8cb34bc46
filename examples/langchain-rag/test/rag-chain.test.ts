import { Engram } from '@engram/client';
import { expect, inject, it } from 'vitest';
import { createRagChain } from '../src/rag-chain.js';
import { ScriptedChatModel } from '../src/scripted-model.js';
import { RAG_TEST_KEY } from './setup.js';

const engram = new Engram({ apiKey: RAG_TEST_KEY, baseURL: inject('langchainRagEngramUrl'), logger: null });

/** Waits until everything saved for a user is learned. */
async function learned(user: string) {
  for await (const source of engram.sources.list({ space: user })) await engram.sources.wait(source.id, { space: user, timeout: 20_000 });
}

const systemOf = (model: ScriptedChatModel, index: number) =>
  model.prompts[index]!.filter((message) => message.type === 'system')
    .map((message) => message.text)
    .join('\n');

it('answers a user from what they said before, keeps the session, and keeps it from other users', { timeout: 60_000 }, async () => {
  const [alice, bob] = [`alice-${crypto.randomUUID()}`, `bob-${crypto.randomUUID()}`];
  const model = new ScriptedChatModel({});
  const session = { configurable: { sessionId: 'first' } };
  const alicesChain = createRagChain({ client: engram.forSpace(alice), model, userName: 'Alice' });

  expect(await alicesChain.invoke({ question: 'I am training for a half marathon in Lisbon.' }, session)).toBe(
    'Thanks, I will keep that in mind.',
  );
  expect(systemOf(model, 0)).toMatch(/\(nothing yet\)/);
  await learned(alice);

  const reply = await alicesChain.invoke({ question: 'What race am I training for?' }, session);
  expect(systemOf(model, 1)).toMatch(/- Alice is training for a half marathon in Lisbon/);
  expect(reply).toMatch(/^From what I remember: Alice is training for a half marathon in Lisbon/);
  // The history of the session came along with the second question.
  expect(model.prompts[1]!.map((message) => message.type)).toEqual(['system', 'human', 'ai', 'human']);
  const { files } = await engram.files.list({ prefix: '/langchain/sessions/', space: alice });
  expect(files.map((file) => file.path)).toEqual(['/langchain/sessions/first/000001.jsonl']);

  const bobsChain = createRagChain({ client: engram.forSpace(bob), model, userName: 'Bob' });
  expect(await bobsChain.invoke({ question: 'What race am I training for?' }, session)).toBe('Thanks, I will keep that in mind.');
  expect(systemOf(model, 2)).not.toMatch(/marathon/);
  expect(model.prompts[2]!.map((message) => message.type)).toEqual(['system', 'human']);
});
