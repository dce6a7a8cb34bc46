// POST /v1/memories/file is not served yet (404 not_found): these tests read back the multipart
// body the client sends with the platform's own parser, through an injected fetch.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SourceResponseSchema } from '@engram/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Uploadable } from '../src/index.js';
import { source } from './helpers/fixtures.js';
import type { Recorded } from './helpers/recording-fetch.js';
import { fakeClient, json } from './helpers/recording-fetch.js';

const PDF_BYTES = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff, 0xfe, 0x80]); // "%PDF-1.7\n" then binary
const DOCX_BYTES = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0xc3, 0x28]);

let directory: string;
let pdfPath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'engram-client-upload-'));
  pdfPath = join(directory, 'lease "2026".pdf');
  await writeFile(pdfPath, PDF_BYTES);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const uploaded = SourceResponseSchema.parse({ source: source({ kind: 'pdf', title: 'Lease' }) });

/** The multipart body as the server would parse it. */
async function formOf(request: Recorded) {
  expect(request.body).toBeInstanceOf(Blob);
  return new Response(request.body as Blob, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
}

async function bytesOf(entry: FormDataEntryValue | null) {
  expect(entry).toBeInstanceOf(Blob);
  return new Uint8Array(await (entry as Blob).arrayBuffer());
}

describe('memories.upload (injected fetch: route not served yet)', () => {
  it('sends POST /v1/memories/file as multipart with the file, title and space', async () => {
    const { engram, calls } = fakeClient(() => json(uploaded, 201));
    expect(await engram.memories.upload({ file: pdfPath, title: 'Lease', space: 'user-1' })).toEqual(uploaded);
    const request = calls[0]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/v1/memories/file');
    expect(request.url.search).toBe('');
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=----EngramBoundary[0-9a-f]{24}$/);
    expect(request.headers.get('idempotency-key')).toMatch(/^idem_/);
    const form = await formOf(request);
    expect(form.get('title')).toBe('Lease');
    expect(form.get('space')).toBe('user-1');
    const file = form.get('file') as File;
    expect(file.name).toBe('lease "2026".pdf');
    expect(file.type).toBe('application/pdf');
    expect(await bytesOf(file)).toEqual(PDF_BYTES);
  });

  const inputs: [string, () => Uploadable, string, string][] = [
    ['a Buffer', () => Buffer.from(PDF_BYTES), 'upload', 'application/pdf'],
    ['a Uint8Array', () => PDF_BYTES, 'upload', 'application/pdf'],
    [
      'a view into a larger ArrayBuffer',
      () => new Uint8Array([9, 9, ...PDF_BYTES, 9]).subarray(2, 2 + PDF_BYTES.length),
      'upload',
      'application/pdf',
    ],
    ['an ArrayBuffer', () => PDF_BYTES.slice().buffer, 'upload', 'application/pdf'],
    ['a Blob', () => new Blob([PDF_BYTES]), 'upload', 'application/pdf'],
    ['a File', () => new File([PDF_BYTES], 'scan.pdf', { type: 'application/pdf' }), 'scan.pdf', 'application/pdf'],
    ['a web ReadableStream', () => new Blob([PDF_BYTES]).stream(), 'upload', 'application/pdf'],
    ['a Node stream from a path', () => createReadStream(pdfPath), 'lease "2026".pdf', 'application/pdf'],
    [
      'a Node stream of chunks',
      () => Readable.from([Buffer.from(PDF_BYTES.subarray(0, 4)), Buffer.from(PDF_BYTES.subarray(4))]),
      'upload',
      'application/pdf',
    ],
  ];

  for (const [label, make, filename, contentType] of inputs) {
    it(`uploads ${label} byte for byte`, async () => {
      const { engram, calls } = fakeClient(() => json(uploaded, 201));
      await engram.memories.upload({ file: make() });
      const file = (await formOf(calls[0]!)).get('file') as File;
      expect(file.name).toBe(filename);
      expect(file.type).toBe(contentType);
      expect(await bytesOf(file)).toEqual(PDF_BYTES);
      expect((await formOf(calls[0]!)).get('title')).toBeNull();
    });
  }

  it('knows a .docx by its bytes, and takes filename and contentType when given', async () => {
    const { engram, calls } = fakeClient(() => json(uploaded, 201));
    await engram.memories.upload({ file: DOCX_BYTES });
    expect(((await formOf(calls[0]!)).get('file') as File).type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    await engram.memories.upload({ file: new Uint8Array([1, 2, 3]), filename: 'notes.docx' });
    const named = (await formOf(calls[1]!)).get('file') as File;
    expect(named.name).toBe('notes.docx');
    expect(named.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    await engram.memories.upload({ file: new Uint8Array([1, 2, 3]), filename: 'x.bin', contentType: 'text/plain' });
    expect(((await formOf(calls[2]!)).get('file') as File).type).toBe('text/plain');
  });

  it('sends the very same bytes and Idempotency-Key when an upload is retried', async () => {
    const { engram, calls } = fakeClient((_, index) =>
      index === 0
        ? json({ error: { type: 'unavailable', message: 'busy', request_id: 'req_1' } }, 503, { 'retry-after': '0' })
        : json(uploaded, 201),
    );
    await engram.memories.upload({ file: Readable.from([Buffer.from(PDF_BYTES)]), title: 'Lease' });
    expect(calls).toHaveLength(2);
    const [first, second] = await Promise.all(calls.map(async (call) => new Uint8Array(await (call.body as Blob).arrayBuffer())));
    expect(second).toEqual(first);
    expect(calls[1]!.headers.get('content-type')).toBe(calls[0]!.headers.get('content-type'));
    expect(calls[1]!.headers.get('idempotency-key')).toBe(calls[0]!.headers.get('idempotency-key'));
  });

  it('with { wait: true } returns the uploaded source once learned', async () => {
    const learned = source({ kind: 'pdf', status: 'finished', memories: 4 });
    const { engram, calls } = fakeClient((request) => (request.method === 'POST' ? json(uploaded, 201) : json({ source: learned })));
    expect(await engram.memories.upload({ file: PDF_BYTES, space: 'user-1' }, { wait: true })).toEqual({ source: learned });
    expect(calls[1]!.url.pathname).toBe(`/v1/sources/${learned.id}`);
    expect(calls[1]!.url.searchParams.get('space')).toBe('user-1');
  });

  it('refuses something that is not a file', async () => {
    const { engram, calls } = fakeClient(() => json(uploaded, 201));
    await expect(engram.memories.upload({ file: 42 as unknown as Uploadable })).rejects.toThrow(/Upload a path/);
    expect(calls).toHaveLength(0);
  });
});
