import type { AddMemoryRequest, BatchRow } from '@engram/protocol';
import {
  AddMemoryRequestSchema,
  BatchRequestSchema,
  BatchResponseSchema,
  CorrectMemoryRequestSchema,
  CorrectMemoryResponseSchema,
  DeleteMemoryResponseSchema,
  IntIdSchema,
  ListMemoriesQuerySchema,
  ListMemoriesResponseSchema,
  MemoryDetailResponseSchema,
  SourceResponseSchema,
  SpaceQuerySchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { DomainError } from '../../domain-error.js';
import { correct, forget } from '../../operations/memories.js';
import type { BatchItem } from '../../operations/save.js';
import { save, saveBatch } from '../../operations/save.js';
import { parsePageUrl } from '../../read/fetch-page.js';
import { countMemories, findMemory, listMemories, memoryHistory, sentenceOf, toMemoryRecord } from '../../store/memory-repository.js';
import type { NewSource } from '../../store/source-repository.js';
import { toSourceRecord } from '../../store/source-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { fromZodError, HttpError, invalidField, toHttpError } from '../errors.js';
import { knownUsage, settleSaves } from '../middleware.js';
import { errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../openapi.js';
import { keyedNext, pageStart } from '../paging.js';
import { resolveScope } from '../space.js';

const idParams = z.object({ memory_id: IntIdSchema });

/** What a save stores, from its validated input. */
function newSourceFrom(input: AddMemoryRequest): NewSource {
  return { ...readInput(input), project: input.project?.trim() || null };
}

function readInput(input: AddMemoryRequest): NewSource {
  if (input.url !== undefined) {
    // Only the address is checked here; the page is read once, by a worker, through the address guard.
    let url: URL;
    try {
      url = parsePageUrl(input.url.trim());
    } catch (error) {
      throw invalidField('url', (error as Error).message);
    }
    return { kind: 'page', title: input.title ?? null, url: url.toString(), tokens: 0 };
  }
  if (input.messages !== undefined) {
    return { kind: 'conversation', title: input.title ?? null, messages: input.messages, tokens: 0 };
  }
  return { kind: 'note', title: input.title ?? null, body: input.text!, tokens: 0 };
}

/** Routes under /v1/memories. */
export function memoryRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;
  const operations = operationsOf(deps);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/memories',
      summary: 'Save a note or a conversation; it is learned in the background',
      request: jsonBody(AddMemoryRequestSchema),
      responses: { 201: jsonResponse(SourceResponseSchema, 'The stored source, queued for learning'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space);
      const source = await save(operations, scope, newSourceFrom(input), knownUsage(c));
      settleSaves(c, [source]);
      return c.json({ source: toSourceRecord(source) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/memories/batch',
      summary: 'Save up to 100 items; each succeeds or fails on its own',
      request: jsonBody(BatchRequestSchema),
      responses: { 202: jsonResponse(BatchResponseSchema, 'One result per item, in the order sent'), ...errorResponses },
    }),
    async (c) => {
      const { items, space } = c.req.valid('json');
      // The space header and a batch-level field must agree before any item is looked at.
      if (space !== undefined) resolveScope(c, space);
      const parsed: BatchItem[] = items.map((item, index) => {
        try {
          const checked = AddMemoryRequestSchema.safeParse(item);
          if (!checked.success) throw fromZodError(checked.error, 'item');
          return { index, scope: resolveScope(c, checked.data.space ?? space), source: newSourceFrom(checked.data) };
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return { index, error };
        }
      });
      // One usage judgement for the whole batch: every item belongs to the same account.
      const outcomes = await saveBatch(operations, c.get('caller').accountId, parsed, knownUsage(c));
      settleSaves(
        c,
        outcomes.flatMap((outcome) => ('source' in outcome ? [outcome.source] : [])),
      );
      const results: BatchRow[] = outcomes.map((outcome) => {
        if ('source' in outcome) return { index: outcome.index, ok: true, source: toSourceRecord(outcome.source) };
        const { type, message, details } = toHttpError(outcome.error);
        return { index: outcome.index, ok: false, error: { type, message, details } };
      });
      const added = results.filter((row) => row.ok).length;
      return c.json({ results, added, failed: results.length - added }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memories',
      summary: 'List current memories, newest first',
      request: { query: ListMemoriesQuerySchema },
      responses: { 200: jsonResponse(ListMemoriesResponseSchema, 'A page of memories'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      const [found, counts] = await Promise.all([
        listMemories(db, scope, query.kind, query.limit, pageStart(query.cursor)),
        countMemories(db, scope),
      ]);
      const total = counts[query.kind === 'all' ? 'all' : query.kind];
      const rows = found.slice(0, query.limit);
      return c.json(
        { memories: rows.map((row) => toMemoryRecord(row)), counts, total, ...keyedNext(rows.at(-1)?.id, found.length > query.limit) },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/memories/{memory_id}',
      summary: 'One memory, the sentence it came from, and its history',
      request: { params: idParams, query: SpaceQuerySchema },
      responses: { 200: jsonResponse(MemoryDetailResponseSchema, 'The memory'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const { memory_id } = c.req.valid('param');
      const scope = resolveScope(c, c.req.valid('query').space);
      const row = await findMemory(db, scope, memory_id);
      if (!row) throw new HttpError('not_found', `No memory ${memory_id} in this space`);
      return c.json({ memory: toMemoryRecord(row), sentence: sentenceOf(row), history: await memoryHistory(db, scope, row.id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/v1/memories/{memory_id}',
      summary: 'Correct a memory: it is marked wrong and what is right is learned from a new source',
      request: { params: idParams, ...jsonBody(CorrectMemoryRequestSchema) },
      responses: {
        200: jsonResponse(CorrectMemoryResponseSchema, 'The memory, now wrong, and the source holding the correction'),
        ...errorResponses,
        ...notFoundResponse,
        409: jsonResponse(z.any(), 'The memory is already marked wrong'),
      },
    }),
    async (c) => {
      const { memory_id } = c.req.valid('param');
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space);
      // Marking a memory wrong is never refused; past the plan, only learning the correction waits.
      const { memory, source } = await correct(operations, scope, memory_id, input.text);
      return c.json({ memory: toMemoryRecord(memory), source: toSourceRecord(source) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/memories/{memory_id}',
      summary: 'Forget a memory for good',
      request: { params: idParams, query: SpaceQuerySchema },
      responses: { 200: jsonResponse(DeleteMemoryResponseSchema, 'Forgotten'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const { memory_id } = c.req.valid('param');
      const scope = resolveScope(c, c.req.valid('query').space);
      await forget(operations, scope, memory_id);
      return c.json({ id: memory_id, deleted: true as const }, 200);
    },
  );

  return app;
}
