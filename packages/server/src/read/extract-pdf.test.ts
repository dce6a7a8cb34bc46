import { describe, expect, it } from 'vitest';
import { buildPdf } from '../../test/fixtures/documents.js';
import { checkPdf, extractPdf, PAGE_BREAK, pageAt } from './extract-pdf.js';
import { UnreadableError } from './unreadable.js';

describe('extractPdf', () => {
  it('reads each page, keeps page breaks recoverable, joins wrapped lines and keeps short ones', async () => {
    const pdf = buildPdf(
      [
        ['Family', 'Lena Park moved to Oslo in 2021 and works as a nurse at the', 'university hospital near the harbour.'],
        ['Hobbies', 'Lena Park plays the cello every Sunday.'],
      ],
      { title: "Lena's notes" },
    );
    const { title, text } = await extractPdf(pdf);
    expect(title).toBe("Lena's notes");
    expect(text).toBe(
      `Family\nLena Park moved to Oslo in 2021 and works as a nurse at the university hospital near the harbour.${PAGE_BREAK}Hobbies\nLena Park plays the cello every Sunday.`,
    );
    expect(pageAt(text, text.indexOf('Oslo'))).toBe(1);
    expect(pageAt(text, text.indexOf('cello'))).toBe(2);
  });

  it('tells a damaged PDF and a locked one apart, at once', async () => {
    const damaged = await checkPdf(Buffer.from('%PDF-1.7\nthis is not really a pdf')).catch((error: unknown) => error);
    expect(damaged).toBeInstanceOf(UnreadableError);
    expect((damaged as Error).message).toMatch(/damaged/);
    const locked = await checkPdf(buildPdf([['Secret words.']], { encrypted: true })).catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(UnreadableError);
    expect((locked as Error).message).toMatch(/password/);
    await expect(checkPdf(buildPdf([['Open words.']]))).resolves.toBeUndefined();
  });
});
