import { describe, expect, it } from 'vitest';
import {
  asksToKeep,
  findContent,
  isChitChat,
  isQuestion,
  keepRequestEnd,
  labelEnd,
  pleasantryLeadEnd,
  questionCarriesFact,
  statementLeadEnd,
  tagQuestionStart,
} from './chit-chat.js';

const content = (sentence: string, names: string[] = ['Odile', 'Beatrice']): string => {
  const found = findContent(sentence, names);
  return sentence.slice(found.start, found.end);
};

describe('chit-chat', () => {
  it('finds greetings, thanks and bare acknowledgements', () => {
    for (const sentence of [
      'Hi!',
      'Hey Bea, good to see you',
      'Wow, that’s great!',
      'Sounds fun',
      'Thanks so much, Odile!',
      'Talk to you soon!',
      'That charity race sounds great',
      'So cool!',
      'I totally agree',
      'Good luck!',
      'Truly inspiring!',
      'Hey Bea, long time no talk!',
      "Nah, I haven't.",
    ]) {
      expect(isChitChat(content(sentence)), sentence).toBe(true);
    }
  });

  it('keeps sentences that carry a fact', () => {
    for (const sentence of [
      'I love hiking',
      'My sister is a nurse',
      'The event was really thought-provoking.',
      'Thanks to my therapist I sleep better.',
      "I'm vegan.",
    ]) {
      expect(isChitChat(content(sentence)), sentence).toBe(false);
    }
  });

  it('reads "I see" and "I understand" with an object as a fact, alone or before a pause as talk', () => {
    for (const sentence of ['I see my physio every Tuesday.', 'I see them every other Sunday.', 'I understand Portuguese pretty well.']) {
      expect(isChitChat(content(sentence)), sentence).toBe(false);
    }
    for (const sentence of [
      'I see.',
      'I see what you mean!',
      'I see, that explains it.',
      'I understand how you feel.',
      'I understand completely',
    ]) {
      expect(isChitChat(content(sentence)), sentence).toBe(true);
    }
  });

  it('sets aside a name used to address someone before "you", with or without a comma', () => {
    expect(content("No doubt, Odile you've got this.")).toBe("you've got this.");
    expect(content('Odile your garden looks wild.')).toBe('your garden looks wild.');
    // A name that is the subject stays: only the people talking are addressed.
    expect(content('Marguerite you know from the bakery moved away.')).toBe('Marguerite you know from the bakery moved away.');
  });

  it('reads a question about what the speaker said before as asking, not telling', () => {
    expect(questionCarriesFact('Can you remind me what I said about the budget?')).toBe(false);
    expect(questionCarriesFact('Have you seen my new kayak?')).toBe(true);
  });

  it('sets "Guess what" aside as an opener and keeps the news it announces', () => {
    expect(content('Guess what - I adopted a kitten last week!')).toBe('I adopted a kitten last week!');
    expect(content('You know what, Odile, I finally fixed the boat.')).toBe('I finally fixed the boat.');
    expect(isChitChat(content('Guess what - I adopted a kitten last week!'))).toBe(false);
    expect(isChitChat(content('Guess what!'))).toBe(true);
  });

  it('sets aside openers, names used to address someone and trailing emoji', () => {
    expect(content('Hey Odile, I ran a race! 😀')).toBe('I ran a race!');
    expect(content('Yeah, I carved that oak bench last spring, Bea!')).toBe('I carved that oak bench last spring');
    expect(content('So cool you built such a sturdy boat.')).toBe('you built such a sturdy boat.');
    expect(content('And here is the agency.')).toBe('here is the agency.');
  });

  it('sets aside a pleasantry opening a sentence when a clause about the speaker or a named person follows', () => {
    expect(content("Also sorry if I'm slow to reply, my terrier Pip keeps chewing my sketchbooks.")).toBe(
      'my terrier Pip keeps chewing my sketchbooks.',
    );
    expect(content('Thanks for the tips - I tried the bread recipe on Sunday.')).toBe('I tried the bread recipe on Sunday.');
    expect(content('No worries, Odile is bringing the tent to the lake.')).toBe('Odile is bringing the tent to the lake.');
    // Too short to tell anything, or no speaker after it: the sentence stays talk.
    expect(pleasantryLeadEnd('Thanks for the support, I really appreciate it.')).toBe(0);
    expect(pleasantryLeadEnd("Sorry to hear that, hope the cold passes soon and you're back on the water.")).toBe(0);
    // What opens the sentence is no pleasantry: nothing is set aside.
    expect(pleasantryLeadEnd('The ferry was late, I missed the first talk of the day.')).toBe(0);
  });

  it('tells questions that only ask from questions that show something of the speaker', () => {
    expect(isQuestion('How are you? 😀')).toBe(true);
    expect(isQuestion('I am fine.')).toBe(false);
    expect(questionCarriesFact('How are you?')).toBe(false);
    expect(questionCarriesFact('What did you do?')).toBe(false);
    expect(questionCarriesFact('Can I ask you something?')).toBe(false);
    expect(questionCarriesFact('Have you seen my new puppy, Rex?')).toBe(true);
    expect(questionCarriesFact('Did I tell you I got a new job?')).toBe(true);
    // Catching up and offers of help ask; their "we" and "I" tell nothing.
    for (const question of [
      "What's new with the band since we last spoke?",
      'Anything new since we chatted?',
      'Is there anything else we can do for the move?',
      'Care to fill me in?',
    ]) {
      expect(questionCarriesFact(question), question).toBe(false);
    }
    expect(questionCarriesFact('Have we talked about my trip to Oregon since I got back?')).toBe(true);
  });

  it("reads a question about the speaker's own facts as asking, unless it also tells something", () => {
    // Asked of an assistant that remembers: "Do I like sushi?" is no fact that the user likes sushi.
    for (const question of [
      'Do I like sushi?',
      'Am I free on Thursday?',
      'What am I allergic to?',
      'Where did we park last time?',
      'Which gym do I go to?',
      'What is my sister called?',
      "Where's my blue scarf?",
      'What color was my first car?',
      'When are our tickets for?',
      'How old were we then?',
      // A question within one, asked of the listener's memory, to its end.
      'Can you remind me what I said about my flat?',
      'Could you tell me again where my passport is?',
      'Do you remember when my lease ends?',
      'Do you know if my parcel came?',
      'Which hotel did I say I booked for my trip?',
      'What have we decided about our budget?',
      'Can you recall which dentist my kids see?',
      'Do you know whether our flight is delayed?',
      'Where did I mention my spare key was?',
      'How did I tell you my week went?',
    ]) {
      expect(questionCarriesFact(question), question).toBe(false);
    }
    for (const question of [
      'Do you remember my cousin Ilse, the potter?',
      'Am I wrong to sell my old piano?',
      'Did I tell you I took up rowing?',
      'Do you remember my cousin, who lives in Ghent?',
    ]) {
      expect(questionCarriesFact(question), question).toBe(true);
    }
  });

  it("finds a label announcing the news, but not a label of one's own or one with nothing after it", () => {
    const label = (text: string) => text.slice(0, labelEnd(text));
    expect(label('garden update: we planted three plum trees.')).toBe('garden update: ');
    expect(label('Fun fact - I can whistle in two tones.')).toBe('Fun fact - ');
    expect(label('My favourite change: the longer evenings.')).toBe('');
    expect(label('Big news: engaged!')).toBe('');
  });

  it('reads a request to the one listening as asking, unless it also tells something', () => {
    for (const question of [
      'Can you suggest me a few quick lunches?',
      'Could you send us the packing list again?',
      'Would you please find me a cheap flight?',
    ]) {
      expect(questionCarriesFact(question), question).toBe(false);
    }
    expect(questionCarriesFact('Could you help me plan my move to Utrecht?')).toBe(true);
  });

  it('finds the statement that opens a question, and leaves a question that only asks', () => {
    const lead = (sentence: string) => {
      const end = statementLeadEnd(sentence);
      return end === null ? null : sentence.slice(0, end);
    };
    expect(lead("I'm 51 so is that too old to start bouldering?")).toBe("I'm 51");
    expect(lead('We just adopted a kitten called Fig, what should we feed her?')).toBe('We just adopted a kitten called Fig');
    expect(lead('My knee hurts after long runs, should I see a physio?')).toBe('My knee hurts after long runs');
    expect(lead('I went to the Ghent museum yesterday - have you been?')).toBe('I went to the Ghent museum yesterday');
    expect(lead('So I finally booked the flights to Oslo, any tips for packing?')).toBe('So I finally booked the flights to Oslo');
    // A question that only asks, one that asks about the speaker, a lead that only frames the asking.
    for (const sentence of [
      'What should I cook tonight?',
      'Do you think I should go?',
      'I know what you mean?',
      'I was wondering, could you help me plan a trip?',
      "I'm not sure, should I take the job?",
      "I've got a quick question, what is a mortgage?",
      "I'd like some advice, how do I fix a tap?",
      'I think so, do you?',
      'Ana fixed the gate, what do you think?',
      'I moved to Ghent.',
    ])
      expect(lead(sentence), sentence).toBeNull();
  });

  it('finds a question tagged onto a statement, and only that', () => {
    const tagged = 'I opened my own bike shop - pretty cool, huh?';
    expect(tagged.slice(0, tagQuestionStart(tagged)!)).toBe('I opened my own bike shop - pretty cool');
    const doesnt = 'Rain does ruin our picnics, doesn’t it?';
    expect(doesnt.slice(0, tagQuestionStart(doesnt)!)).toBe('Rain does ruin our picnics');
    expect(tagQuestionStart('We should go together sometime, don’t you think?')).not.toBeNull();
    expect(tagQuestionStart('Have you seen my new puppy, Rex?')).toBeNull();
    expect(tagQuestionStart('Is that right?')).toBeNull();
  });

  it('sets aside a request to keep what follows, when a clause about the speaker or a named person follows', () => {
    expect(content("Remember that I'm allergic to sesame.")).toBe("I'm allergic to sesame.");
    expect(content('Please note: my flat is 4B.')).toBe('my flat is 4B.');
    expect(content('FYI I moved to Ghent in March.')).toBe('I moved to Ghent in March.');
    expect(content('Hey, I want you to remember that Ilse is my cousin.')).toBe('Ilse is my cousin.');
    expect(content('Remind me that the plumber is coming on Friday.')).toBe('the plumber is coming on Friday.');
    // Nothing told about the speaker or a person: the words stay.
    expect(keepRequestEnd('Remember that time we got lost in Porto?')).toBe(0);
    expect(keepRequestEnd("Don't forget your umbrella.")).toBe(0);
    expect(keepRequestEnd('Remind me to call the bank.')).toBe(0);
    expect(keepRequestEnd('Remember, I.')).toBe(0);
  });

  it('reads a question that only asks to keep what it says as no question', () => {
    expect(asksToKeep('Can you remember that I take the 8:15 train?')).toBe(true);
    expect(asksToKeep('Oh, could you please note that my flat is 4B?')).toBe(true);
    expect(asksToKeep('Can you remember what my flat number is?')).toBe(false);
    expect(asksToKeep('Remember that I take the 8:15 train?')).toBe(false);
  });

  it('reads "I\'m here for you" as talk', () => {
    expect(isChitChat(content("I'm always here for you."))).toBe(true);
    expect(isChitChat(content("I've got your back, whatever happens."))).toBe(true);
    expect(isChitChat(content("I'm there for my nieces every weekend."))).toBe(false);
  });
});
