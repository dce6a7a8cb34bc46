import { describe, expect, it } from 'vitest';
import { answerOffline, asksDate, newPart, shortAnswer, typedAnswer, withoutSaid } from './ask.js';
import { memoryRow } from './memory-row.fixture.js';

const row = memoryRow;

describe('answerOffline', () => {
  it('answers a "when" question with the date the best memory gives', () => {
    const recalled = [{ row: row(1, 'Priya went to a choir rehearsal on 7 May 2023.'), score: 0.8 }];
    const reply = answerOffline(recalled, false, 'When did Priya go to the choir rehearsal?');
    expect(reply.answer).toBe('7 May 2023.');
    expect(reply.message).toMatch(/1 memory/);
    expect(reply.clash).toBe(false);
  });

  it('answers "when" with a time said relative to its day as said, anchored to that day', () => {
    const said = (text: string, sentence: string) => [{ row: row(1, text, { sentence_text: sentence, date: '2024-03-14' }), score: 0.8 }];
    const whenOf = (text: string, sentence: string, question: string) => answerOffline(said(text, sentence), false, question).answer;
    expect(
      whenOf(
        'Odile repainted the shed in the week of 4 March 2024.',
        'I repainted the shed last week.',
        'When did Odile repaint the shed?',
      ),
    ).toBe('The week before 14 March 2024.');
    expect(
      whenOf('On Tuesday 12 March 2024 Odile sold her old bike.', 'Last Tuesday I sold my old bike!', 'When did Odile sell her bike?'),
    ).toBe('The Tuesday before 14 March 2024.');
    expect(
      whenOf(
        'Odile adopted a parrot two weeks before 14 March 2024.',
        'I adopted a parrot two weeks ago.',
        'When did Odile adopt a parrot?',
      ),
    ).toBe('Two weeks before 14 March 2024.');
    // Written as the weekend or month it means, an "ago" is answered as said too.
    expect(
      whenOf(
        'Odile hiked the ridge on the weekend of 2 March 2024.',
        'We hiked the ridge two weekends ago.',
        'When did Odile hike the ridge?',
      ),
    ).toBe('Two weekends before 14 March 2024.');
    expect(whenOf('Odile sold her old car in December 2023.', 'I sold my old car three months ago.', 'When did Odile sell her car?')).toBe(
      'Three months before 14 March 2024.',
    );
    // A question naming the unit it wants is answered with the written date.
    expect(
      whenOf('Odile sold her old car in December 2023.', 'I sold my old car three months ago.', 'What month did Odile sell her car?'),
    ).toBe('December 2023.');
    // The memory health check asks for the date the memory's text gives.
    const written = answerOffline(
      said('Odile repainted the shed in the week of 4 March 2024.', 'I repainted the shed last week.'),
      false,
      'When did Odile repaint the shed?',
      { asSaid: false },
    );
    expect(written.answer).toBe('The week of 4 March 2024.');
    // Said as a date, the date stays as written.
    const dated = answerOffline(
      said('Odile repainted the shed on 7 March 2024.', 'I repainted the shed on March 7.'),
      false,
      'When did Odile repaint the shed?',
    );
    expect(dated.answer).toBe('7 March 2024.');
  });

  it('answers "when" with a year alone, and with the day the best memory was said when none gives a date', () => {
    const year = answerOffline([{ row: row(1, 'Odile learned to sail in 2019.'), score: 0.8 }], false, 'When did Odile learn to sail?');
    expect(year.answer).toBe('2019.');
    const undated = answerOffline(
      [{ row: row(1, 'Odile just opened a pottery stall at the market.', { date: '2023-03-16' }), score: 0.8 }],
      false,
      'When did Odile open her pottery stall?',
    );
    expect(undated.answer).toBe('Mentioned on 16 March 2023.');
    // "How long ago" asks for a span, not a day: the memory is given.
    const span = answerOffline(
      [{ row: row(1, 'Odile has had the stall for ages.', { date: '2023-03-16' }), score: 0.8 }],
      false,
      'How long ago did Odile open her stall?',
    );
    expect(span.answer).toBe('Odile has had the stall for ages.');
  });

  it('answers from the best memory and one from another message scoring almost as well', () => {
    const recalled = [
      { row: row(1, 'Wendell painted a lighthouse'), score: 0.8 },
      { row: row(2, 'Wendell painted a barn', { source_id: 'src_1' }), score: 0.78 },
      { row: row(3, 'Wendell painted a fox.'), score: 0.76 },
      { row: row(4, 'Wendell likes tea.'), score: 0.3 },
    ];
    const reply = answerOffline(recalled, false, 'What did Wendell paint?');
    expect(reply.answer).toBe('A lighthouse; a fox.');
    expect(reply.message).toMatch(/2 memories/);
  });

  it('gives the whole memory where it cannot be cut shorter', () => {
    const recalled = [
      { row: row(1, 'Wendell shared a photo of a vase with a bird pattern.'), score: 0.8 },
      { row: row(2, 'Wendell painted a fox.'), score: 0.79 },
    ];
    const reply = answerOffline(recalled, false, 'What did Wendell paint?');
    expect(reply.answer).toBe('Wendell shared a photo of a vase with a bird pattern. A fox.');
  });

  it('answers a yes-or-no question yes, or no when the best memory says not', () => {
    const yes = answerOffline(
      [{ row: row(1, 'Omar finished the harbour swim in June.'), score: 0.8 }],
      false,
      'Did Omar finish the harbour swim?',
    );
    expect(yes.answer).toBe('Yes.');
    const no = answerOffline(
      [{ row: row(1, 'Omar did not finish the harbour swim.'), score: 0.8 }],
      false,
      'Did Omar finish the harbour swim?',
    );
    expect(no.answer).toBe('No.');
    // A choice between two things is not a yes-or-no question.
    const choice = answerOffline(
      [{ row: row(1, 'Omar prefers the lake to the sea.'), score: 0.8 }],
      false,
      'Would Omar rather swim in the lake or the sea?',
    );
    expect(choice.answer).not.toMatch(/^(?:Yes|No)\.$/);
  });

  it('does not pad a short answer with a memory that could not be cut', () => {
    const recalled = [
      { row: row(1, 'Wendell painted a fox.'), score: 0.8 },
      { row: row(2, 'Wendell shared a photo of a vase with a bird pattern.'), score: 0.79 },
    ];
    const reply = answerOffline(recalled, false, 'What did Wendell paint?');
    expect(reply.answer).toBe('A fox.');
    expect(reply.message).toMatch(/1 memory/);
  });

  it('answers with what was said, not who said it, where a memory cannot be cut (rule "what was said")', () => {
    const reply = answerOffline(
      [{ row: row(1, 'Omar said Priya should rest her knee more.'), score: 0.8 }],
      false,
      'What did the physio tell Priya?',
    );
    expect(reply.answer).toBe('Priya should rest her knee more.');
    expect(withoutSaid('Omar Reyes said that the ferry was late.')).toBe('the ferry was late.');
    // "said" further on is part of what a memory says.
    expect(withoutSaid('The ferry was late, Omar said.')).toBe('The ferry was late, Omar said.');
  });

  it('does not join a title or a named thing from the best memory with an untyped span (rule "a typed answer stands alone")', () => {
    const recalled = [
      { row: row(1, 'Wendell\'s favourite film is "Paper Moon".'), score: 0.8 },
      { row: row(2, 'Wendell likes long walks by the sea.'), score: 0.78 },
    ];
    const reply = answerOffline(recalled, false, 'What film does Wendell like best?');
    expect(reply.answer).toBe('Paper Moon.');
    expect(reply.message).toMatch(/1 memory/);
    expect(typedAnswer('What film does Wendell like best?', 'Wendell likes long walks by the sea.')).toBeNull();
  });

  it('answers from one of the next two memories when only it gives the kind of answer asked (rule "the memory with the kind of answer asked leads")', () => {
    const book = answerOffline(
      [
        { row: row(1, 'Wendell recommended a book to Omar at the market.'), score: 0.8 },
        { row: row(2, 'Wendell keeps rereading "Paper Moon" on the train.'), score: 0.6 },
      ],
      false,
      'What book did Wendell recommend to Omar?',
    );
    expect(book.answer).toBe('Paper Moon.');
    expect(book.message).toMatch(/1 memory/);
    const who = answerOffline(
      [
        { row: row(1, "Wendell's roof was fixed after the storm."), score: 0.8 },
        { row: row(2, 'Omar Reyes fixed it in a single afternoon.'), score: 0.6 },
      ],
      false,
      "Who fixed Wendell's roof?",
    );
    expect(who.answer).toBe('Omar Reyes.');
  });

  it('does not take a "when" later in a "what / how" question for a question of date (rule "a \'when\' clause is not the question")', () => {
    expect(shortAnswer('What does Wendell cook when it rains?', 'Wendell cooks a lentil soup on 3 May 2023.')).toBe('a lentil soup');
    expect(asksDate('What does Wendell cook when it rains?')).toBe(false);
    expect(asksDate('When did Wendell cook the soup?')).toBe(true);
    expect(asksDate('What year did Wendell move when his shop closed?')).toBe(true);
  });

  it('does not take a written date for a place (rule "a date is not a place")', () => {
    expect(shortAnswer('Where is Wendell planning to sail?', 'Wendell is planning to sail in October 2023 to Lisbon.')).toBe('Lisbon');
  });

  it('is null when nothing is known', () => {
    expect(answerOffline([], true, 'What is the capital of Peru?')).toMatchObject({ answer: null, clash: false });
  });

  it('reports a clash when current memories disagree', () => {
    const negated = answerOffline(
      [
        { row: row(1, 'Omar likes coffee.'), score: 0.8 },
        { row: row(2, 'Omar does not like coffee.'), score: 0.79 },
      ],
      false,
      'Does Omar like coffee?',
    );
    expect(negated.clash).toBe(true);
    expect(negated.answer).toBe('Omar likes coffee. Omar does not like coffee.');
    const slots = answerOffline(
      [
        { row: row(1, 'Omar lives in Lisbon.', { slot: 'omar|home' }), score: 0.8 },
        { row: row(2, 'Omar lives in Porto.', { slot: 'omar|home' }), score: 0.8 },
      ],
      false,
      'Where does Omar live?',
    );
    expect(slots.clash).toBe(true);
    const agreeing = answerOffline(
      [
        { row: row(1, 'Omar likes coffee.'), score: 0.8 },
        { row: row(2, 'Omar likes tea.'), score: 0.79 },
      ],
      false,
      'What does Omar like?',
    );
    expect(agreeing.clash).toBe(false);
  });
});

describe('short answers', () => {
  it('keeps what a memory says beyond the words of the question', () => {
    expect(newPart('What did Wendell paint?', 'Wendell painted a lighthouse by the bay.')).toBe('a lighthouse by the bay');
    expect(newPart("What is Priya's favourite book?", "Priya's favourite book is Middlemarch by George Eliot.")).toBe(
      'Middlemarch by George Eliot',
    );
    expect(newPart('What career is Priya keen on?', 'Priya is keen on nursing or working in public health.')).toBe(
      'nursing or working in public health',
    );
  });

  it('does not cut a memory that only shares the name, opens otherwise, or would leave nothing', () => {
    expect(newPart('What did Wendell paint?', 'Wendell shared a photo of a fox.')).toBeNull();
    expect(newPart('What did Wendell paint?', 'On 8 July 2023 Wendell painted a fox.')).toBeNull();
    expect(newPart('Did Wendell paint?', 'Wendell painted.')).toBeNull();
  });

  it('answers by the kind of question: a date, a number, a place', () => {
    expect(shortAnswer('When did Bashir lose his wallet?', 'Bashir lost his wallet at the market on 19 January 2023.')).toBe(
      '19 January 2023',
    );
    expect(shortAnswer('How many cousins does Wendell have?', 'Wendell has three cousins and a dog.')).toBe('three cousins');
    expect(shortAnswer('How long have Wen and his partner been engaged?', 'Wendell has been engaged for 5 years.')).toBe('5 years');
    // A written date's day is not a count.
    expect(shortAnswer('How many cousins does Wendell have?', 'On 3 March 2024 Wendell met three cousins.')).toBe('three cousins');
    expect(shortAnswer('Where did Priya move from?', 'Priya moved from Chile four years ago.')).toBe('Chile');
    expect(shortAnswer('Where does Odile volunteer?', 'Odile volunteers at the animal rescue on Fridays.')).toBe('the animal rescue');
  });

  it('answers "who" with a name, a named work with its title, "what X" with how the memory describes X', () => {
    expect(shortAnswer('Who fixed Odile’s bike?', 'Her neighbour Ruth Okafor fixed Odile’s bike.')).toBe('Ruth Okafor');
    expect(shortAnswer('What song did Odile sing at the fair?', 'Odile sang "Blue Heron" at the fair, in the rain.')).toBe('Blue Heron');
    expect(shortAnswer('What cake did Odile bake?', 'Odile baked a lemon poppy seed cake for Sunday.')).toBe('lemon poppy seed cake');
    // Else the span after the question's words, without its date.
    expect(shortAnswer('What did Odile bake?', 'Odile baked a lemon cake on 3 May 2023, which vanished.')).toBe('a lemon cake');
  });
});
