import { describe, expect, it } from 'vitest';
import { call, allMemories as current, freshSpace, saveAndLearn } from './helpers.js';

const said = (space: string, content: string, at: string) =>
  saveAndLearn(space, { messages: [{ role: 'user', name: 'Tomas', content, at }] });

describe('learning: a fact that says what no longer holds replaces the memory that said it', () => {
  it('"now, not …": the old value is replaced, both histories say so, and recall finds the new one', async () => {
    const space = freshSpace();
    await said(space, 'I am vegetarian.', '2026-02-01T09:00:00Z');
    const [old] = await current(space);
    if (old === undefined) throw new Error('nothing learned');
    expect(old.text).toBe('Tomas is vegetarian.');
    await said(space, 'After the doctor visit I am flexitarian now, not vegetarian.', '2026-05-01T09:00:00Z');

    const now = await current(space);
    expect(now.map((memory) => memory.text)).toEqual(['After the doctor visit Tomas is flexitarian now, not vegetarian.']);
    const history = await call('GET', `/v1/memories/${old.id}`, { space });
    expect(history.body.memory.status).toBe('replaced');
    expect(history.body.history.map((event: { event: string; memory_id?: number }) => [event.event, event.memory_id ?? null])).toEqual([
      ['learned', null],
      ['replaced', now[0]?.id],
    ]);
    const context = await call('POST', '/v1/context', { space, body: { question: 'Is Tomas vegetarian?' } });
    expect(context.body.context).toMatch(/flexitarian now, not vegetarian/);
    expect(context.body.context).not.toMatch(/Tomas is vegetarian\./);
  });

  it('"used to … but now …" replaces the memory of what used to hold', async () => {
    const space = freshSpace();
    await said(space, 'I drink coffee every morning.', '2026-01-05T09:00:00Z');
    await said(space, 'I used to drink coffee but now I only drink green tea.', '2026-06-05T09:00:00Z');
    expect((await current(space)).map((memory) => memory.text)).toEqual([
      'Tomas used to drink coffee but now Tomas only drinks green tea.',
    ]);
  });

  it('"instead of …" replaces the plan it changes, and leaves the subject\'s other memories alone', async () => {
    const space = freshSpace();
    await said(space, 'We are going to Gdansk for the autumn holiday. I play the trombone.', '2026-03-01T09:00:00Z');
    expect((await current(space)).map((memory) => memory.text).sort()).toEqual([
      'Tomas and friends are going to Gdansk for the autumn holiday.',
      'Tomas plays the trombone.',
    ]);
    await said(space, 'Change of plan: we are going to Krakow instead of Gdansk.', '2026-04-01T09:00:00Z');

    const texts = (await current(space)).map((memory) => memory.text);
    expect(texts).toContain('Tomas plays the trombone.');
    expect(texts.some((text) => /Gdansk for the autumn/.test(text))).toBe(false);
    expect(texts.some((text) => /Krakow instead of Gdansk/.test(text))).toBe(true);
  });

  it('keeps who the replaced plan said its people are: the replacing memory names them so, and recall finds it', async () => {
    const space = freshSpace();
    await said(space, 'My sister Ilse and I are planning a week in Gdansk in May.', '2026-03-01T09:00:00Z');
    await said(space, 'Change of plan: we are going to Krakow instead of Gdansk, Ilse found a cheap train.', '2026-04-01T09:00:00Z');

    const texts = (await current(space)).map((memory) => memory.text);
    expect(texts).toEqual([
      "Change of plan: Tomas and friends are going to Krakow instead of Gdansk, Tomas's sister Ilse found a cheap train.",
    ]);
    const context = await call('POST', '/v1/context', { space, body: { question: "What is Tomas's sister called?" } });
    expect(context.body.empty).toBe(false);
    expect(context.body.context).toMatch(/sister Ilse found a cheap train/);
  });

  it('does not replace a memory that shares only the old value with the fact', async () => {
    const space = freshSpace();
    await said(space, 'I love pizza.', '2026-03-01T09:00:00Z');
    await said(space, 'Last night I cooked pasta instead of pizza.', '2026-04-01T09:00:00Z');
    const texts = (await current(space)).map((memory) => memory.text);
    expect(texts).toContain('Tomas loves pizza.');
  });

  it('never looks outside the space', async () => {
    const first = freshSpace();
    const second = freshSpace();
    await said(first, 'I am vegetarian.', '2026-02-01T09:00:00Z');
    await said(second, 'I am flexitarian now, not vegetarian.', '2026-05-01T09:00:00Z');
    expect((await current(first)).map((memory) => [memory.text, memory.status])).toEqual([['Tomas is vegetarian.', 'current']]);
  });
});
