import { describe, expect, it } from 'vitest';
import type { LearnedFact, MessageInput } from './index.js';
import { factFingerprint, learnFromMessages, learnFromText, readMessages } from './index.js';

const at = '2026-11-22T15:00:00Z';
const writtenAt = new Date('2026-11-25T09:00:00Z');
/** A two-person conversation: Priya says `text`, Wendell answers. */
const conversation = (text: string, extra: MessageInput[] = []): LearnedFact[] =>
  learnFromMessages(
    readMessages([{ role: 'user', name: 'Priya', at, content: text }, { role: 'user', name: 'Wendell', at, content: 'Nice!' }, ...extra]),
    { writtenAt },
  );
const texts = (facts: LearnedFact[]): string[] => facts.map((fact) => fact.text);
/** What is learned when the user tells an assistant `content` and it answers. */
const told = (content: string): string[] =>
  texts(
    learnFromMessages(
      readMessages([
        { role: 'user', at, content },
        { role: 'assistant', at, content: 'Noted!' },
      ]),
      { writtenAt },
    ),
  );

describe('learnFromMessages', () => {
  it('keeps with a reply what it answers: the message before, led by the opening of the one before that', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Wendell', at, content: 'We went fishing at the lake last weekend!' },
        { role: 'user', name: 'Priya', at, content: 'Sounds great. How was it?' },
        { role: 'user', name: 'Wendell', at, content: 'We grilled trout by the water. The kids loved the canoe.' },
      ]),
      { writtenAt },
    ).filter((fact) => fact.sentence.messageIndex === 2);
    expect(texts(facts)).toEqual(["Wendell's family grilled trout by the water.", 'Wendell said the kids loved the canoe.']);
    // The reply's opening fact holds both at the weight of its own message; later facts at the lowest.
    expect(facts[0]!.context).toBe(
      'We grilled trout by the water. The kids loved the canoe.\nWe went fishing at the lake last weekend!\nSounds great. How was it?',
    );
    expect(facts[0]!.before).toBeUndefined();
    expect(facts[1]!.before).toBe('We went fishing at the lake last weekend!\nSounds great. How was it?');
  });

  it('turns the speaker’s words into facts about the speaker, with absolute dates', () => {
    expect(conversation("I love hiking. I'm going to Paris next month! My sister is a nurse.")).toEqual([
      {
        text: 'Priya loves hiking.',
        kind: 'pref',
        about: ['Priya'],
        nameTypes: ['person'],
        lasting: true,
        owner: false,
        date: '2026-11-22',
        sentence: { text: 'I love hiking.', messageIndex: 0, start: 0, end: 14 },
        context: "I love hiking. I'm going to Paris next month! My sister is a nurse.",
        slot: null,
      },
      {
        text: 'Priya is going to Paris in December 2026.',
        kind: 'plan',
        about: ['Priya', 'Paris'],
        nameTypes: ['person', 'place'],
        lasting: false,
        owner: false,
        date: '2026-11-22',
        sentence: { text: "I'm going to Paris next month!", messageIndex: 0, start: 15, end: 45 },
        context: "I love hiking. I'm going to Paris next month! My sister is a nurse.",
        slot: null,
      },
      {
        text: "Priya's sister is a nurse.",
        kind: 'people',
        about: ['Priya'],
        nameTypes: ['person'],
        lasting: true,
        owner: false,
        date: '2026-11-22',
        sentence: { text: 'My sister is a nurse.', messageIndex: 0, start: 46, end: 67 },
        context: "I love hiking. I'm going to Paris next month! My sister is a nurse.",
        slot: null,
      },
    ]);
  });

  it('learns what a user asks the assistant to remember as said, without the request', () => {
    expect(told("Remember that I'm allergic to sesame.")).toEqual(['The user is allergic to sesame.']);
    expect(told('Keep in mind that I work nights.')).toEqual(['The user works nights.']);
    expect(told('Can you remember that my landlord is called Osric?')).toEqual(["The user's landlord is called Osric."]);
    expect(told('For the record, I hate cilantro.')).toEqual(['The user hates cilantro.']);
    // A request to remind is no fact.
    expect(told('Remind me to call the bank.')).toEqual([]);
  });

  it('makes each relative date absolute against the message time', () => {
    const said = [
      'I saw Bashir yesterday.',
      'I was in Rome last week.',
      "I'm visiting Oslo in March.",
      'I painted a mural last year.',
      "I'm meeting Ana on Friday.",
      'I adopted a cat two days ago.',
      "I'll call Dr. Smith tomorrow.",
    ];
    expect(texts(conversation(said.join(' ')))).toEqual([
      'Priya saw Bashir on 21 November 2026.',
      'Priya was in Rome in the week of 9 November 2026.',
      'Priya is visiting Oslo in March 2027.',
      'Priya painted a mural in 2025.',
      'Priya is meeting Ana on Friday 27 November 2026.',
      'Priya adopted a cat on 20 November 2026.',
      'Priya will call Dr. Smith on 23 November 2026.',
    ]);
  });

  it('drops greetings, thanks, acknowledgements and questions that only ask', () => {
    // Only the name Priya calls Wendell by is learned (nicknames.ts); the talk itself is not.
    expect(
      texts(conversation('Hi! Hey Wen, good to see you. Thanks! Wow, that’s great! Sounds fun. How are you? What did you do?')),
    ).toEqual(['Priya calls Wendell by the nickname Wen.']);
    expect(conversation('Hi! Hey Wendell, good to see you. Thanks! Wow, that’s great! Sounds fun. How are you?')).toEqual([]);
  });

  it('drops a question that turns the talk to the listener', () => {
    expect(conversation('Enough about me, how was your trip to Oslo?')).toEqual([]);
    expect(conversation("I'm curious, what is the book about?")).toEqual([]);
    // A question that still tells something of the speaker after the frame is kept.
    expect(texts(conversation("I'm curious, have you seen my new kayak?"))).toEqual([expect.stringContaining("Priya's new kayak")]);
  });

  it('keeps a fact hidden in a question', () => {
    const [fact] = conversation('Have you seen my new puppy, Rex?');
    expect(fact).toMatchObject({ text: 'Priya has a new puppy, Rex.', about: ['Priya', 'Rex'] });
    expect(texts(conversation('Did I tell you I got a job at Google?'))).toEqual(['Priya got a job at Google.']);
    // The article agrees with the noun, not with a time or a phrase after it.
    expect(texts(conversation('Want to see my drawings from the fair?'))).toEqual(['Priya has drawings from the fair.']);
    expect(texts(conversation('Have you seen my collection of stamps?'))).toEqual(['Priya has a collection of stamps.']);
    expect(texts(conversation('Is it weird that I still love Star Wars?'))).toEqual(['Is it weird that Priya still loves Star Wars?']);
  });

  it('drops advice to the listener but keeps what a command shows of the speaker', () => {
    expect(texts(conversation('Take a look at this. Keep smiling! Check out my quilt for the county fair!'))).toEqual([
      'Priya has a quilt for the county fair.',
    ]);
  });

  it('learns what a speaker shows the listener, when it is theirs, and not a look at what the listener shared', () => {
    const shown = (text: string) =>
      learnFromMessages(
        readMessages([
          { role: 'user', name: 'Ben', content: 'How was the weekend?', at: '2026-03-02T10:00:00Z' },
          { role: 'user', name: 'Priya', content: text, at: '2026-03-02T10:00:00Z' },
        ]),
        { writtenAt: new Date('2026-03-02T10:00:00Z') },
      )
        .filter((fact) => fact.sentence.messageIndex === 1)
        .map((fact) => fact.text);
    expect(shown('Look at this quilt I made for the county fair!')).toEqual(['Priya showed Ben a quilt Priya made for the county fair.']);
    expect(shown('Check out these tomatoes from my allotment!')).toEqual(["Priya showed Ben tomatoes from Priya's allotment."]);
    expect(shown('Look at this lemon drizzle cake! [shares: a photo of a cake on a plate]')).toEqual([
      'Priya showed Ben a lemon drizzle cake.',
      'Priya shared a photo of a cake on a plate.',
    ]);
    // Nothing of the speaker's: a look at what the listener shared, or no thing named.
    expect(shown('Wow, look at this lovely garden!')).toEqual([]);
    expect(shown('Look at this!')).toEqual([]);
    expect(shown('Look at that view - so pretty.')).toEqual([]);
  });

  it('learns the name a speaker asks to be called by, and no name from "call me" before a day or a time', () => {
    expect(told('Call me Bea.')).toEqual(['The user goes by the name Bea.']);
    expect(told('You can call me Bea Lund!')).toEqual(['The user goes by the name Bea Lund.']);
    expect(told('Call me tomorrow.')).toEqual([]);
    expect(told('Call me when you land.')).toEqual([]);
  });

  it("learns the user's standing instructions to an assistant as preferences, not one-off requests", () => {
    const learned = (content: string) =>
      learnFromMessages(
        readMessages([
          { role: 'user', at, content },
          { role: 'assistant', at, content: 'Noted!' },
        ]),
        { writtenAt },
      ).map((fact) => [fact.kind, fact.text]);
    expect(learned('Please always answer in Spanish.')).toEqual([
      ['pref', "The user's standing instruction to the assistant: always answer in Spanish."],
    ]);
    expect(learned('Keep your answers under 100 words.')).toEqual([
      ['pref', "The user's standing instruction to the assistant: keep your answers under 100 words."],
    ]);
    expect(learned('Use metric units when you talk to me.')).toEqual([
      ['pref', "The user's standing instruction to the assistant: use metric units when you talk to the user."],
    ]);
    expect(learned('Tell me a joke.')).toEqual([]);
    // Between two named people it is advice to the other, as before.
    expect(texts(conversation('Always wear sunscreen.'))).toEqual(['Priya said always wear sunscreen.']);
  });

  it('learns what follows laughter or "ok so" without a pause, and nothing from "Never mind" or "That worked"', () => {
    expect(told('lol I finally passed my driving test')).toEqual(['The user finally passed their driving test.']);
    expect(told('Ok so the wedding is off.')).toEqual(['The user said the wedding is off.']);
    expect(told('Ugh, my landlord is raising the rent.')).toEqual(["The user's landlord is raising the rent."]);
    expect(told('Never mind.')).toEqual([]);
    expect(told('Thanks, that worked!')).toEqual([]);
  });

  it("writes the owner into a note's clipped sentences, and only into a note's", () => {
    const note = 'User prefers aisle seats. Drives a grey Skoda. Customer is allergic to kiwi. Kids love the new park. Dislikes: olives.';
    expect(texts(learnFromText(note, { writtenAt, note: true }))).toEqual([
      'The user prefers aisle seats.',
      'The user drives a grey Skoda.',
      'The user is allergic to kiwi.',
      'Kids love the new park.',
      'Dislikes: olives.',
    ]);
    expect(learnFromText(note, { writtenAt, note: true }).map((fact) => fact.owner)).toEqual([true, true, true, false, false]);
    // A page or a file is not about its owner: "Includes three maps" is the document's.
    expect(texts(learnFromText('Includes three maps of the valley.', { writtenAt }))).toEqual(['Includes three maps of the valley.']);
  });

  it('reads "would rather" as a preference', () => {
    expect(told("I'd rather you didn't use my full name.")).toEqual(["The user would rather you didn't use their full name."]);
    const [fact] = learnFromMessages(readMessages([{ role: 'user', at, content: 'I would rather take the train.' }]), { writtenAt });
    expect(fact?.kind).toBe('pref');
  });

  it('reads a verb that opens a noun before "has" or "are" as the subject, not a command', () => {
    expect(texts(conversation('Swim practice has been long and cold. Keep smiling!'))).toEqual([
      'Priya said swim practice has been long and cold.',
    ]);
  });

  it('fills in the speaker before "got back", which the tagger reads as an auxiliary', () => {
    expect(texts(conversation('Just got back from Tromsø!'))).toEqual(['Priya just got back from Tromsø.']);
  });

  it('points a date back or ahead by the tense of its own clause', () => {
    expect(texts(conversation('The offer came through, I start on the 30th.'))).toEqual([
      'The offer came through, Priya starts on 30 November 2026.',
    ]);
    expect(texts(conversation('I start at the bakery soon, the contract arrived on the 10th.'))).toEqual([
      'Priya starts at the bakery soon, the contract arrived on 10 November 2026.',
    ]);
  });

  it('reads "quit", "set" or "cut" as past from its subject and the day named, and keeps its form', () => {
    expect(texts(conversation('I quit the choir on Friday.'))).toEqual(['Priya quit the choir on Friday 20 November 2026.']);
    expect(texts(conversation('My cousin set up her studio on Tuesday.'))).toEqual([
      "Priya's cousin set up her studio on Tuesday 17 November 2026.",
    ]);
    expect(texts(conversation('I cut the lawn on Saturdays.'))).toEqual(['Priya cuts the lawn on Saturdays.']);
    expect(texts(conversation('I will quit the choir on Friday.'))).toEqual(['Priya will quit the choir on Friday 27 November 2026.']);
  });

  it('gives a clause without a verb of its own the tense of its sentence', () => {
    expect(texts(conversation('I had a cast on my wrist, no climbing until March.'))).toEqual([
      'Priya had a cast on their wrist, no climbing until March 2026.',
    ]);
    expect(texts(conversation('We were renting a boat, a small one until March.'))).toEqual([
      'Priya and friends were renting a boat, a small one until March 2026.',
    ]);
  });

  it('reads "Back in March" as a time looked back to, not a command', () => {
    expect(texts(conversation('Back in March I tore a ligament.'))).toEqual(['Back in March 2026 Priya tore a ligament.']);
  });

  it('writes a remark opening with a date as said, in lower case after "said"', () => {
    expect(texts(conversation('Last night was amazing!'))).toEqual(['Priya said the night of 21 November 2026 was amazing.']);
  });

  it('reads a label before the news as no command, and keeps its words', () => {
    expect(texts(conversation('Garden update: we planted three plum trees. Holiday change: we fly to Bergen instead.'))).toEqual([
      'Garden update: Priya and friends planted three plum trees.',
      'Holiday change: Priya and friends fly to Bergen instead.',
    ]);
    // A label of praise is no adjective of the speaker ("Priya is happy moment: …").
    expect(texts(conversation('Happy moment: my sister Ilse ran her first marathon. Big win: I got the grant.'))).toEqual([
      "Happy moment: Priya's sister Ilse ran her first marathon.",
      'Big win: Priya got the grant.',
    ]);
  });

  it('sets aside openers such as "Speaking of …," and keeps the plural verb of a shared subject', () => {
    expect(texts(conversation('Speaking of big news, my brother and I just set off on our Scottish road trip!'))).toEqual([
      "Priya's brother and Priya just set off on Priya's Scottish road trip.",
    ]);
  });

  it('resolves "you" to the other of two speakers and says who said what', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Priya', at, content: 'I went to a support group.' },
        { role: 'user', name: 'Wendell', at, content: "You'd be a great counselor! The colors blend nicely." },
      ]),
      { writtenAt },
    );
    expect(facts.map((fact) => [fact.text, fact.about, fact.sentence.messageIndex])).toEqual([
      ['Priya went to a support group.', ['Priya'], 0],
      ['Wendell said Priya would be a great counselor.', ['Wendell', 'Priya'], 1],
      ['Wendell said the colors blend nicely.', ['Wendell'], 1],
    ]);
    // What a speaker says of something other than themselves is marked as a remark.
    expect(facts.map((fact) => fact.reported === true)).toEqual([false, true, true]);
  });

  it('learns the statement of a tagged question, and nothing from catching up', () => {
    const facts = learnFromMessages(
      readMessages([
        {
          role: 'user',
          name: 'Ines',
          at,
          content: 'Anything new since we last spoke? I opened my own bike shop last month, pretty cool, huh?',
        },
        { role: 'user', name: 'Bashir', at, content: 'Is there anything else we can do for you? We all need a break sometimes, right?' },
      ]),
      { writtenAt },
    );
    expect(texts(facts)).toEqual([
      'Ines opened their own bike shop in October 2026, pretty cool.',
      'Bashir and friends all need a break sometimes.',
    ]);
  });

  it('marks no fact a remark when the speaker is its subject, nor any fact of a note', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Wendell', at, content: 'I painted a lake. My kids love pottery. Have you seen my new puppy, Rex?' },
      ]),
      { writtenAt },
    );
    expect(facts.length).toBeGreaterThan(1);
    expect(facts.every((fact) => fact.reported === undefined)).toBe(true);
    expect(
      learnFromText('The colors blend nicely. Omar lives in Lisbon.', { writtenAt }).every((fact) => fact.reported === undefined),
    ).toBe(true);
  });

  it('learns a shared image as a fact of its own, at the marker’s offsets', () => {
    const text = 'I went to the beach. [shares: a photo of a dog on a beach]';
    const facts = conversation(text);
    expect(texts(facts)).toEqual(['Priya went to the beach.', 'Priya shared a photo of a dog on a beach.']);
    const caption = facts[1]?.sentence;
    if (caption === undefined) throw new Error('no caption fact');
    expect(caption).toEqual({ text: '[shares: a photo of a dog on a beach]', messageIndex: 0, start: 21, end: 58 });
    expect(text.slice(caption.start, caption.end)).toBe(caption.text);
  });

  it('speaks for the owner in an unnamed user message, skips an unnamed assistant and reads a tool as a note', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'system', content: 'I am a helpful assistant.' },
        { role: 'user', content: 'I live in Lisbon.' },
        { role: 'assistant', content: 'I love Lisbon too!' },
        { role: 'assistant', name: 'Coach', content: 'I run every morning.' },
        { role: 'tool', content: 'I found 3 flights to Porto.' },
      ]),
      { writtenAt, owner: 'Ana' },
    );
    expect(facts.map((fact) => [fact.text, fact.sentence.messageIndex, fact.date])).toEqual([
      ['Ana lives in Lisbon.', 1, '2026-11-25'],
      ['Coach runs every morning.', 3, '2026-11-25'],
      ['I found 3 flights to Porto.', 4, '2026-11-25'],
    ]);
  });

  it('uses "The user" for an owner without a name and keeps it out of about', () => {
    const facts = learnFromMessages(readMessages([{ role: 'user', content: 'My brother Tom moved to Berlin.' }]), { writtenAt });
    expect(facts).toMatchObject([{ text: "The user's brother Tom moved to Berlin.", kind: 'people', about: ['Tom', 'Berlin'] }]);
  });

  it('keeps the capital of a name that opens what the speaker said ("Horseshoe Tavern …")', () => {
    const facts = learnFromMessages(readMessages([{ role: 'user', at, content: 'Brockwell Lido on the 3rd. We swim at 7.' }]), {
      writtenAt,
    });
    expect(facts[0]?.text).toBe('The user said Brockwell Lido on 3 December 2026.');
    const lowered = learnFromMessages(readMessages([{ role: 'user', at, content: 'Maybe Ilse will come.' }]), { writtenAt });
    expect(lowered[0]?.text).toBe('The user said maybe Ilse will come.');
  });

  it('reads "Not a morning person" as what the speaker is not, and "Not a problem" as talk', () => {
    const facts = learnFromMessages(
      readMessages([{ role: 'user', at, content: 'Not a morning person at all. Not much of a cook either.' }]),
      {
        writtenAt,
      },
    );
    expect(facts.map((fact) => fact.text)).toEqual(['The user is not a morning person at all.', 'The user is not much of a cook either.']);
    const talk = learnFromMessages(readMessages([{ role: 'user', at, content: 'Not a problem!' }]), { writtenAt });
    expect(talk.map((fact) => fact.text)).not.toContain('The user is not a problem.');
  });

  it('reads "Call me Sam, by the way." as the name the user goes by', () => {
    const facts = learnFromMessages(readMessages([{ role: 'user', at, content: 'Call me Sam, by the way.' }]), { writtenAt });
    expect(facts.map((fact) => fact.text)).toEqual(['The user goes by the name Sam.']);
  });

  it('puts the full stop after a closing bracket and inside a closing quote', () => {
    const facts = learnFromMessages(
      readMessages([{ role: 'user', at, content: 'I have two kids, Mia (7) and Leo (4). My favourite film is "Heat".' }]),
      {
        writtenAt,
      },
    );
    expect(facts.map((fact) => fact.text)).toEqual([
      'The user has two kids, Mia (7) and Leo (4).',
      'The user\'s favourite film is "Heat."',
    ]);
  });

  it('names the one person the message replied to ends on for a reply opening with "she" or "he"', () => {
    const learned = (reply: string, asked: string) =>
      learnFromMessages(
        readMessages([
          { role: 'user', at, content: 'Our daughter Tova is 9 and just started school.' },
          { role: 'assistant', at, content: `That is a big step. ${asked}` },
          { role: 'user', at, content: reply },
        ]),
        { writtenAt },
      ).map((fact) => fact.text);
    expect(learned('She loves it, her teacher is great.', 'Is Tova settling in at school?')).toContain(
      'Tova loves it, her teacher is great.',
    );
    // Not when the question ends on nobody the conversation named, nor on a person of the other gender.
    expect(learned('She loves it, her teacher is great.', 'Is school going well?')).toContain(
      'The user said she loves it, her teacher is great.',
    );
    expect(learned('He loves it, his teacher is great.', 'Is Tova settling in at school?')).toContain(
      'The user said he loves it, his teacher is great.',
    );
  });

  it('names the one person the question replied to names, in a turn saved on its own', () => {
    const alone = (asked: string, reply: string) =>
      learnFromMessages(
        readMessages([
          { role: 'assistant', at, content: asked },
          { role: 'user', at, content: reply },
        ]),
        { writtenAt },
      ).map((fact) => fact.text);
    expect(alone('Does Tova have a favourite subject at school?', 'She loves maths, she hates spelling.')).toEqual([
      'Tova loves maths, she hates spelling.',
    ]);
    // Not a place, nor one of two names.
    expect(alone('How was the week in Lisbon?', 'She loved every minute of it.')).toEqual(['The user said she loved every minute of it.']);
    expect(alone('Do Tova and Bram like the new school?', 'She loves it, the teachers are kind.')).toEqual([
      'The user said she loves it, the teachers are kind.',
    ]);
  });

  it('reads "Sad news," as a label, not as the speaker being sad', () => {
    const facts = learnFromMessages(readMessages([{ role: 'user', at, content: 'Sad news, my cat Miso died.' }]), { writtenAt });
    expect(facts[0]?.text).toBe("Sad news, the user's cat Miso died.");
    const update = learnFromMessages(readMessages([{ role: 'user', at, content: 'Quick update: moved to Oslo in March.' }]), { writtenAt });
    expect(update[0]?.text).toBe('Quick update: the user moved to Oslo in March 2026.');
  });

  it('keeps input order and no fact twice', () => {
    const facts = learnFromMessages(
      readMessages([
        { role: 'user', name: 'Priya', at, content: 'I love hiking. I love hiking!' },
        { role: 'user', name: 'Wendell', at, content: 'I have two kids.' },
        { role: 'user', name: 'Priya', at, content: 'I love hiking.' },
      ]),
      { writtenAt },
    );
    expect(facts.map((fact) => [fact.text, fact.kind, fact.sentence.messageIndex])).toEqual([
      ['Priya loves hiking.', 'pref', 0],
      ['Wendell has two kids.', 'people', 1],
    ]);
  });

  it('points every sentence at its exact place in the read text', () => {
    const content = [
      { type: 'text', text: 'Hey Wen!  I ran a race last Saturday.' },
      { type: 'image', url: 'x' },
      { type: 'text', text: '- My dog Rex loves it 😀' },
    ];
    const read = readMessages([{ role: 'user', name: 'Priya', at, content }]);
    const facts = learnFromMessages(read, { writtenAt });
    expect(texts(facts)).toEqual(['Priya ran a race on Saturday 21 November 2026.', "Priya's dog Rex loves it."]);
    for (const fact of facts) expect(read[0]?.text.slice(fact.sentence.start, fact.sentence.end)).toBe(fact.sentence.text);
    expect(facts[1]?.sentence.text).toBe('My dog Rex loves it 😀');
  });
});

describe('learnFromText', () => {
  it('learns a note as the owner’s words, with offsets into the note', () => {
    const note = 'Dentist: Dr. Lee at Smile Dental.\n- I hate flossing\n- Call Mom on Monday';
    const facts = learnFromText(note, { writtenAt, owner: 'Sam' });
    expect(facts.map((fact) => [fact.text, fact.kind, fact.about, fact.date])).toEqual([
      ['Dentist: Dr. Lee at Smile Dental.', 'detail', ['Dr. Lee', 'Smile Dental'], '2026-11-25'],
      ['Sam hates flossing.', 'pref', ['Sam'], '2026-11-25'],
      ['Call Mom on Monday 30 November 2026.', 'plan', [], '2026-11-25'],
    ]);
    for (const fact of facts) {
      expect(fact.sentence.messageIndex).toBeNull();
      expect(note.slice(fact.sentence.start, fact.sentence.end)).toBe(fact.sentence.text);
    }
  });

  it('keeps the space before a file extension and closes up the space before punctuation', () => {
    expect(texts(learnFromText('Most of my files are .ai , sadly .', { writtenAt }))).toEqual(["Most of the user's files are .ai, sadly."]);
  });

  it('resolves dates against the time the note was written', () => {
    expect(texts(learnFromText('I started yoga yesterday.', { writtenAt }))).toEqual(['The user started yoga on 24 November 2026.']);
  });
});

describe('factFingerprint', () => {
  it('is what deduplication compares', () => {
    expect(factFingerprint('Priya loves hiking.')).toBe(factFingerprint('priya loves  hiking!'));
  });
});
