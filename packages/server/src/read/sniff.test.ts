import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildDocx, buildPdf, lockedDocx } from '../../test/fixtures/documents.js';
import { sniffFile } from './sniff.js';

const JSZip = createRequire(import.meta.url)('jszip') as typeof import('jszip');

describe('sniffFile', () => {
  it('knows a PDF and a .docx by their content, whatever they are called', async () => {
    expect(sniffFile(buildPdf([['Hello.']]))).toEqual({ kind: 'pdf' });
    expect(sniffFile(Buffer.concat([Buffer.from('\r\n  junk before the header '), buildPdf([['Hello.']])]))).toEqual({ kind: 'pdf' });
    expect(sniffFile(await buildDocx(['Hello.']))).toEqual({ kind: 'docx' });
  });

  it('refuses other files as unsupported', async () => {
    const zip = new JSZip();
    zip.file('xl/workbook.xml', '<workbook/>');
    const spreadsheet = await zip.generateAsync({ type: 'nodebuffer' });
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const legacyDoc = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(1024)]);
    for (const file of [spreadsheet, png, legacyDoc, Buffer.from('Just some text, named report.pdf.')]) {
      expect(sniffFile(file).kind).toBe('unsupported');
    }
  });

  it('tells a damaged archive and a password-locked Word file as unreadable', async () => {
    const docx = await buildDocx(['Hello.']);
    expect(sniffFile(docx.subarray(0, docx.length - 30))).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/damaged/) });
    expect(sniffFile(lockedDocx())).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/password/) });
  });
});
