import { DailyUsageQuerySchema, DailyUsageResponseSchema, ListRequestsQuerySchema, ListRequestsResponseSchema } from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { dailyUsage, listRequests } from '../../store/request-log-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { HttpError } from '../errors.js';
import { errorResponses, jsonResponse } from '../openapi.js';
import type { RequestLog } from '../request-log.js';

/** Routes of the request log and the daily usage chart (account keys only). */
export function requestRoutes(deps: AppDeps & { requestLog: RequestLog }) {
  const app = new OpenAPIHono<AppEnv>();
  const { db, requestLog } = deps;
  const now = deps.now ?? (() => new Date());

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/requests',
      summary: "The account's logged calls, newest first: find one by its request id, or filter by status, space and route",
      request: { query: ListRequestsQuerySchema },
      responses: { 200: jsonResponse(ListRequestsResponseSchema, 'A page of calls'), ...errorResponses },
    }),
    async (c) => {
      const caller = c.get('caller');
      if (caller.limitedTo !== null) throw new HttpError('permission_denied', 'Only an account key can read the request log');
      const query = c.req.valid('query');
      // Calls this process answered a moment ago are still buffered: write them first, so a
      // request id just seen in a header is found.
      await requestLog.flush();
      const rows = await listRequests(db, caller.accountId, {
        status: query.status?.toLowerCase(),
        space: query.space,
        route: query.route,
        requestId: query.request_id,
        before: query.cursor,
        limit: query.limit + 1,
      });
      const page = rows.slice(0, query.limit);
      const next = rows.length > query.limit ? { next: page[page.length - 1]!.id } : {};
      return c.json({ requests: page.map((row) => ({ ...row, at: row.at.toISOString() })), ...next }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/usage/daily',
      summary: 'Learned tokens and answers per day (UTC), oldest first, for the usage chart',
      request: { query: DailyUsageQuerySchema },
      responses: { 200: jsonResponse(DailyUsageResponseSchema, 'One row per day, every day present'), ...errorResponses },
    }),
    async (c) => {
      const caller = c.get('caller');
      if (caller.limitedTo !== null) throw new HttpError('permission_denied', 'Only an account key can read the daily usage');
      await requestLog.flush();
      return c.json({ days: await dailyUsage(db, caller.accountId, c.req.valid('query').days, now()) }, 200);
    },
  );

  return app;
}
