import { EngramError } from '../errors.js';
import type { Uploadable } from '../uploadable.js';

/** A file ready to send: its bytes, name and media type. */
export interface FilePart {
  data: Blob;
  filename: string;
  contentType: string;
}

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const basename = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? 'file';

/** Bytes a Blob accepts: a view on a SharedArrayBuffer is copied first. */
function blobBytes(view: Uint8Array): Uint8Array<ArrayBuffer> {
  return (view.buffer instanceof ArrayBuffer ? view : view.slice()) as Uint8Array<ArrayBuffer>;
}

/** An ArrayBuffer, even one made in another realm (where `instanceof` fails). */
const isArrayBuffer = (value: unknown): value is ArrayBuffer => Object.prototype.toString.call(value) === '[object ArrayBuffer]';

function isBlob(value: unknown): value is Blob {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Blob).arrayBuffer === 'function' &&
    typeof (value as Blob).size === 'number' &&
    typeof (value as Blob).slice === 'function'
  );
}

/** Reads a file from disk; `node:fs` is imported only here, so runtimes without it never load it. */
async function readPath(path: string): Promise<Blob> {
  const specifier = 'node:fs/promises';
  let fs: { readFile(path: string): Promise<Uint8Array> };
  try {
    fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
  } catch (error) {
    throw new EngramError('Uploading from a path needs node:fs; pass a Blob, bytes or a stream on this runtime', { cause: error });
  }
  return new Blob([blobBytes(await fs.readFile(path))]);
}

async function collect(chunks: AsyncIterable<Uint8Array | string>): Promise<Blob> {
  const parts: BlobPart[] = [];
  for await (const chunk of chunks)
    parts.push(typeof chunk === 'string' ? chunk : blobBytes(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  return new Blob(parts);
}

/** The media type from the name, else from the first bytes (`%PDF`, or a zip as .docx is). */
async function mediaType(data: Blob, filename: string): Promise<string> {
  if (/\.pdf$/i.test(filename)) return PDF;
  if (/\.docx$/i.test(filename)) return DOCX;
  if (data.type) return data.type;
  const head = new Uint8Array(await data.slice(0, 4).arrayBuffer());
  if (head[0] === 0x25 && head[1] === 0x50 && head[2] === 0x44 && head[3] === 0x46) return PDF;
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return DOCX;
  return 'application/octet-stream';
}

/**
 * Reads any `Uploadable` into memory once, so that a retry sends the very same bytes
 * (the server's idempotency check compares them).
 */
export async function toFilePart(file: Uploadable, names: { filename?: string; contentType?: string } = {}): Promise<FilePart> {
  let data: Blob;
  let name: string | undefined;
  if (typeof file === 'string') {
    data = await readPath(file);
    name = basename(file);
  } else if (isBlob(file)) {
    data = file;
    name = (file as { name?: unknown }).name as string | undefined;
  } else if (isArrayBuffer(file) || ArrayBuffer.isView(file)) {
    const view = isArrayBuffer(file) ? new Uint8Array(file) : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    data = new Blob([blobBytes(view)]);
  } else if (typeof (file as ReadableStream).getReader === 'function') {
    data = await new Response(file as ReadableStream<Uint8Array>).blob();
  } else if (typeof (file as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    data = await collect(file as AsyncIterable<Uint8Array | string>);
    const path = (file as { path?: unknown }).path;
    if (typeof path === 'string') name = basename(path);
  } else {
    throw new EngramError('Upload a path, a Blob, bytes or a stream');
  }
  const filename = names.filename ?? (typeof name === 'string' && name ? basename(name) : 'upload');
  return { data, filename, contentType: names.contentType ?? (await mediaType(data, filename)) };
}
