import { describe, expect, it } from 'vitest';
import { buildDocx } from '../../test/fixtures/documents.js';
import { extractDocx } from './extract-docx.js';
import { UnreadableError } from './unreadable.js';

describe('extractDocx', () => {
  it('reads paragraphs and keeps headings as heading lines; the first heading is the title', async () => {
    const docx = await buildDocx([
      { heading: 1, text: 'Family' },
      'Omar Haddad has two daughters.',
      { heading: 2, text: 'Work' },
      'Omar Haddad works at a bakery in Leeds.',
    ]);
    expect(await extractDocx(docx)).toEqual({
      title: 'Family',
      text: '# Family\n\nOmar Haddad has two daughters.\n\n## Work\n\nOmar Haddad works at a bakery in Leeds.',
    });
  });

  it('fails as unreadable on a damaged file', async () => {
    await expect(extractDocx(Buffer.from('PK\x03\x04 not a zip at all'))).rejects.toBeInstanceOf(UnreadableError);
    const broken = await buildDocx([], { documentXml: '<w:document><unclosed' });
    await expect(extractDocx(broken)).rejects.toBeInstanceOf(UnreadableError);
  });
});
