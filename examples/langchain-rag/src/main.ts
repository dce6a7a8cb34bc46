// Run: ENGRAM_API_KEY=egk_… npm start -w engram-example-langchain-rag -- alice 'I am training for a half marathon in April.'
// Then: ENGRAM_API_KEY=egk_… npm start -w engram-example-langchain-rag -- alice 'What race am I training for?'
// Add OPENAI_API_KEY=… to answer with OpenAI (OPENAI_MODEL, default gpt-4o-mini) instead of the scripted model.
import { Engram } from '@engram/client';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { createRagChain } from './rag-chain.js';
import { ScriptedChatModel } from './scripted-model.js';

async function chooseModel(): Promise<BaseChatModel> {
  if (!process.env.OPENAI_API_KEY) return new ScriptedChatModel({});
  const { ChatOpenAI } = await import('@langchain/openai');
  return new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini' });
}

const [user, ...words] = process.argv.slice(2);
if (!user || !words.length) {
  console.error('Usage: npm start -- <user> <message…>');
  process.exit(2);
}
const name = user.charAt(0).toUpperCase() + user.slice(1);
const chain = createRagChain({ client: new Engram().forSpace(user), model: await chooseModel(), userName: name });
console.log(await chain.invoke({ question: words.join(' ') }, { configurable: { sessionId: process.env.SESSION_ID ?? 'cli' } }));
