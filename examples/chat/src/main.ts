// Run: ENGRAM_API_KEY=egk_… npm start   (add OPENAI_API_KEY=… to talk to OpenAI instead of the scripted model)
// Then: curl -N localhost:3000/chat -H 'x-user: alice' -H 'content-type: application/json' -d '{"message":"I am vegetarian."}'
import { Engram } from '@engram/client';
import type { ChatModel } from './chat-app.js';
import { createChatApp } from './chat-app.js';
import { scriptedModel } from './scripted-model.js';

async function chooseModel(): Promise<ChatModel> {
  if (!process.env.OPENAI_API_KEY) return scriptedModel().model;
  const { openai } = await import('@ai-sdk/openai');
  return openai(process.env.OPENAI_MODEL ?? 'gpt-4o-mini');
}

const { app } = createChatApp({ engram: new Engram(), model: await chooseModel() });
const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Chat with memory on http://127.0.0.1:${port}/chat`));
