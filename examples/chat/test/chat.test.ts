import type { AddressInfo } from 'node:net';
import { Engram } from '@engram/client';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createChatApp } from '../src/chat-app.js';
import { scriptedModel } from '../src/scripted-model.js';
import { CHAT_TEST_KEY } from './setup.js';

const engram = new Engram({ apiKey: CHAT_TEST_KEY, baseURL: inject('chatEngramUrl'), logger: null });
const { model, prompts } = scriptedModel();
const { app, memory } = createChatApp({ engram, model });
let url = '';
let server: import('node:http').Server;

beforeAll(async () => {
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const say = async (user: string, message: string) => {
  const answer = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ message }),
  });
  expect(answer.status).toBe(200);
  return answer.text();
};
const systemOf = (index: number) =>
  prompts[index]!.filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');

it('remembers what a user said in one request when they ask in the next, and keeps it from others', async () => {
  const [alice, bob] = [`alice-${crypto.randomUUID()}`, `bob-${crypto.randomUUID()}`];

  expect(await say(alice, 'I am allergic to peanuts.')).toBe('Thanks, I will keep that in mind.');
  expect(systemOf(0)).not.toMatch(/peanuts/);
  await memory.flush();
  const { sources } = await engram.sources.list({ space: alice });
  expect(sources).toHaveLength(1);
  await engram.sources.wait(sources[0]!.id, { space: alice, timeout: 20_000 });

  const reply = await say(alice, 'What am I allergic to?');
  expect(systemOf(1)).toMatch(/allergic to peanuts/);
  expect(reply).toMatch(/^From what I remember: .*allergic to peanuts/);

  const bobsReply = await say(bob, 'What am I allergic to?');
  expect(systemOf(2)).not.toMatch(/peanuts/);
  expect(bobsReply).toBe('Thanks, I will keep that in mind.');
  await memory.flush();
});

it('refuses a request with no user', async () => {
  const answer = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hi' }),
  });
  expect(answer.status).toBe(401);
});
