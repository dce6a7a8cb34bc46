import { describe, expect, it } from 'vitest';
import { cueOf, learnStructures, projectOfHeading } from './learn-structures.js';

const note = (body: string, writtenAt = '2026-11-23T10:00:00Z', project: string | null = null) =>
  learnStructures({ kind: 'note', body, messages: null, written_at: new Date(writtenAt), title: null, project }, []);

describe('learnStructures', () => {
  it.each([
    ['Project: Falcon', 'Falcon'],
    ['# Project Falcon — weekly notes', 'Falcon'],
    ['Project Falcon', 'Falcon'],
    ['Weekly sync 2026-11-19 (Project Kestrel)', 'Kestrel'],
    ['Budget call — Project Harbour Newsletter', 'Harbour Newsletter'],
    ['Project: Move. Our goal is to be out by January.', 'Move'],
    ['Project work was slow today because the printer broke down again.', null],
    ['Projects are fun.', null],
  ])('reads the project of "%s" as %s', (line, project) => {
    expect(projectOfHeading(line)).toBe(project);
  });

  it.each([
    ['Remind me to renew the domain when we talk about the budget.', 'the budget'],
    ['Next time I see Ana, I will ask about the keys.', 'Ana'],
    ['Ask about the invoice when the move comes up.', 'the move'],
    ['Call the plumber on Monday.', null],
  ])('finds the cue of "%s"', (sentence, cue) => {
    expect(cueOf(sentence)).toBe(cue);
  });

  it('prefers the project named on the save to the one in the text', () => {
    expect(note('Project: Falcon\n\nOur goal is to ship.', undefined, 'Kestrel').state[0]).toMatchObject({
      project: 'Kestrel',
      field: 'goal',
    });
    expect(note('Our goal is to ship.').project).toBeNull();
  });

  it('reads "the night" as words, not as a date', () => {
    expect(note('Goal: open the night market stall before the festival.').state[0]!.text).toBe(
      'Open the night market stall before the festival',
    );
  });

  it("resolves a dated meeting note's dates from its day, and dates its episode by it", () => {
    const learned = note('Weekly sync 2026-11-19\n\nTariq will send the notice to the lawyer by Friday.');
    expect(learned.intentions[0]).toMatchObject({
      due: '2026-11-20',
      text: 'Tariq will send the notice to the lawyer by Friday 20 November 2026',
    });
    expect(learned.episode).toBeNull(); // no facts were given, and no title
  });

  it('learns nothing from questions, hypotheticals, hedges, denials and quotes', () => {
    const learned = note(
      [
        'Should we decide to move the launch?',
        'If we decided to move, I would call the venue.',
        "We'll see whether we need to hire.",
        'I never said we decided on the annual plan.',
        '"We will never ship on time," Tom joked.',
        'Maybe we should always deploy on Mondays.',
      ].join('\n'),
    );
    expect({ state: learned.state, intentions: learned.intentions, lessons: learned.lessons }).toEqual({
      state: [],
      intentions: [],
      lessons: [],
    });
  });
});

describe("what is not the user's own writing", () => {
  it('learns no structures from a web page or an uploaded document', () => {
    for (const kind of ['page', 'pdf', 'docx'] as const) {
      const learned = learnStructures(
        {
          kind,
          body: 'We decided to go public. I will send the report by Friday. Never trust a forecast.',
          messages: null,
          written_at: new Date('2026-11-23T10:00:00Z'),
        },
        [],
      );
      expect(learned).toEqual({ project: null, state: [], intentions: [], lessons: [], episode: null });
    }
  });
});
