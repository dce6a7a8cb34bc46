import { describe, expect, it } from 'vitest';
import { extractMarkdown, extractPlainText } from './extract-text.js';

describe('markdown and plain text pages', () => {
  it("keeps a markdown page's words and lines, without its markup", () => {
    const { title, text } = extractMarkdown(
      '---\nlayout: post\n---\n# Trip notes\n\nAmara Osei flew to **Accra** on [a red-eye](https://example.com/flight).\n\n' +
        '![photo](x.png)\n* She rents a flat in _Osu_.\n\n```js\nconsole.log("not prose")\n```\n> Quoted words.\n',
    );
    expect(title).toBe('Trip notes');
    expect(text).toBe('# Trip notes\n\nAmara Osei flew to Accra on a red-eye.\n\n- She rents a flat in Osu.\n\nQuoted words.');
  });

  it('keeps plain text as it is, line by line', () => {
    expect(extractPlainText('\uFEFFLine one.  \r\nLine two.\n\n\n\nLine three.').text).toBe('Line one.\nLine two.\n\nLine three.');
  });
});
