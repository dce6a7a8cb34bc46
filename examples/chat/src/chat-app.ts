import { engramMemory } from '@engram/ai-sdk';
import type { Engram } from '@engram/client';
import { streamText, wrapLanguageModel } from 'ai';
import type { Request } from 'express';
import express from 'express';

/** A model `wrapLanguageModel` takes: any AI SDK provider's model, or the scripted one. */
export type ChatModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/** Who is signed in. A real app reads its session here; this example trusts an `x-user` header. */
const userOf = (request: Request): string | undefined => request.get('x-user')?.trim() || undefined;

/**
 * An Express chat server whose model remembers each user: Engram's context block goes into each
 * new turn, and every finished turn is saved to learn from.
 */
export function createChatApp({ engram, model }: { engram: Engram; model: ChatModel }) {
  const memory = engramMemory({ client: engram });
  const remembering = wrapLanguageModel({ model, middleware: memory });
  const app = express();
  app.use(express.json());

  app.post('/chat', (request, response) => {
    const user = userOf(request);
    if (!user) {
      response.status(401).json({ error: 'Sign in first (send x-user)' });
      return;
    }
    const message = typeof request.body?.message === 'string' ? request.body.message.trim() : '';
    if (!message) {
      response.status(400).json({ error: 'Send { "message": "…" }' });
      return;
    }
    const result = streamText({
      model: remembering,
      system: 'You are a friendly assistant. Keep answers short.',
      prompt: message,
      providerOptions: { engram: { space: user } },
    });
    result.pipeTextStreamToResponse(response);
  });

  return { app, memory };
}
