import {
  AskRequestSchema,
  AskResponseSchema,
  ContextRequestSchema,
  ContextResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ask, contextFor, search } from '../../operations/recall.js';
import { renderContext } from '../../recall/context-block.js';
import type { Recalled } from '../../recall/search.js';
import { toMemoryRecord } from '../../store/memory-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { errorResponses, jsonBody, jsonResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

const records = (recalled: Recalled[]) => recalled.map((item) => toMemoryRecord(item.row, item.score));

/** Routes of recall: search, context and ask share one ranking. */
export function recallRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const operations = operationsOf(deps);

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
      const found = await search(operations, scope, input.q, { limit: input.limit, kind: input.kind, labels: input.labels });
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
      const found = await contextFor(operations, scope, input.question, { limit: input.limit, kind: input.kind, labels: input.labels });
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
      const { answer, message, clash, memories } = await ask(operations, scope, input.question, input.labels, (reason) =>
        console.error(`[engram] ${c.get('requestId')} ask: the model failed (${reason}); answering offline`),
      );
      return c.json({ question: input.question, answer, message, clash, memories: records(memories) }, 200);
    },
  );

  return app;
}
