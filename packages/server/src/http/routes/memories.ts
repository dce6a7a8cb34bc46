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
import { admitSave } from '../../meter/metering.js';
import { parsePageUrl } from '../../read/fetch-page.js';
import {
  countMemories,
  deleteMemory,
  findMemory,
  listMemories,
  markWrong,
  memoryHistory,
  sentenceOf,
  toMemoryRecord,
} from '../../store/memory-repository.js';
import type { Scope } from '../../store/scope.js';
import type { NewSource } from '../../store/source-repository.js';
import { addSource, findSource, insertSource, toSourceRecord } from '../../store/source-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { meterOf } from '../context.js';
import { fromZodError, HttpError, invalidField } from '../errors.js';
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
  const { db, config } = deps;

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
      const admitted = await admitSave(meterOf(deps), scope.accountId);
      const source = await addSource(db, scope, { ...newSourceFrom(input), waiting: admitted === 'wait' }, config.maxAttempts);
      deps.onSourceAdded?.();
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
      const results: BatchRow[] = [];
      const accepted: { index: number; scope: Scope; source: NewSource }[] = [];
      // One usage judgement for the whole batch: every item belongs to the same account.
      const admitted = await admitSave(meterOf(deps), c.get('caller').accountId).catch((error: unknown) => {
        if (error instanceof HttpError) return error;
        throw error;
      });
      items.forEach((item, index) => {
        try {
          const parsed = AddMemoryRequestSchema.safeParse(item);
          if (!parsed.success) throw fromZodError(parsed.error, 'item');
          const scope = resolveScope(c, parsed.data.space ?? space);
          if (admitted instanceof HttpError) throw admitted;
          accepted.push({ index, scope, source: { ...newSourceFrom(parsed.data), waiting: admitted === 'wait' } });
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          results.push({ index, ok: false, error: { type: error.type, message: error.message, details: error.details } });
        }
      });
      const stored = await db.transaction().execute(async (transaction) => {
        const rows = [];
        for (const item of accepted) {
          rows.push({ index: item.index, source: await insertSource(transaction, item.scope, item.source, config.maxAttempts) });
        }
        return rows;
      });
      for (const row of stored) results.push({ index: row.index, ok: true, source: toSourceRecord(row.source) });
      results.sort((left, right) => left.index - right.index);
      if (stored.length) deps.onSourceAdded?.();
      return c.json({ results, added: stored.length, failed: results.length - stored.length }, 202);
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
      return c.json({ memory: toMemoryRecord(row), sentence: sentenceOf(row), history: await memoryHistory(db, row.id) }, 200);
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
      const admitted = await admitSave(meterOf(deps), scope.accountId).catch(() => 'wait' as const);
      const source = await db.transaction().execute(async (transaction) => {
        const current = await findMemory(transaction, scope, memory_id);
        if (!current) throw new HttpError('not_found', `No memory ${memory_id} in this space`);
        const stored = await insertSource(
          transaction,
          scope,
          {
            kind: 'note',
            title: `Correction of memory ${memory_id}`,
            body: input.text,
            correctsMemoryId: memory_id,
            tokens: 0,
            waiting: admitted === 'wait',
          },
          config.maxAttempts,
        );
        const previous = await markWrong(transaction, scope, memory_id, input.text, stored.id);
        if (previous === 'wrong') throw new HttpError('conflict', `Memory ${memory_id} is already marked wrong`);
        return stored;
      });
      deps.onSourceAdded?.();
      const memory = (await findMemory(db, scope, memory_id))!;
      const fresh = (await findSource(db, scope, source.id)) ?? source;
      return c.json({ memory: toMemoryRecord(memory), source: toSourceRecord(fresh) }, 200);
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
      if (!(await deleteMemory(db, scope, memory_id))) throw new HttpError('not_found', `No memory ${memory_id} in this space`);
      return c.json({ id: memory_id, deleted: true as const }, 200);
    },
  );

  return app;
}
