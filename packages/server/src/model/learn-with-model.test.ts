import { describe, expect, it } from 'vitest';
import type { LearnableSource } from '../learn/facts-of.js';
import { factsOf } from '../learn/facts-of.js';
import { learnWithModel, locate } from './learn-with-model.js';
import type { Model } from './model-client.js';
import { ModelError } from './model-client.js';

const note = (body: string): LearnableSource => ({ kind: 'note', body, messages: null, written_at: new Date('2026-11-20T09:00:00Z') });

/** A model that answers each piece by a script, or fails on pieces holding a marker. */
function scripted(answer: (prompt: string) => object): Model & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name: 'scripted',
    prompts,
    async structured(request) {
      prompts.push(request.user);
      if (request.user.includes('FAIL')) throw new ModelError('malformed', 'not JSON', { input: 10, output: 0 });
      return { value: request.schema.parse(answer(request.user)), usage: { input: 50, output: 5 } };
    },
  };
}

describe('learnWithModel', () => {
  it('traces each fact of a note to the words it quotes, and drops what quotes nothing there', async () => {
    const model = scripted(() => ({
      facts: [
        { text: 'The user owns a red kayak.', kind: 'detail', about: [], message: null, quote: 'I own   a red kayak', updates: null },
        { text: 'The user flies to Oslo.', kind: 'plan', about: ['Oslo'], message: null, quote: 'words that are not there', updates: null },
      ],
    }));
    const body = 'Some notes.\nI own a red kayak, bought in spring.';
    const learned = await learnWithModel(model, note(body), { offline: factsOf, nearest: async () => [] });
    expect(learned.facts).toHaveLength(1);
    expect(learned.facts[0]).toMatchObject({ text: 'The user owns a red kayak.', date: '2026-11-20' });
    const { start, end } = learned.facts[0]!.sentence;
    expect(body.slice(start, end)).toBe('I own a red kayak');
    expect(learned.model).toMatchObject({ calls: 1, fallbacks: 0, input: 50, output: 5 });
  });

  it('keeps only ids of the memories it was shown as updates', async () => {
    const model = scripted(() => ({
      facts: [
        { text: 'The user lives in Turku.', kind: 'detail', about: ['Turku'], message: null, quote: 'I live in Turku', updates: 7 },
        { text: 'The user works nights.', kind: 'detail', about: [], message: null, quote: 'I work nights', updates: 8 },
      ],
    }));
    const learned = await learnWithModel(model, note('I live in Turku. I work nights.'), {
      offline: factsOf,
      nearest: async () => [{ id: 7, text: 'The user lives in Vaasa.', date: '2026-01-02' }],
    });
    expect(learned.facts.map((fact) => fact.replaces)).toEqual([7, undefined]);
    expect(model.prompts[0]).toContain('7 (2026-01-02) The user lives in Vaasa.');
  });

  it('learns offline only the pieces the model failed on', async () => {
    const good = 'I adore jazz records from the fifties. '.repeat(4);
    const bad = 'FAIL My sister Mira teaches piano in Ghent. '.repeat(4);
    const model = scripted(() => ({
      facts: [{ text: 'Jazz.', kind: 'pref', about: [], message: null, quote: 'I adore jazz records', updates: null }],
    }));
    const learned = await learnWithModel(model, note(`${good}\n${bad}`), { offline: factsOf, nearest: async () => [], chunkChars: 200 });
    expect(learned.model.calls).toBe(2);
    expect(learned.model.fallbacks).toBe(1);
    expect(learned.facts.some((fact) => fact.text === 'Jazz.')).toBe(true);
    const offline = learned.facts.filter((fact) => fact.text !== 'Jazz.');
    expect(offline.length).toBeGreaterThan(0);
    expect(offline.every((fact) => fact.sentence.start >= good.length)).toBe(true);
    expect(learned.model.input).toBe(60);
  });
});

describe('locate', () => {
  it('finds quoted words exactly, else across case and white space, else not at all', () => {
    expect(locate('We met at the  Old Mill.', 'the old mill')).toEqual({ start: 10, end: 23 });
    expect(locate('abc', 'abc')).toEqual({ start: 0, end: 3 });
    expect(locate('abc', 'xyz')).toBeNull();
    expect(locate('abc', '  ')).toBeNull();
  });
});
