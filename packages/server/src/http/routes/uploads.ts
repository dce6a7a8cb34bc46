import {
  ErrorBodySchema,
  isStorableText,
  LIMITS,
  SourceResponseSchema,
  SpaceSchema,
  storableText,
  UNSTORABLE_TEXT_MESSAGE,
} from '@engram/protocol';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { saveUpload } from '../../operations/save.js';
import { checkPdf } from '../../read/extract-pdf.js';
import { sniffFile } from '../../read/sniff.js';
import { UnreadableError } from '../../read/unreadable.js';
import { toSourceRecord } from '../../store/source-repository.js';
import type { AppDeps, AppEnv } from '../context.js';
import { operationsOf } from '../context.js';
import { HttpError, invalidField } from '../errors.js';
import { errorResponses, jsonResponse } from '../openapi.js';
import { resolveScope } from '../space.js';

/** The upload path; app.ts gives it its own body limit. */
export const UPLOAD_PATH = '/v1/memories/file';

/** Room for the multipart framing and the small fields around the file, on top of the upload limit. */
export const UPLOAD_FORM_SLACK = 64 * 1024;

const UploadFormSchema = z.object({
  file: z.string().meta({ format: 'binary', description: 'A PDF or Word .docx file; judged by its content, not its name' }),
  title: storableText().max(LIMITS.titleChars).optional().meta({ description: "Defaults to the file's name" }),
  project: storableText().max(LIMITS.projectChars).optional().meta({ description: 'The project it belongs to (briefings)' }),
  space: SpaceSchema.optional(),
});

const uploadRoute = createRoute({
  method: 'post',
  path: UPLOAD_PATH,
  summary: 'Save a PDF or Word .docx file; its text is read and learned in the background',
  description:
    'multipart/form-data with `file` (required), `title` and `space`. Files are judged by their content (%PDF- or a ZIP holding ' +
    'word/document.xml). A file that turns out unreadable after it was accepted ends its source as failed with ' +
    '`error: {type: "unreadable", message}`.',
  request: { body: { content: { 'multipart/form-data': { schema: UploadFormSchema } }, required: true } },
  responses: {
    201: jsonResponse(SourceResponseSchema, 'The stored source (kind pdf or docx), queued for reading and learning'),
    ...errorResponses,
    413: jsonResponse(ErrorBodySchema, 'The file is over the upload limit (25 MB unless the operator set ENGRAM_UPLOAD_MAX_BYTES)'),
    415: jsonResponse(ErrorBodySchema, 'Not multipart/form-data, or the file is neither a PDF nor a Word .docx'),
    422: jsonResponse(ErrorBodySchema, 'A damaged or password-protected PDF or Word file'),
  },
});

function tooLarge(maxBytes: number): HttpError {
  return new HttpError('payload_too_large', `The file is over the upload limit of ${maxBytes} bytes`);
}

/** Reads a request body up to `limit` bytes as it streams in; past it, stops reading and answers 413. */
async function readLimited(request: Request, limit: number, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string') throw invalidField(name, 'must be text, not a file');
  if (!isStorableText(value)) throw invalidField(name, UNSTORABLE_TEXT_MESSAGE);
  return value;
}

/** A file's name as a title: NUL and lone surrogates dropped, cut to the title limit between whole characters. */
function defaultTitle(name: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this drops
  const kept = name.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '').trim();
  let title = '';
  for (const character of kept) {
    if (title.length + character.length > LIMITS.titleChars) break;
    title += character;
  }
  return title || null;
}

/** POST /v1/memories/file: PDF and Word uploads. */
export function uploadRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { config } = deps;
  // Registered for the OpenAPI document only: the handler below streams the body under its own limit
  // instead of letting a form validator buffer all of it first.
  app.openAPIRegistry.registerPath(uploadRoute);

  app.post(UPLOAD_PATH, async (c) => {
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new HttpError('unsupported_media_type', 'Send the file as multipart/form-data with a "file" field');
    }
    const limit = config.uploadMaxBytes + UPLOAD_FORM_SLACK;
    // With an Idempotency-Key the middleware has read the body already (under the same limit); Hono keeps it.
    const body = c.req.raw.bodyUsed
      ? new Uint8Array(await c.req.arrayBuffer())
      : await readLimited(c.req.raw, limit, config.uploadMaxBytes);
    if (body.byteLength > limit) throw tooLarge(config.uploadMaxBytes);
    let form: FormData;
    try {
      form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new HttpError('invalid_request', 'The multipart/form-data body cannot be read', { field: 'file' });
    }
    const title = textField(form, 'title');
    if (title !== undefined && title.length > LIMITS.titleChars) throw invalidField('title', `at most ${LIMITS.titleChars} characters`);
    const project = textField(form, 'project');
    if (project !== undefined && project.length > LIMITS.projectChars)
      throw invalidField('project', `at most ${LIMITS.projectChars} characters`);
    const scope = resolveScope(c, textField(form, 'space'));
    const file = form.get('file');
    if (file === null || typeof file === 'string') throw invalidField('file', 'a PDF or Word .docx file is required');
    if (file.size > config.uploadMaxBytes) throw tooLarge(config.uploadMaxBytes);
    if (file.size === 0) throw invalidField('file', 'the file is empty');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const sniffed = sniffFile(bytes);
    if (sniffed.kind === 'unsupported') throw new HttpError('unsupported_media_type', sniffed.message);
    if (sniffed.kind === 'unreadable') throw new HttpError('unreadable', sniffed.message);
    if (sniffed.kind === 'pdf') {
      // Opening a PDF is cheap and tells a damaged or locked file at once; its pages are read by a worker.
      try {
        await checkPdf(bytes);
      } catch (error) {
        if (error instanceof UnreadableError) throw new HttpError('unreadable', error.message);
        throw error;
      }
    }
    // The file's name is only a default title: characters that cannot be stored are dropped, not refused.
    const name = defaultTitle(file.name ?? '');
    const source = await saveUpload(
      operationsOf(deps),
      scope,
      { kind: sniffed.kind, title: title?.trim() ? title : name, tokens: 0, project: project?.trim() || null },
      bytes,
    );
    return c.json({ source: toSourceRecord(source) }, 201);
  });

  return app;
}
