import {
  DeleteSourceResponseSchema,
  GetSourceQuerySchema,
  ListSourcesQuerySchema,
  ListSourcesResponseSchema,
  SourceResponseSchema,
  SpaceQuerySchema,
  storableText,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { forgetSource } from '../../operations/memories.js';
import { findSource, listSources, toSourceRecord } from '../../store/source-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { HttpError } from '../errors.js';
import { errorResponses, jsonResponse, notFoundResponse } from '../openapi.js';
import { keyedNext, pageStart } from '../paging.js';
import { resolveScope } from '../space.js';

const idParams = z.object({ source_id: storableText().min(1).max(100) });

/** How often a waiting GET looks at the source again. */
const WAIT_POLL_MS = 50;

/** Routes under /v1/sources. */
export function sourceRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/sources',
      summary: 'List what was added, newest first',
      request: { query: ListSourcesQuerySchema },
      responses: { 200: jsonResponse(ListSourcesResponseSchema, 'A page of sources'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      const { rows, total, more } = await listSources(db, scope, query.limit, pageStart(query.cursor));
      return c.json({ sources: rows.map(toSourceRecord), total, ...keyedNext(rows.at(-1)?.seq, more) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/sources/{source_id}',
      summary: 'One source; with wait, held until it is learned (up to that many seconds)',
      request: { params: idParams, query: GetSourceQuerySchema },
      responses: { 200: jsonResponse(SourceResponseSchema, 'The source'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const { source_id } = c.req.valid('param');
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space);
      const deadline = Date.now() + query.wait * 1000;
      let source = await findSource(db, scope, source_id);
      while (source && (source.status === 'queued' || source.status === 'learning') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, deadline - Date.now())));
        source = await findSource(db, scope, source_id);
      }
      if (!source) throw new HttpError('not_found', `No source ${source_id} in this space`);
      return c.json({ source: toSourceRecord(source) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/sources/{source_id}',
      summary: 'Delete a source and the memories only it taught',
      request: { params: idParams, query: SpaceQuerySchema },
      responses: { 200: jsonResponse(DeleteSourceResponseSchema, 'Deleted'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const { source_id } = c.req.valid('param');
      const scope = resolveScope(c, c.req.valid('query').space);
      const deleted = await forgetSource(operationsOf(deps), scope, source_id);
      return c.json({ id: source_id, deleted: true as const, memories_deleted: deleted }, 200);
    },
  );

  return app;
}
