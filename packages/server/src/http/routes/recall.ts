import {
  AskRequestSchema,
  AskResponseSchema,
  ContextRequestSchema,
  ContextResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { periodOf } from '../../meter/usage.js';
import { answerWithModel } from '../../model/answer-with-model.js';
import { ModelError } from '../../model/model-client.js';
import { answerOffline } from '../../recall/ask.js';
import { renderContext } from '../../recall/context-block.js';
import type { Recalled } from '../../recall/search.js';
import { recall } from '../../recall/search.js';
import { toMemoryRecord } from '../../store/memory-repository.js';
import { addAnswer, addModelTokens } from '../../store/usage-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { meterOf } from '../context.js';
import { errorResponses, jsonBody, jsonResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

const records = (recalled: Recalled[]) => recalled.map((item) => toMemoryRecord(item.row, item.score));

/** Routes of recall: search, context and ask share one ranking. */
export function recallRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/search',
      summary: 'Ranked memories for a query',
      request: jsonBody(SearchRequestSchema),
      responses: { 200: jsonResponse(SearchResponseSchema, 'The best memories first'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space);
      // Search ranks every match (counts cover them all); only context and ask judge whether anything is known.
      const found = await recall(db, scope, input.q, {
        limit: input.limit,
        kind: input.kind,
        labels: input.labels,
        judge: false,
        now: meterOf(deps).now(),
      });
      return c.json({ memories: records(found.memories), counts: found.counts, total: found.total }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/context',
      summary: 'A prompt-ready block of what is known about a question',
      request: jsonBody(ContextRequestSchema),
      responses: { 200: jsonResponse(ContextResponseSchema, 'The context block'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space);
      const found = await recall(db, scope, input.question, {
        limit: input.limit,
        kind: input.kind,
        labels: input.labels,
        now: meterOf(deps).now(),
      });
      await addAnswer(db, scope, periodOf(meterOf(deps).now()).start);
      const rows = found.memories.map((item) => item.row);
      return c.json(
        {
          question: input.question,
          context: renderContext(rows, input.with_sources),
          memories: records(found.memories),
          used: rows.length,
          empty: found.empty,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/ask',
      summary: 'A short written answer from the memory alone; null when nothing supports one',
      request: jsonBody(AskRequestSchema),
      responses: { 200: jsonResponse(AskResponseSchema, 'The answer'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space);
      const now = meterOf(deps).now();
      const found = await recall(db, scope, input.question, { limit: 12, kind: 'all', labels: input.labels, now });
      await addAnswer(db, scope, periodOf(now).start);
      // With a model, it writes the answer from these memories alone; ask judges "known or not" as context does.
      if (deps.model && !found.empty && found.memories.length) {
        try {
          const written = await answerWithModel(deps.model, input.question, found.memories, now);
          await addModelTokens(db, scope, periodOf(now).start, written.usage);
          const { answer, message, clash } = written;
          return c.json({ question: input.question, answer, message, clash, memories: records(written.used) }, 200);
        } catch (error) {
          if (!(error instanceof ModelError)) throw error;
          await addModelTokens(db, scope, periodOf(now).start, error.usage);
          console.error(`[engram] ${c.get('requestId')} ask: the model failed (${error.reason}); answering offline`);
        }
      }
      const answer = answerOffline(found.memories, found.empty, input.question);
      return c.json({ question: input.question, ...answer, memories: records(found.memories) }, 200);
    },
  );

  return app;
}
