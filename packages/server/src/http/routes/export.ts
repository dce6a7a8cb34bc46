import { SpaceSchema } from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { stream } from 'hono/streaming';
import { z } from 'zod';
import { exportLines, NoSuchSpaceError } from '../../store/transfer/export-lines.js';
import type { AppDeps, AppEnv } from '../context.js';
import { HttpError } from '../errors.js';
import { errorResponses, notFoundResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

const ExportQuerySchema = z.object({ space: SpaceSchema.optional() });

/** Lines are sent in chunks of about this many bytes rather than one write each. */
const CHUNK_CHARS = 64 * 1024;

/** GET /v1/export: one space as JSON Lines, streamed a page of records at a time. */
export function exportRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/export',
      summary: 'Export one space as JSON Lines: a header with the format version, then every record, then an end line',
      request: { query: ExportQuerySchema },
      responses: {
        200: {
          content: { 'application/x-ndjson': { schema: z.string() } },
          description: 'One JSON object a line (see docs/api.md, "Export")',
        },
        ...errorResponses,
        ...notFoundResponse,
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const scope = resolveScope(c, c.req.valid('query').space);
      const lines = exportLines(deps.db, {
        accountId: scope.accountId,
        space: scope.space,
        withAccount: caller.limitedTo === null,
        now: deps.now,
      });
      // The first line is read before answering, so that a space that does not exist is a 404, not an empty 200.
      let first: IteratorResult<string>;
      try {
        first = await lines.next();
      } catch (error) {
        if (error instanceof NoSuchSpaceError) throw new HttpError('not_found', error.message);
        throw error;
      }
      c.header('Content-Type', 'application/x-ndjson; charset=utf-8');
      c.header('Cache-Control', 'no-store');
      const requestId = c.get('requestId');
      return stream(
        c,
        async (out) => {
          let aborted = false;
          out.onAbort(() => {
            aborted = true;
          });
          let chunk = first.done ? '' : first.value;
          for await (const line of lines) {
            if (aborted) {
              await lines.return(undefined);
              return;
            }
            chunk += line;
            if (chunk.length >= CHUNK_CHARS) {
              await out.write(chunk);
              chunk = '';
            }
          }
          if (chunk) await out.write(chunk);
        },
        async (error) => {
          // The status is sent already: the missing end line tells the reader the export is cut short.
          console.error(`[engram] ${requestId} GET /v1/export failed while streaming:`, error);
        },
      ) as never;
    },
  );

  return app;
}
