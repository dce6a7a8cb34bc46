import {
  EraseSpaceResponseSchema,
  ListSpacesQuerySchema,
  ListSpacesResponseSchema,
  SpaceSchema,
  UsageResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { currentUsage } from '../../meter/metering.js';
import { eraseSpace, listSpaces } from '../../store/space-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { meterOf } from '../context.js';
import { HttpError, invalidField } from '../errors.js';
import { errorResponses, jsonResponse } from '../openapi.js';
import { nextCursor } from '../paging.js';
import { resolveScope, SPACE_HEADER } from '../space.js';

const EraseQuerySchema = z.object({
  space: SpaceSchema.optional(),
  owner: z.enum(['true', 'false']).optional().meta({
    description: "true to erase the owner's own memory (named by no space); required for that, so a forgotten header never erases it",
  }),
});

/** Routes of spaces and usage. */
export function spaceRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/spaces',
      summary: "List the account's spaces (end users), oldest first",
      request: { query: ListSpacesQuerySchema },
      responses: { 200: jsonResponse(ListSpacesResponseSchema, 'A page of spaces'), ...errorResponses },
    }),
    async (c) => {
      if (c.get('caller').limitedTo !== null) throw new HttpError('permission_denied', 'A key limited to one space cannot list spaces');
      const query = c.req.valid('query');
      const { rows, total } = await listSpaces(db, c.get('caller').accountId, query.limit, query.cursor);
      return c.json({ spaces: rows, total, ...nextCursor(query.cursor, rows.length, total) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/space',
      summary: 'Erase a space: every record in it, and every key limited to it',
      request: { query: EraseQuerySchema },
      responses: { 200: jsonResponse(EraseSpaceResponseSchema, 'Erased'), ...errorResponses },
    }),
    async (c) => {
      if (c.get('caller').limitedTo !== null) throw new HttpError('permission_denied', 'Only an account key can erase a space');
      const query = c.req.valid('query');
      const named = query.space !== undefined || c.req.header(SPACE_HEADER) !== undefined;
      if (!named && query.owner !== 'true') {
        throw invalidField('space', "name the space to erase (or owner=true to erase the owner's own memory)");
      }
      const scope = named ? resolveScope(c, query.space, { blankRefused: true }) : { accountId: c.get('caller').accountId, space: '' };
      await eraseSpace(db, scope);
      return c.json({ space: scope.space, erased: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/usage',
      summary: "This month's usage of the account, or one space's share (X-Memory-Space header)",
      responses: { 200: jsonResponse(UsageResponseSchema, 'The usage record'), ...errorResponses },
    }),
    async (c) => {
      const header = c.req.header(SPACE_HEADER);
      const caller = c.get('caller');
      let space: string | null = caller.limitedTo;
      if (header !== undefined) space = resolveScope(c, undefined, { blankRefused: true }).space;
      return c.json(await currentUsage(meterOf(deps), caller.accountId, space), 200);
    },
  );

  return app;
}
