import { describe, expect, it } from 'vitest';
import type { Tense } from './dates.js';
import { resolveDates } from './dates.js';
import { applyEdits } from './edit.js';

// A Sunday.
const reference = new Date('2026-11-22T15:00:00Z');
const resolve = (sentence: string, tense: Tense): string => applyEdits(sentence, resolveDates(sentence, reference, tense).edits);

describe('resolveDates', () => {
  it.each([
    ['I went there yesterday.', 'past', 'I went there on 21 November 2026.'],
    ['I was busy last week.', 'past', 'I was busy in the week of 9 November 2026.'],
    ["I'm going to Paris next month.", 'future', "I'm going to Paris in December 2026."],
    ["I'm going to Paris in March.", 'future', "I'm going to Paris in March 2027."],
    ['I painted that last year!', 'past', 'I painted that in 2025!'],
    ["I'm seeing her on Friday.", 'present', "I'm seeing her on Friday 27 November 2026."],
    ['I met him two days ago.', 'past', 'I met him on 20 November 2026.'],
    ["I'll call tomorrow.", 'future', "I'll call on 23 November 2026."],
  ] as const)('makes "%s" absolute', (sentence, tense, expected) => {
    expect(resolve(sentence, tense)).toBe(expected);
  });

  it('points a bare month or weekday back in a past-tense sentence', () => {
    expect(resolve('I went to Paris in March.', 'past')).toBe('I went to Paris in March 2026.');
    expect(resolve('I saw her on Friday.', 'past')).toBe('I saw her on Friday 20 November 2026.');
    // The weekday it was said on is "today": said on a Sunday, "on Sunday" in the past is the one before.
    expect(resolve('I saw her on Sunday.', 'past')).toBe('I saw her on Sunday 15 November 2026.');
    expect(resolve('I see her on Sunday.', 'present')).toBe('I see her on Sunday 29 November 2026.');
  });

  it('leaves dates that carry their own year as they are', () => {
    expect(resolve('We met on 8 May 2023.', 'past')).toBe('We met on 8 May 2023.');
    expect(resolveDates('We met on 8 May 2023.', reference, 'past').days).toEqual([new Date('2023-05-08T00:00:00Z')]);
  });

  it('never turns ordinary words, times, durations or habits into dates', () => {
    for (const sentence of [
      'I may go.',
      'June said hi.',
      'Sun is out.',
      'We met at 3pm.',
      'I go every Monday.',
      'We play chess on Thursday evenings.',
      'I swim on Monday mornings before work.',
      'I stayed for two weeks.',
      'Right now I am busy.',
    ]) {
      expect(resolve(sentence, 'present')).toBe(sentence);
    }
    // A span after "after" counts from something the sentence tells, not from when it was said.
    for (const [sentence, tense] of [
      ['It still feels odd after four years.', 'present'],
      ['We settled in Ghent after a couple of months of looking.', 'past'],
      ['I gave up after 10 days.', 'past'],
    ] as const) {
      expect(resolve(sentence, tense), sentence).toBe(sentence);
    }
    expect(resolve('We leave after Friday.', 'future')).toBe('We leave after Friday 27 November 2026.');
  });

  it('writes weekends, parts of days, vague spans and kept prepositions plainly', () => {
    expect(resolve('I went camping last weekend.', 'past')).toBe('I went camping on the weekend of 14 November 2026.');
    expect(resolve('We went camping over the weekend.', 'past')).toBe('We went camping on the weekend of 21 November 2026.');
    // Told in the past on a weekday, "over the weekend" and "this weekend" are the weekend before; ahead, the one to come.
    const friday = new Date('2026-11-20T15:00:00Z');
    const onFriday = (sentence: string, tense: Tense) => applyEdits(sentence, resolveDates(sentence, friday, tense).edits);
    expect(onFriday('We went sailing over the weekend.', 'past')).toBe('We went sailing on the weekend of 14 November 2026.');
    expect(onFriday('I painted the shed this weekend.', 'past')).toBe('I painted the shed on the weekend of 14 November 2026.');
    expect(onFriday('We are sailing over the weekend.', 'present')).toBe('We are sailing on the weekend of 21 November 2026.');
    // "two weekends ago" counts back from the last weekend over (said on a Sunday: not this one).
    expect(resolve('We hiked the ridge two weekends ago.', 'past')).toBe('We hiked the ridge on the weekend of 7 November 2026.');
    expect(onFriday('Two weekends ago I repainted the gate.', 'past')).toBe('On the weekend of 7 November 2026 I repainted the gate.');
    // A part of a day after an article or a possessive is a thing had; words after it may still place it.
    expect(resolve('We had an awesome night.', 'past')).toBe('We had an awesome night.');
    expect(resolve('We had a lovely evening at the lake.', 'past')).toBe('We had a lovely evening at the lake.');
    expect(resolve('We had a great night yesterday.', 'past')).toBe('We had a great night on 21 November 2026.');
    expect(onFriday('I had a long morning on Tuesday.', 'past')).toBe('I had a long morning on Tuesday 17 November 2026.');
    // "Tomorrow's going to be…" is "Tomorrow is…"; "Yesterday's party" stays a possessive.
    expect(resolve("Tomorrow's going to be a long day.", 'future')).toBe('23 November 2026 is going to be a long day.');
    expect(resolve("Yesterday's been rough.", 'past')).toBe('21 November 2026 has been rough.');
    expect(resolve("Yesterday's party was loud.", 'past')).toBe("21 November 2026's party was loud.");
    // "for" a day names the day booked or bought for, ahead whatever the tense; "for three days" is a span.
    expect(resolve('I booked flights for the 3rd of March.', 'past')).toBe('I booked flights for 3 March 2027.');
    expect(resolve('I got a cake for Friday.', 'past')).toBe('I got a cake for Friday 27 November 2026.');
    expect(resolve('I have been sick for three days.', 'present')).toBe('I have been sick for three days.');
    // A comma chrono takes in after the date stays in the sentence.
    expect(resolve('My aunt is visiting over the weekend, she lives in Ghent.', 'present')).toBe(
      'My aunt is visiting on the weekend of 21 November 2026, she lives in Ghent.',
    );
    // A time of day said with the day stays with it; a count after a comma is no day of the month.
    expect(resolve('The recital is on Friday at 7pm.', 'present')).toBe('The recital is on Friday 27 November 2026 at 7pm.');
    expect(resolve('Lunch is tomorrow at noon.', 'present')).toBe('Lunch is on 23 November 2026 at noon.');
    expect(resolve("I'm hosting the dinner this year, 14 guests.", 'present')).toBe("I'm hosting the dinner in 2026, 14 guests.");
    // A weekend with no "the", "last" or "this" is no weekend in particular.
    expect(resolve('I had a quiet weekend.', 'past')).toBe('I had a quiet weekend.');
    expect(resolve('I ran this morning.', 'past')).toBe('I ran on the morning of 22 November 2026.');
    expect(resolve('We argued last night.', 'past')).toBe('We argued on the night of 21 November 2026.');
    expect(resolve('I am cooking tonight.', 'present')).toBe('I am cooking on the night of 22 November 2026.');
    expect(resolve('I met Ilse in the evening.', 'past')).toBe('I met Ilse on the evening of 22 November 2026.');
    // Said in the present tense, a part of the day that a word ties to a day is still a date.
    for (const [sentence, written] of [
      ['I am sore this morning.', 'I am sore on the morning of 22 November 2026.'],
      ['I am sore from yesterday evening.', 'I am sore from the evening of 21 November 2026.'],
      ['I am sore from last night.', 'I am sore from the night of 21 November 2026.'],
      ['I am free tomorrow afternoon.', 'I am free on the afternoon of 23 November 2026.'],
    ] as const) {
      expect(resolve(sentence, 'present'), sentence).toBe(written);
    }
    // A part of the day tied to no day is a habit: no date is added.
    for (const [sentence, tense] of [
      ['I swim first thing in the morning.', 'present'],
      ['I like to read in the evening.', 'present'],
      ['We walked the dog every evening.', 'past'],
    ] as const) {
      expect(resolve(sentence, tense), sentence).toBe(sentence);
    }
    expect(resolve('I saw him a few days ago.', 'past')).toBe('I saw him a few days before 22 November 2026.');
    expect(resolve('Finish it by Friday.', 'future')).toBe('Finish it by Friday 27 November 2026.');
    expect(resolve('Yesterday I went hiking.', 'past')).toBe('On 21 November 2026 I went hiking.');
    expect(resolve('It happened earlier this month.', 'past')).toBe('It happened earlier in November 2026.');
  });

  it('reads a day of the month, seasons and "this past weekend", which chrono leaves alone', () => {
    expect(resolve('I met them on the 15th after my trip.', 'past')).toBe('I met them on 15 November 2026 after my trip.');
    expect(resolve('I fly out on the 3rd.', 'future')).toBe('I fly out on 3 December 2026.');
    expect(resolve('Last summer I went to Japan.', 'past')).toBe('In summer 2026 I went to Japan.');
    expect(resolve('I skied last winter.', 'past')).toBe('I skied in the winter of 2025–2026.');
    expect(resolve('That trip this past weekend was fun.', 'past')).toBe('That trip on the weekend of 14 November 2026 was fun.');
  });

  it('writes a date that is the subject or a possessive bare, and leaves names and narrative days alone', () => {
    expect(resolve('Yesterday was crazy.', 'past')).toBe('21 November 2026 was crazy.');
    expect(resolve("Last year's trip was fun.", 'past')).toBe("2025's trip was fun.");
    expect(resolve('I went to the March for Science.', 'past')).toBe('I went to the March for Science.');
    expect(resolve('We left and came back the next day.', 'past')).toBe('We left and came back the next day.');
  });

  it('reads counts chrono leaves out: fortnights, a unit two away, "back" for "ago", "the other day"', () => {
    expect(resolve('I started the job the week before last.', 'past')).toBe('I started the job in the week of 2 November 2026.');
    expect(resolve('The month before last I changed teams.', 'past')).toBe('In September 2026 I changed teams.');
    expect(resolve('We move the year after next.', 'future')).toBe('We move in 2028.');
    expect(resolve('We got back a fortnight ago.', 'past')).toBe('We got back in the week of 2 November 2026.');
    expect(resolve('We fly out in a fortnight.', 'future')).toBe('We fly out in the week of 30 November 2026.');
    expect(resolve('I had the flu a couple of weeks back.', 'past')).toBe('I had the flu a couple of weeks before 22 November 2026.');
    expect(resolve('I ran into Vera the other day.', 'past')).toBe('I ran into Vera a few days before 22 November 2026.');
    expect(resolve('We chatted the other night.', 'past')).toBe('We chatted a few days before 22 November 2026.');
    // "back" alone is no count: "I came back on Friday" keeps chrono's reading of the day.
    expect(resolve('I came back on Friday.', 'past')).toBe('I came back on Friday 20 November 2026.');
  });

  it('counts weekends back and weeks on from a day', () => {
    expect(resolve('I was in Berlin the weekend before last.', 'past')).toBe('I was in Berlin on the weekend of 7 November 2026.');
    expect(resolve('We went camping a few weekends ago.', 'past')).toBe('We went camping a few weekends before 22 November 2026.');
    expect(resolve('I start a week on Monday.', 'present')).toBe('I start on Monday 30 November 2026.');
    expect(resolve('A week from Friday is my last day.', 'present')).toBe('Friday 4 December 2026 is my last day.');
    expect(resolve('The results come two weeks from today.', 'present')).toBe('The results come on 6 December 2026.');
  });

  it('reads the end of a habit, the end of a named month, and "years ago today"', () => {
    expect(resolve('I coached the team, every Saturday until March.', 'past')).toBe('I coached the team, every Saturday until March 2026.');
    expect(resolve('My lease ends at the end of January.', 'present')).toBe('My lease ends on 31 January 2027.');
    expect(resolve('We had our first date five years ago today.', 'past')).toBe('We had our first date on 22 November 2021.');
    expect(resolve('Grandpa died three years ago this month.', 'past')).toBe('Grandpa died in November 2023.');
  });

  it('places a month by the year said after it', () => {
    expect(resolve('I ran a marathon in May last year.', 'past')).toBe('I ran a marathon in May 2025.');
    expect(resolve('I signed up for a marathon in April next year.', 'past')).toBe('I signed up for a marathon in April 2027.');
  });

  it('places a bare season by the tense, and leaves a habit alone', () => {
    expect(resolve('We got engaged over the summer.', 'past')).toBe('We got engaged over summer 2026.');
    expect(resolve('The pipes froze through the winter.', 'past')).toBe('The pipes froze through the winter of 2025–2026.');
    expect(resolve('We will paint the house in the spring.', 'future')).toBe('We will paint the house in spring 2027.');
    expect(resolve('I want to lose 5 kg by summer.', 'present')).toBe('I want to lose 5 kg by summer 2027.');
    expect(resolve('I swim in the summer.', 'present')).toBe('I swim in the summer.');
    expect(resolve('I am inspired by autumn.', 'present')).toBe('I am inspired by autumn.');
    expect(resolve('I worked at the summer camp.', 'past')).toBe('I worked at the summer camp.');
    expect(resolve('We met during the summer holidays.', 'past')).toBe('We met during the summer holidays.');
  });

  it('places a holiday by the words before it or the tense, and leaves a habit alone', () => {
    expect(resolve("I haven't seen my brother since Christmas.", 'present')).toBe("I haven't seen my brother since Christmas 2025.");
    expect(resolve('Last Halloween we carved turnips.', 'past')).toBe('At Halloween 2026 we carved turnips.');
    expect(resolve("We spent New Year's Eve in Edinburgh.", 'past')).toBe("We spent New Year's Eve 2025 in Edinburgh.");
    expect(resolve("We'll spend New Year's Eve in Edinburgh.", 'future')).toBe("We'll spend New Year's Eve 2026 in Edinburgh.");
    expect(resolve('I love Halloween.', 'present')).toBe('I love Halloween.');
    // A holiday describing a thing is no time.
    expect(resolve('We put up the Christmas tree on Sunday.', 'past')).toBe('We put up the Christmas tree on Sunday 15 November 2026.');
    expect(resolve('I bought Halloween costumes.', 'past')).toBe('I bought Halloween costumes.');
  });

  it('keeps "at" before a time of day chrono took with the day', () => {
    expect(resolve('Our flight leaves at 7am the day after tomorrow.', 'present')).toBe('Our flight leaves on 24 November 2026 at 7am.');
  });

  it('writes the early part of the month or year it was said in for "the start of the month"', () => {
    expect(resolve('I had my first lesson at the start of the month.', 'past')).toBe('I had my first lesson in early November 2026.');
    expect(resolve('Since the beginning of the year I have read 30 books.', 'present')).toBe('Since early 2026 I have read 30 books.');
  });

  it('takes "this coming" into the day it names, which lies ahead', () => {
    expect(resolve("I'm flying to Denver this coming Friday.", 'future')).toBe("I'm flying to Denver on Friday 27 November 2026.");
    expect(resolve('I told them I start this coming Monday.', 'past')).toBe('I told them I start on Monday 23 November 2026.');
  });

  it('adds no preposition to a month already placed, nor to the second day of a pair', () => {
    expect(resolve('The baby is due in late January.', 'present')).toBe('The baby is due in late January 2027.');
    expect(resolve('Mid-December I am heading to Vienna.', 'present')).toBe('Mid-December 2026 I am heading to Vienna.');
    expect(resolve('The plumber comes between Thursday and Friday.', 'present')).toBe(
      'The plumber comes between Thursday 26 November 2026 and Friday 27 November 2026.',
    );
  });

  it('keeps the preposition before a date that owns a noun', () => {
    expect(resolve("We met at yesterday's market.", 'past')).toBe("We met at 21 November 2026's market.");
    expect(resolve("I had a migraine during last night's storm.", 'past')).toBe(
      "I had a migraine during the night of 21 November 2026's storm.",
    );
  });

  it('leaves "my last day" and "for a week" alone: a final day and a span, not dates', () => {
    expect(resolve('Friday is my last day.', 'present')).toBe('Friday 27 November 2026 is my last day.');
    expect(resolve('I will be off for a week starting Monday.', 'future')).toBe(
      'I will be off for a week starting on Monday 23 November 2026.',
    );
  });

  it('puts a day that something is moved to, or booked for, ahead of the day it was said', () => {
    expect(resolve('My dentist appointment moved to the 12th.', 'past')).toBe('My dentist appointment moved to 12 December 2026.');
    expect(resolve('The viewing was pushed back to Thursday.', 'past')).toBe('The viewing was pushed back to Thursday 26 November 2026.');
    expect(resolve('My lesson got moved from Tuesday to Thursday.', 'past')).toBe(
      'My lesson got moved from Tuesday 24 November 2026 to Thursday 26 November 2026.',
    );
    // Without a verb of moving, "to" a day keeps the sentence's direction.
    expect(resolve('I worked from Monday to Thursday.', 'past')).toBe(
      'I worked from Monday 16 November 2026 to Thursday 19 November 2026.',
    );
    // The end of a span of days is the first such day from its start.
    expect(resolve('We are away from Friday to Monday.', 'present')).toBe(
      'We are away from Friday 27 November 2026 to Monday 30 November 2026.',
    );
    expect(resolve('We booked the cabin for the 12th through the 15th.', 'past')).toBe(
      'We booked the cabin for 12 December 2026 through 15 December 2026.',
    );
    expect(resolve('We were away from the 28th to the 3rd.', 'past')).toBe('We were away from 28 October 2026 to 3 November 2026.');
  });

  it('leaves a capitalised name that holds a word of time alone ("The Night Ferries", "Morning Glory Cafe")', () => {
    expect(resolve('Sad news, The Night Ferries broke up.', 'past')).toBe('Sad news, The Night Ferries broke up.');
    expect(resolve('We met at Morning Glory Cafe.', 'past')).toBe('We met at Morning Glory Cafe.');
    expect(resolve('She works on the Tonight Show now.', 'present')).toBe('She works on the Tonight Show now.');
    expect(resolve('We had dinner at Saturday Club.', 'past')).toBe('We had dinner at Saturday Club.');
    expect(resolve('We binged Friday Night Lights.', 'past')).toBe('We binged Friday Night Lights.');
  });

  it('still reads the words of time that open a sentence, follow a weekday, or are not capitalised', () => {
    expect(resolve('Tonight we fly to Oslo.', 'future')).toBe('On the night of 22 November 2026 we fly to Oslo.');
    expect(resolve('We met on Monday Morning at the cafe.', 'past')).toBe('We met on the morning of Monday 16 November 2026 at the cafe.');
    expect(resolve('We met at the cafe on Saturday.', 'past')).toBe('We met at the cafe on Saturday 21 November 2026.');
    expect(resolve('SEE YOU TOMORROW NIGHT.', 'future')).not.toBe('SEE YOU TOMORROW NIGHT.');
  });

  it('places a weekday with a part of the day by the tense, as the weekday alone', () => {
    expect(resolve('I saw her on Friday night.', 'past')).toBe('I saw her on the night of Friday 20 November 2026.');
    expect(resolve("I'm seeing her on Friday night.", 'present')).toBe("I'm seeing her on the night of Friday 27 November 2026.");
    expect(resolve('We spoke on Tuesday afternoon.', 'past')).toBe('We spoke on the afternoon of Tuesday 17 November 2026.');
    expect(resolve('We fly on Tuesday afternoon.', 'future')).toBe('We fly on the afternoon of Tuesday 24 November 2026.');
  });

  it('writes the day of a yearly thing without a year, and names no day ahead by it', () => {
    expect(resolve('My birthday is March 14.', 'present')).toBe('My birthday is on 14 March.');
    expect(resolve('Our anniversary is on the 3rd of May.', 'present')).toBe('Our anniversary is on 3 May.');
    expect(resolveDates('My birthday is March 14.', reference, 'present').days).toEqual([]);
    // One birthday, had on a day, keeps its year.
    expect(resolve('We celebrated my birthday on March 14.', 'past')).toBe('We celebrated my birthday on 14 March 2026.');
  });

  it('reports the days spoken of, for telling plans from the past', () => {
    expect(resolveDates("I'm going to Paris next month.", reference, 'future').days).toEqual([new Date('2026-12-01T00:00:00Z')]);
  });
});
