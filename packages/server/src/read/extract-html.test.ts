import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

const article = `<!doctype html><html><head><title>Ines Ortega, beekeeper | The Valencia Post</title>
<style>p { color: red }</style><script>var tracking = "Ines Ortega owns a yacht";</script></head><body>
<header><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop our mugs</a></nav></header>
<aside class="sidebar"><h3>Popular</h3><ul><li>Ten places Marco Rossi loves in Rome</li></ul></aside>
<main><article>
<h1>A week with Ines</h1>
<p>Ines Ortega lives in Valencia and teaches chemistry at a high school near the port. She has taught there for twelve years.</p>
<p>Ines Ortega keeps bees on the roof of her building, and she sells the honey at the Saturday market in Ruzafa.</p>
<h2>Her plans</h2>
<p>Ines Ortega plans to walk the Camino de Santiago next spring with her brother Pablo.</p>
<ul><li>She packs light.</li><li>She walks in the early morning.</li></ul>
</article></main>
<footer><p>Copyright 2024 The Valencia Post. Our editor Tom Becker sails on Lake Geneva every summer.</p></footer>
</body></html>`;

describe('extractHtml', () => {
  it('keeps the article with its headings and paragraphs, and leaves navigation, side bar, footer and scripts out', () => {
    const { title, text } = extractHtml(article);
    expect(title).toMatch(/Ines/);
    expect(text).toContain('Ines Ortega lives in Valencia and teaches chemistry at a high school near the port.');
    expect(text).toContain('\n\n## Her plans\n\n');
    expect(text).toContain('- She packs light.\n- She walks in the early morning.');
    for (const furniture of ['About us', 'Shop our mugs', 'Marco Rossi', 'Tom Becker', 'yacht', 'color: red']) {
      expect(text, furniture).not.toContain(furniture);
    }
  });

  it('reads a short page that has no article as its body text, still without its navigation', () => {
    const { title, text } = extractHtml(
      '<html><head><title> Note </title></head><body><nav>Menu Login</nav><div>Sam Lee likes green tea.</div></body></html>',
    );
    expect(title).toBe('Note');
    expect(text).toBe('Sam Lee likes green tea.');
  });

  it('gives empty text for a page with nothing to read', () => {
    expect(extractHtml('<html><body><script>1</script></body></html>').text).toBe('');
  });
});
