import { describe, expect, it } from 'vitest';
import nlp from './nlp.js';

const world = nlp.world() as unknown as { hooks: string[] };

/** Each term's text, normal form, implied word and tags, sentence by sentence. */
function parsed(text: string): string[][] {
  const docs = nlp(text).docs as unknown as { text: string; normal: string; implicit?: string; tags?: Set<string> }[][];
  return docs.map((terms) =>
    terms.map((term) => `${term.text}|${term.normal}|${term.implicit ?? ''}|${[...(term.tags ?? [])].sort().join(',')}`),
  );
}

describe('compromise as Engram runs it (text/nlp.ts)', () => {
  it('leaves out the steps Engram never reads', () => {
    expect(world.hooks).not.toContain('chunks');
    expect(world.hooks).not.toContain('typeahead');
    expect(world.hooks).toContain('postTagger');
  });

  it('tags terms as the whole pipeline does', () => {
    const texts = [
      "I'm finally done with the Lisbon marathon! Ran it in 3:58 with my sister Ines.",
      "We can't wait - the new studio on Baker Street opens next Friday, and Tomas won't stop talking about it.",
      'Dr. Okafor said the X-rays look fine, so I’ll be back at the climbing gym by May.',
    ];
    const trimmed = texts.map(parsed);
    const steps = world.hooks;
    // compromise's own order: typeahead before the lexicon, chunks last.
    const lexicon = steps.indexOf('lexicon');
    world.hooks = [...steps.slice(0, lexicon), 'typeahead', ...steps.slice(lexicon), 'chunks'];
    try {
      expect(texts.map(parsed)).toEqual(trimmed);
    } finally {
      world.hooks = steps;
    }
  });
});
