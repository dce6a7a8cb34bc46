// Run: ENGRAM_API_KEY=egk_… npm start -w engram-example-llamaindex-chat -- alice
// (add OPENAI_API_KEY=… to talk to OpenAI instead of the scripted model). Type /recall <question>
// to see what Engram recalls, and /quit (or Ctrl-D) to end: the last turn is saved on the way out.
import { createInterface } from 'node:readline/promises';
import { Engram } from '@engram/client';
import type { LLM } from 'llamaindex';
import { createChatSession } from './chat-session.js';
import { ScriptedLLM } from './scripted-llm.js';

async function chooseLLM(): Promise<LLM> {
  if (!process.env.OPENAI_API_KEY) return new ScriptedLLM();
  const { OpenAI } = await import('@llamaindex/openai');
  return new OpenAI({ model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini' });
}

const user = process.argv[2] ?? process.env.CHAT_USER ?? 'demo';
const session = createChatSession({ engram: new Engram(), llm: await chooseLLM(), user });
const terminal = createInterface({ input: process.stdin, output: process.stdout });
console.log(`Chatting as ${user}. /recall <question> shows what Engram recalls; /quit ends.`);

for await (const line of terminal) {
  const message = line.trim();
  if (message === '/quit') break;
  if (message.startsWith('/recall ')) {
    for (const memory of await session.recall(message.slice('/recall '.length))) {
      console.log(`  #${memory.memoryId} ${memory.score.toFixed(2)} ${memory.text} [${memory.kind}, ${memory.date}]`);
    }
  } else if (message !== '') {
    await session.send(message, (text) => process.stdout.write(text));
    process.stdout.write('\n');
  }
}
terminal.close();
await session.end();
