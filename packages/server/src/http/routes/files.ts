import type { FileRow } from '@engram/protocol';
import {
  DeleteFilesQuerySchema,
  DeleteFilesResponseSchema,
  ErrorBodySchema,
  FileListResponseSchema,
  FileResponseSchema,
  LIMITS,
  MoveFilesRequestSchema,
  MoveFilesResponseSchema,
  ReadFilesQuerySchema,
  WriteFileRequestSchema,
  WriteFileResponseSchema,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { pathProblem, prefixProblem, textProblem } from '../../files/path.js';
import { saveFile } from '../../operations/save.js';
import type { FileListRow } from '../../store/file-repository.js';
import { deleteFile, deleteFilesUnder, findFile, listFiles, moveFiles } from '../../store/file-repository.js';
import { toSourceRecord } from '../../store/source-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { HttpError, invalidField } from '../errors.js';
import { errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../openapi.js';
import { nextCursor } from '../paging.js';
import { resolveScope } from '../space.js';

const conflictResponse = {
  409: jsonResponse(ErrorBodySchema, 'A file already exists at a path the move would take; nothing moved'),
} as const;

function checkPath(field: string, path: string): string {
  const problem = pathProblem(path);
  if (problem !== null) throw invalidField(field, problem);
  return path;
}

/** Exactly one of path and prefix (DECISIONS.md: both or neither is 400). */
function pathOrPrefix(query: { path?: string; prefix?: string }): { path: string } | { prefix: string } {
  if ((query.path === undefined) === (query.prefix === undefined)) {
    throw new HttpError('invalid_request', 'Give exactly one of path and prefix', { field: 'path' });
  }
  if (query.path !== undefined) return { path: checkPath('path', query.path) };
  const problem = prefixProblem(query.prefix!);
  if (problem !== null) throw invalidField('prefix', problem);
  return { prefix: query.prefix! };
}

const toFileRow = (row: FileListRow): FileRow => ({
  path: row.path,
  size: row.size,
  updated_at: row.updated_at.toISOString(),
  labels: row.labels ?? {},
});

/** Routes under /v1/files: text files kept under a path, of which only what changed is learned. */
export function fileRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'put',
      path: '/v1/files',
      summary: 'Write a file; writing a path again replaces it and only what changed is learned',
      request: jsonBody(WriteFileRequestSchema),
      responses: { 200: jsonResponse(WriteFileResponseSchema, 'The file as stored and its source'), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space, { blankRefused: true });
      checkPath('path', input.path);
      const problem = textProblem(input.text);
      if (problem !== null) throw invalidField('text', problem);
      const written = await saveFile(operationsOf(deps), scope, {
        path: input.path,
        text: input.text,
        ...(input.labels !== undefined ? { labels: input.labels } : {}),
        ...(input.learn === false ? { learn: false as const } : {}),
        ...(input.project !== undefined ? { project: input.project.trim() || null } : {}),
      });
      return c.json(
        {
          path: written.file.path,
          size: written.file.size,
          updated_at: written.file.updated_at.toISOString(),
          created: written.created,
          source: toSourceRecord(written.source),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/files',
      summary: 'One file by path, or the files beneath a prefix in character order',
      request: { query: ReadFilesQuerySchema },
      responses: {
        200: jsonResponse(FileResponseSchema.or(FileListResponseSchema), 'The file (by path) or a page of files (by prefix)'),
        ...errorResponses,
        ...notFoundResponse,
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, { blankRefused: true });
      const target = pathOrPrefix(query);
      if ('path' in target) {
        const file = await findFile(db, scope, target.path);
        if (!file) throw new HttpError('not_found', `No file at ${target.path} in this space`);
        return c.json(
          { path: file.path, text: file.text, size: file.size, updated_at: file.updated_at.toISOString(), labels: file.labels ?? {} },
          200,
        );
      }
      const { rows, total } = await listFiles(db, scope, target.prefix, query.limit, query.cursor);
      return c.json({ files: rows.map(toFileRow), total, ...nextCursor(query.cursor, rows.length, total) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/files',
      summary: `Delete a file, or up to ${LIMITS.deleteByPrefix} files beneath a prefix a call, with what only they taught`,
      request: { query: DeleteFilesQuerySchema },
      responses: { 200: jsonResponse(DeleteFilesResponseSchema, 'What was deleted'), ...errorResponses, ...notFoundResponse },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const scope = resolveScope(c, query.space, { blankRefused: true });
      const target = pathOrPrefix(query);
      if ('path' in target) {
        if (!(await deleteFile(db, scope, target.path))) throw new HttpError('not_found', `No file at ${target.path} in this space`);
        return c.json({ deleted: 1, path: target.path }, 200);
      }
      const { deleted, more } = await deleteFilesUnder(db, scope, target.prefix, LIMITS.deleteByPrefix);
      return c.json({ deleted, more }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/files/move',
      summary: 'Move a file, or every file beneath from/; nothing is learned again',
      request: jsonBody(MoveFilesRequestSchema),
      responses: {
        200: jsonResponse(MoveFilesResponseSchema, 'How many files moved'),
        ...errorResponses,
        ...notFoundResponse,
        ...conflictResponse,
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const scope = resolveScope(c, input.space, { blankRefused: true });
      checkPath('from', input.from);
      checkPath('to', input.to);
      let outcome: Awaited<ReturnType<typeof moveFiles>>;
      try {
        outcome = await moveFiles(db, scope, input.from, input.to, pathProblem);
      } catch (error) {
        // Another write took a target between the check and the move.
        if ((error as { code?: string }).code === '23505')
          throw new HttpError('conflict', 'A file already exists at a target path; nothing moved');
        throw error;
      }
      if ('notFound' in outcome) throw new HttpError('not_found', `No file at ${input.from} and none beneath ${input.from}/`);
      if ('invalid' in outcome) throw invalidField('to', `${outcome.invalid.path} ${outcome.invalid.problem}`);
      if ('conflict' in outcome) {
        throw new HttpError('conflict', `A file already exists at ${outcome.conflict[0]}; nothing moved`, {
          paths: outcome.conflict.slice(0, 100),
        });
      }
      return c.json({ moved: outcome.moved }, 200);
    },
  );

  return app;
}
