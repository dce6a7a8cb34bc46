import { describe, expect, inject, it } from 'vitest';
import { buildDocx, buildPdf, lockedDocx } from '../fixtures/documents.js';
import type { Reply } from './helpers.js';
import { allMemories, call, expectError, freshSpace } from './helpers.js';

/** Posts a multipart form to the upload route of the shared server. */
async function upload(
  fields: { file?: Buffer | string; name?: string; type?: string; title?: string; space?: string },
  options: { header?: string; body?: BodyInit; contentType?: string; idempotencyKey?: string } = {},
): Promise<Reply> {
  const form = new FormData();
  if (fields.file !== undefined) {
    const blob = new Blob([typeof fields.file === 'string' ? fields.file : new Uint8Array(fields.file)], {
      type: fields.type ?? 'application/octet-stream',
    });
    form.append('file', blob, fields.name ?? 'upload.bin');
  }
  if (fields.title !== undefined) form.append('title', fields.title);
  if (fields.space !== undefined) form.append('space', fields.space);
  const headers: Record<string, string> = { Authorization: `Bearer ${inject('engramKey')}` };
  if (options.header !== undefined) headers['X-Memory-Space'] = options.header;
  if (options.contentType) headers['Content-Type'] = options.contentType;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await fetch(`${inject('engramUrl')}/v1/memories/file`, {
    method: 'POST',
    headers,
    body: options.body ?? form,
    ...(options.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // the test sees the text
  }
  return { status: response.status, headers: response.headers, body };
}

async function settled(space: string, id: string) {
  const reply = await call('GET', `/v1/sources/${id}?wait=20&space=${encodeURIComponent(space)}`);
  expect(['finished', 'failed']).toContain(reply.body.source.status);
  return reply.body.source;
}

describe('POST /v1/memories/file', () => {
  it("learns a PDF's facts page by page; search finds them, and each points at its sentence", async () => {
    const space = freshSpace();
    const pdf = buildPdf(
      [
        ['Family', 'Lena Park moved to Oslo in 2021 and works as a nurse at the', 'university hospital near the harbour.'],
        ['Hobbies', 'Lena Park plays the cello in a string quartet every Sunday.'],
      ],
      { title: 'Internal title' },
    );
    const saved = await upload({ file: pdf, name: 'lena.pdf', type: 'application/pdf', space });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.source).toMatchObject({
      kind: 'pdf',
      title: 'lena.pdf',
      url: null,
      status: expect.stringMatching(/queued|learning/),
    });
    const source = await settled(space, saved.body.source.id);
    expect(source).toMatchObject({ status: 'finished', error: null, kind: 'pdf', title: 'lena.pdf' });
    const memories = await allMemories(space);
    const cello = memories.find((memory) => /cello/.test(memory.text));
    expect(cello, JSON.stringify(memories)).toBeDefined();
    expect(memories.some((memory) => /Oslo/.test(memory.text) && /hospital/.test(memory.text))).toBe(true);
    const found = await call('POST', '/v1/search', { body: { q: 'What instrument does Lena play?', space } });
    expect(found.body.memories[0].text).toMatch(/cello/);
    const detail = await call('GET', `/v1/memories/${cello!.id}`, { space });
    expect(detail.body.sentence.text).toBe('Lena Park plays the cello in a string quartet every Sunday.');
    expect(detail.body.sentence.end - detail.body.sentence.start).toBe(detail.body.sentence.text.length);
    expect(detail.body.memory.source).toEqual({ id: source.id, kind: 'pdf', title: 'lena.pdf' });
  });

  it('learns a Word .docx file, headings kept apart from the facts, with the title given', async () => {
    const space = freshSpace();
    const docx = await buildDocx([
      { heading: 1, text: 'Omar' },
      'Omar Haddad has two daughters, Lina and Maya.',
      { heading: 2, text: 'Work' },
      'Omar Haddad runs a bakery in Leeds.',
    ]);
    const saved = await upload({ file: docx, name: 'omar.docx', title: 'About Omar' }, { header: space });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.source).toMatchObject({ kind: 'docx', title: 'About Omar' });
    expect(await settled(space, saved.body.source.id)).toMatchObject({ status: 'finished', kind: 'docx', title: 'About Omar' });
    const memories = await allMemories(space);
    const bakery = memories.find((memory) => /bakery/.test(memory.text));
    expect(bakery).toBeDefined();
    expect((await call('GET', `/v1/memories/${bakery!.id}`, { space })).body.sentence.text).toBe('Omar Haddad runs a bakery in Leeds.');
    expect(memories.some((memory) => /daughters/.test(memory.text))).toBe(true);
    expect(memories.some((memory) => /^#|^Work$/.test(memory.text))).toBe(false);
    const found = await call('POST', '/v1/search', { body: { q: "Where is Omar's bakery?", space } });
    expect(found.body.memories[0].text).toMatch(/Leeds/);
  });

  it('judges a file by its content, not its name: 415 for anything but a PDF or a .docx', async () => {
    const space = freshSpace();
    const cases = [
      { file: 'Just text, though it is named like a PDF.', name: 'report.pdf', type: 'application/pdf' },
      { file: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), name: 'notes.docx' },
      { file: Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]), name: 'old.doc' },
    ];
    for (const fields of cases) expectError(await upload({ ...fields, space }), 415, 'unsupported_media_type');
    const pdfNamedOddly = await upload({
      file: buildPdf([['Mei Chen paints watercolours.']]),
      name: 'scan.txt',
      type: 'text/plain',
      space,
    });
    expect(pdfNamedOddly.status).toBe(201);
    expect(pdfNamedOddly.body.source.kind).toBe('pdf');
    expectError(await upload({}, { body: JSON.stringify({ file: 'x' }), contentType: 'application/json' }), 415, 'unsupported_media_type');
  });

  it('answers 422 unreadable at once for a damaged or password-protected file, and stores nothing', async () => {
    const space = freshSpace();
    const docx = await buildDocx(['Hello there.']);
    const cases = [
      { file: Buffer.from('%PDF-1.7\nnot really a pdf at all'), name: 'broken.pdf', message: /damaged/ },
      { file: buildPdf([['Secret plans.']], { encrypted: true }), name: 'locked.pdf', message: /password/ },
      { file: docx.subarray(0, docx.length - 40), name: 'cut.docx', message: /damaged/ },
      { file: lockedDocx(), name: 'locked.docx', message: /password/ },
    ];
    for (const { message, ...fields } of cases) {
      const error = expectError(await upload({ ...fields, space }), 422, 'unreadable');
      expect(error.message, fields.name).toMatch(message);
    }
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(0);
  });

  it('fails the source as unreadable when the damage shows only on reading, or there is no text', async () => {
    const space = freshSpace();
    const brokenXml = await buildDocx([], { documentXml: '<w:document xmlns:w="x"><w:body><w:p>' });
    const noText = buildPdf([[]]);
    for (const [file, name] of [
      [brokenXml, 'broken.docx'],
      [noText, 'blank.pdf'],
    ] as const) {
      const saved = await upload({ file, name, space });
      expect(saved.status, name).toBe(201);
      const source = await settled(space, saved.body.source.id);
      expect(source.status, name).toBe('failed');
      expect(source.error, name).toEqual({ type: 'unreadable', message: expect.any(String) });
    }
  });

  it('answers 413 over the upload limit, whether the length is declared or streamed', async () => {
    const space = freshSpace();
    const limit = 25 * 1024 * 1024;
    const big = Buffer.alloc(limit + 1024, 0x20);
    big.write('%PDF-1.4\n');
    expectError(await upload({ file: big, name: 'big.pdf', space }), 413, 'payload_too_large');
    // The same form sent in chunks, with no length: the server stops reading past the limit.
    const formBody = new Response(
      (() => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(big)]), 'big.pdf');
        return form;
      })(),
    );
    const contentType = formBody.headers.get('content-type')!;
    const stream = formBody.body!;
    expectError(await upload({}, { body: stream, contentType }), 413, 'payload_too_large');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(0);
  });

  it('honours an Idempotency-Key: a retried upload stores one source', async () => {
    const space = freshSpace();
    const pdf = buildPdf([['Yusuf Ali keeps pigeons on his balcony.']]);
    const key = `upload-${space}`;
    // The same bytes both times.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)]), 'y.pdf');
    form.append('space', space);
    const serialised = new Response(form);
    const contentType = serialised.headers.get('content-type')!;
    const bytes = new Uint8Array(await serialised.arrayBuffer());
    const first = await upload({}, { body: bytes, contentType, idempotencyKey: key });
    const again = await upload({}, { body: bytes, contentType, idempotencyKey: key });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.source.id).toBe(first.body.source.id);
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(1);
  });

  it('treats a form serialised again (a new boundary) as the same request under one Idempotency-Key', async () => {
    const space = freshSpace();
    const pdf = buildPdf([['Zara Quinn breeds koi in a garden pond.']]);
    const key = `reform-${space}`;
    const first = await upload({ file: pdf, name: 'z.pdf', space }, { idempotencyKey: key });
    const again = await upload({ file: pdf, name: 'z.pdf', space }, { idempotencyKey: key });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.source.id).toBe(first.body.source.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('GET', '/v1/sources', { space })).body.total).toBe(1);
  });

  it('applies the space rules: the space field and the header must agree; bad fields are 400', async () => {
    const space = freshSpace();
    const pdf = buildPdf([['Nadia Rahman collects stamps.']]);
    expectError(await upload({ file: pdf, space }, { header: freshSpace() }), 400, 'invalid_request');
    const agreed = await upload({ file: pdf, space, name: 'n.pdf' }, { header: space });
    expect(agreed.status).toBe(201);
    expect((await call('GET', `/v1/sources/${agreed.body.source.id}`, { space })).status).toBe(200);
    const missing = expectError(await upload({ title: 'no file', space }), 400, 'invalid_request');
    expect(missing.details.field).toBe('file');
    expectError(await upload({ file: pdf, title: 't'.repeat(301), space }), 400, 'invalid_request');
    expectError(await upload({ file: '', space }), 400, 'invalid_request');
    expect((await upload({ file: pdf, space }, { header: '' })).status).toBe(400);
  });

  it('is described in the OpenAPI document as a multipart upload', async () => {
    const document = await call('GET', '/v1/openapi.json', { key: null });
    const operation = document.body.paths['/v1/memories/file'].post;
    const schema = operation.requestBody.content['multipart/form-data'].schema;
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.required).toEqual(['file']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '413', '415', '422']));
  });
});
