import { describe, expect, it } from 'vitest';
import { call, expectError, freshSpace, saveAndLearn, waitLearned } from './helpers.js';

const q = (space: string) => `space=${encodeURIComponent(space)}`;

const FALCON_NOTES = `# Project Falcon — weekly notes

Goal: ship the self-serve checkout to the first ten pilot shops.
Our focus this week is the payment retry flow.

## Decisions
- Monthly billing only; the annual plan waits until spring.
- Stripe stays our payment provider.

## TODO
- [ ] Rotate the staging database password
- [x] Write the refund policy page
- [ ] Ask legal about the VAT wording

## Next steps
- Draft the pricing page copy
- Book a call with the pilot shops

We are blocked on the bank approving the merchant account.
Never deploy on Fridays because nobody is around to fix it.
To deploy, first run the migrations and then restart the workers.
Lesson learned: test the backup restore, not only the backup.
Maybe we'll move to weekly releases, we'll see.
What if we dropped the mobile app?
Ana Lopes leads the design work for the checkout.`;

const MEETING = [
  { role: 'user', name: 'Priya', content: 'Project: Falcon. Quick sync on the checkout.', at: '2026-11-20T09:00:00Z' },
  { role: 'user', name: 'Priya', content: "I'll send the pilot agreement to Marta by Friday.", at: '2026-11-20T09:01:00Z' },
  { role: 'user', name: 'Priya', content: 'Remind me to renew the domain when we talk about the budget.', at: '2026-11-20T09:02:00Z' },
  {
    role: 'user',
    name: 'Omar',
    content: 'We finished the staging password rotation. Our goal is now to ship the checkout to twenty pilot shops.',
    at: '2026-11-20T09:03:00Z',
  },
  { role: 'user', name: 'Omar', content: 'I never said that we decided on the annual plan.', at: '2026-11-20T09:04:00Z' },
];

describe('learning a project from notes and conversations', () => {
  it('keeps the state of a project: a newer statement replaces an older one, done items leave the open ones', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: FALCON_NOTES });
    const first = await call('GET', `/v1/now?${q(space)}`);
    expect(first.status).toBe(200);
    expect(first.body.now).toHaveLength(1);
    const state = first.body.now[0];
    expect(state.project).toBe('Falcon');
    expect(state.goal).toBe('Ship the self-serve checkout to the first ten pilot shops');
    expect(state.focus).toBe('The payment retry flow');
    expect(state.decisions).toEqual(['Stripe stays our payment provider', 'Monthly billing only; the annual plan waits until spring']);
    expect(state.open_items).toEqual([
      'Rotate the staging database password',
      'Ask legal about the VAT wording',
      'Blocked on the bank approving the merchant account',
    ]);
    expect(state.next_steps).toEqual(['Draft the pricing page copy', 'Book a call with the pilot shops']);

    // Said after the notes were written, so what it says is newer.
    const soon = new Date(Date.now() + 60_000).toISOString();
    await saveAndLearn(space, { messages: MEETING.map((message) => ({ ...message, at: soon })), title: 'Checkout sync' });
    const later = (await call('GET', `/v1/now?project=falcon&${q(space)}`)).body.now[0];
    expect(later.goal).toBe('Ship the checkout to twenty pilot shops');
    expect(later.open_items).toEqual(['Ask legal about the VAT wording', 'Blocked on the bank approving the merchant account']);
    // Nothing that was denied became a decision.
    expect(later.decisions).toHaveLength(2);
    expect((await call('GET', `/v1/now?project=Kestrel&${q(space)}`)).body.now).toEqual([]);
  });

  it('learns intentions with due days resolved against when they were said, and cues', async () => {
    const space = freshSpace();
    const source = await saveAndLearn(space, { messages: MEETING });
    const { intentions } = (await call('GET', `/v1/intentions?${q(space)}`)).body;
    const agreement = intentions.find((intention: any) => /pilot agreement/.test(intention.text));
    expect(agreement).toMatchObject({
      // Said on Friday 20 November: "by Friday" is the Friday after.
      text: "I'll send the pilot agreement to Marta by Friday 27 November 2026",
      status: 'open',
      due: '2026-11-27',
      triggers: [{ type: 'date', at: '2026-11-27' }],
      project: 'Falcon',
      source_id: source.id,
    });
    const domain = intentions.find((intention: any) => /domain/.test(intention.text));
    expect(domain).toMatchObject({ due: null, triggers: [{ type: 'cue', text: 'the budget' }] });
    expect(intentions).toHaveLength(2);
  });

  it('moves an intention between lists when its status changes; 404 for one it does not hold', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Remind me to call the plumber about the leak on Monday.' });
    const [intention] = (await call('GET', `/v1/intentions?${q(space)}`)).body.intentions;
    expect(intention.text).toMatch(/^Remind me to call the plumber about the leak on Monday \d+ \w+ \d{4}$/);
    const done = await call('POST', `/v1/intentions/${intention.id}`, { body: { space } });
    expect(done.status).toBe(200);
    expect(done.body.intention).toMatchObject({ id: intention.id, status: 'done' });
    expect((await call('GET', `/v1/intentions?${q(space)}`)).body.intentions).toEqual([]);
    expect((await call('GET', `/v1/intentions?status=done&${q(space)}`)).body.intentions.map((row: any) => row.id)).toEqual([intention.id]);
    await call('POST', `/v1/intentions/${intention.id}`, { body: { status: 'dropped', space } });
    expect((await call('GET', `/v1/intentions?status=dropped&${q(space)}`)).body.intentions).toHaveLength(1);
    await call('POST', `/v1/intentions/${intention.id}`, { body: { status: 'open', space } });
    expect((await call('GET', `/v1/intentions?${q(space)}`)).body.intentions).toHaveLength(1);

    expectError(await call('POST', '/v1/intentions/99999999', { body: { space } }), 404, 'not_found');
    // Another space does not see it, and cannot change it.
    const other = freshSpace();
    expectError(await call('POST', `/v1/intentions/${intention.id}`, { body: { space: other } }), 404, 'not_found');
    const { key } = (await call('POST', '/v1/keys', { body: { space: other } })).body;
    expectError(await call('POST', `/v1/intentions/${intention.id}`, { body: {}, key }), 404, 'not_found');
    expectError(await call('GET', `/v1/intentions?${q(space)}`, { key }), 403, 'permission_denied');
    expectError(await call('POST', `/v1/intentions/${intention.id}`, { body: { status: 'later', space } }), 400, 'invalid_request');
    expect((await call('GET', `/v1/intentions?${q(space)}`)).body.intentions[0].status).toBe('open');
  });

  it('learns lessons with when they apply and why', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: FALCON_NOTES });
    const { lessons } = (await call('GET', `/v1/lessons?${q(space)}`)).body;
    const byType = Object.fromEntries(lessons.map((lesson: any) => [lesson.type, lesson]));
    expect(byType.rule).toMatchObject({
      text: 'Never deploy on Fridays',
      applies_when: 'on Fridays',
      why: 'nobody is around to fix it',
      project: 'Falcon',
    });
    expect(byType['how-to']).toMatchObject({
      text: 'To deploy, first run the migrations and then restart the workers',
      applies_when: 'To deploy',
    });
    expect(byType.lesson).toMatchObject({ text: 'Test the backup restore, not only the backup' });
    expect(lessons).toHaveLength(3);
  });

  it('keeps one episode per conversation or note, newest first', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { messages: MEETING, title: 'Checkout sync' });
    await saveAndLearn(space, {
      messages: [{ role: 'user', content: 'We picked the venue for the offsite: the old mill in Sintra.', at: '2026-11-22T15:00:00Z' }],
    });
    const { episodes } = (await call('GET', `/v1/episodes?${q(space)}`)).body;
    expect(episodes.map((episode: any) => episode.date)).toEqual(['2026-11-22', '2026-11-20']);
    expect(episodes[1]).toMatchObject({ title: 'Checkout sync', project: 'Falcon' });
    expect(episodes[1].summary).toMatch(/pilot agreement/);
    expect(episodes[0].summary).toMatch(/Sintra/);
    expect((await call('GET', `/v1/episodes?limit=1&${q(space)}`)).body.episodes).toHaveLength(1);
    expect((await call('GET', `/v1/episodes?project=Falcon&${q(space)}`)).body.episodes).toHaveLength(1);
    expectError(await call('GET', `/v1/episodes?limit=0&${q(space)}`), 400, 'invalid_request');
  });

  it('takes the project from the save, the batch item, the file field or label, or a heading', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: 'Our goal is to open the bakery in May.', project: 'Bakery' });
    const batch = await call('POST', '/v1/memories/batch', {
      body: { space, items: [{ text: 'Our goal is to finish the thesis draft.', project: 'Thesis' }] },
    });
    await waitLearned(space, batch.body.results[0].source.id);
    const file = await call('PUT', '/v1/files', {
      body: { space, path: '/garden.md', text: 'Our focus is the raised beds.', labels: { project: 'Garden' } },
    });
    await waitLearned(space, file.body.source.id);
    const field = await call('PUT', '/v1/files', {
      body: { space, path: '/boat.md', text: 'Our focus is sanding the hull.', project: 'Boat' },
    });
    await waitLearned(space, field.body.source.id);
    await saveAndLearn(space, { text: 'Project: Choir\n\nOur goal is to sing the Requiem at Easter.' });
    await saveAndLearn(space, { text: 'Our goal is to read more.' });
    const projects = (await call('GET', `/v1/now?${q(space)}`)).body.now.map((state: any) => state.project).sort();
    expect(projects).toEqual(['Bakery', 'Boat', 'Choir', 'Garden', 'Thesis', null].sort());
    expectError(await call('POST', '/v1/memories', { body: { space, text: 'x y z', project: 'p'.repeat(201) } }), 400, 'invalid_request');
  });

  it('deletes what only a deleted source taught, and erasing a space erases it all', async () => {
    const space = freshSpace();
    const notes = await saveAndLearn(space, { text: FALCON_NOTES });
    const meeting = await saveAndLearn(space, { messages: MEETING });
    expect((await call('DELETE', `/v1/sources/${notes.id}?${q(space)}`)).status).toBe(200);
    expect((await call('GET', `/v1/lessons?${q(space)}`)).body.lessons).toEqual([]);
    const state = (await call('GET', `/v1/now?${q(space)}`)).body.now[0];
    expect(state.decisions).toEqual([]);
    expect(state.goal).toBe('Ship the checkout to twenty pilot shops');
    expect((await call('GET', `/v1/episodes?${q(space)}`)).body.episodes.map((episode: any) => episode.source_id)).toEqual([meeting.id]);
    await call('POST', '/v1/memory-health/run', { body: { space } });
    expect((await call('DELETE', `/v1/space?${q(space)}`)).status).toBe(200);
    for (const path of ['now', 'lessons', 'episodes', 'intentions']) {
      const reply = await call('GET', `/v1/${path}?${q(space)}`);
      expect(Object.values(reply.body)[0]).toEqual([]);
    }
    expect((await call('GET', `/v1/memory-health?${q(space)}`)).body.health).toBeNull();
  });
});

describe('POST /v1/briefing', () => {
  it('puts the parts in order, fits every budget, and a larger budget only adds', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: FALCON_NOTES });
    await saveAndLearn(space, { messages: MEETING, title: 'Checkout sync' });
    let previous: string[] = [];
    for (const budget of [500, 800, 1_500, 3_000, 6_000, 40_000]) {
      const reply = await call('POST', '/v1/briefing', { body: { space, project: 'Falcon', budget_chars: budget } });
      expect(reply.status).toBe(200);
      const text: string = reply.body.briefing;
      expect(text.length).toBeLessThanOrEqual(budget);
      const lines = text.split('\n');
      let at = 0;
      for (const earlier of previous) {
        at = lines.indexOf(earlier, at);
        expect(at, `"${earlier}" is kept at ${budget}`).toBeGreaterThanOrEqual(0);
      }
      previous = lines;
    }
    const full = previous.join('\n');
    const order = ['Where things stand', 'What is due', 'Rules that apply', 'What happened', 'Memories'].map((heading) =>
      full.indexOf(`\n${heading}\n`),
    );
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(full).toMatch(/^- Goal: /m);
    expect(full).toMatch(/^- Rule: Never deploy on Fridays\. \(applies: on Fridays\) Why: nobody is around to fix it\.$/m);
    expect(full).toMatch(/^- \[(?:overdue since|due) 2026-11-27\] I'll send the pilot agreement/m);
    expect(full).toMatch(/^- .+ \(\d{4}-\d{2}-\d{2}\)$/m);
    const reply = await call('POST', '/v1/briefing', { body: { space, project: 'Falcon' } });
    expect(reply.body).toMatchObject({ project: 'Falcon' });
    expect(reply.body.now[0].project).toBe('Falcon');
    expect(reply.body.lessons.length).toBe(3);
    expect(reply.body.memories.length).toBeGreaterThan(0);
  });

  it('puts what bears on the cue first in every part, and shows intentions whose cue matches', async () => {
    const space = freshSpace();
    await saveAndLearn(space, { text: FALCON_NOTES });
    await saveAndLearn(space, { messages: MEETING });
    const plain = (await call('POST', '/v1/briefing', { body: { space } })).body;
    expect(plain.due.map((intention: any) => intention.text)).not.toContainEqual(expect.stringMatching(/domain/));
    const cued = (await call('POST', '/v1/briefing', { body: { space, cue: 'the budget for the domain renewal' } })).body;
    expect(cued.due[0].text).toMatch(/renew the domain/);
    const deploy = (await call('POST', '/v1/briefing', { body: { space, cue: 'how do we deploy' } })).body;
    expect(deploy.lessons[0].text).toMatch(/deploy/i);
    const design = (await call('POST', '/v1/briefing', { body: { space, cue: 'Who leads the design work?' } })).body;
    expect(design.memories[0].text).toMatch(/Ana Lopes/);
    const password = (await call('POST', '/v1/briefing', { body: { space, cue: 'VAT wording' } })).body.briefing as string;
    const stand = password.slice(password.indexOf('Where things stand'));
    expect(stand.split('\n')[1]).toMatch(/VAT wording/);
  });

  it('refuses a blank space and budgets out of range on these operations', async () => {
    expectError(await call('POST', '/v1/briefing', { body: { space: ' ' } }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/briefing', { body: { space: freshSpace(), budget_chars: 499 } }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/briefing', { body: { space: freshSpace(), budget_chars: 40_001 } }), 400, 'invalid_request');
    for (const path of ['/v1/now', '/v1/episodes', '/v1/lessons', '/v1/intentions', '/v1/memory-health']) {
      expectError(await call('GET', `${path}?space=`), 400, 'invalid_request');
    }
    expectError(await call('POST', '/v1/intentions/1', { body: { space: '' } }), 400, 'invalid_request');
    expectError(await call('POST', '/v1/memory-health/run', { body: { space: '  ' } }), 400, 'invalid_request');
    // An empty space has an empty briefing, not an error.
    const empty = await call('POST', '/v1/briefing', { body: { space: freshSpace() } });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ now: [], due: [], lessons: [], episodes: [], memories: [] });
  });
});

describe('the OpenAPI document', () => {
  it('lists the briefing routes and the project field of saves', async () => {
    const document = (await call('GET', '/v1/openapi.json', { key: null })).body;
    for (const path of [
      '/v1/briefing',
      '/v1/now',
      '/v1/episodes',
      '/v1/lessons',
      '/v1/intentions',
      '/v1/intentions/{intention_id}',
      '/v1/memory-health',
      '/v1/memory-health/run',
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    expect(document.components.schemas.AddIn.properties.project).toMatchObject({ type: 'string', maxLength: 200 });
    expect(document.paths['/v1/files'].put.requestBody.content['application/json'].schema.properties.project).toMatchObject({
      maxLength: 200,
    });
  });
});

describe('memory health', () => {
  it('is null before the first test and a number in 0..1 after it; only account keys run it', async () => {
    const space = freshSpace();
    await saveAndLearn(space, {
      text: 'Ana Lopes moved to Lisbon in March 2026. Tomas Berg started at the bakery in June 2025. Marta Silva lives in Porto with her two cats.',
    });
    expect((await call('GET', `/v1/memory-health?${q(space)}`)).body).toEqual({
      health: null,
      tested_at: null,
      asked: 0,
      score: 0,
      items: [],
    });
    const { key } = (await call('POST', '/v1/keys', { body: { space } })).body;
    expectError(await call('POST', '/v1/memory-health/run', { body: {}, key }), 403, 'permission_denied');
    const run = await call('POST', '/v1/memory-health/run', { body: { space } });
    expect(run.status).toBe(200);
    expect(run.body.asked).toBeGreaterThanOrEqual(3);
    expect(run.body.health).toBeGreaterThanOrEqual(0);
    expect(run.body.health).toBeLessThanOrEqual(1);
    const right = run.body.items.filter((item: any) => item.mark === 'right').length;
    const partly = run.body.items.filter((item: any) => item.mark === 'partly').length;
    expect(run.body.score).toBe(right + partly / 2);
    expect(run.body.health).toBeCloseTo(run.body.score / run.body.asked, 10);
    expect(run.body.items[0]).toMatchObject({
      question: expect.any(String),
      expected: expect.any(String),
      memory_ids: [expect.any(Number)],
    });
    const read = await call('GET', '/v1/memory-health', { key });
    expect(read.body).toEqual(run.body);
  });

  it('tests a space that holds nothing (never written, or deleted) without an error or a stored run', async () => {
    const space = freshSpace('never-written');
    const empty = { health: null, tested_at: null, asked: 0, score: 0, items: [] };
    const run = await call('POST', '/v1/memory-health/run', { body: { space } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual(empty);
    expect((await call('GET', `/v1/memory-health?${q(space)}`)).body).toEqual(empty);
    expect((await call('GET', '/v1/spaces')).body.spaces.map((row: { name: string }) => row.name)).not.toContain(space);
  });
});
