import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { standingInstruction } from './instructions.js';

/** Where the instruction in `text` starts, or null (the whole text is the content). */
const at = (text: string): number | null => standingInstruction(text, tokenize(text), 0);

describe('standingInstruction', () => {
  it('takes a command that says it holds from now on', () => {
    expect(at('Always show prices in euros.')).toBe(0);
    expect(at('Never suggest recipes with pork.')).toBe(0);
    expect(at('From now on, reply in British English.')).toBe(0);
    expect(at('Give me the short version from now on.')).toBe(0);
    expect(at('Whenever I mention my mother, be gentle.')).toBe(0);
    expect(at('When I ask about code, use TypeScript examples.')).toBe(0);
    expect(at('Stop recommending podcasts to me.')).toBe(0);
    expect(at("Don't ever use my nickname again.")).toBe(0);
  });

  it('takes a command about the replies themselves', () => {
    expect(at('Keep your answers under 100 words.')).toBe(0);
    expect(at("Don't use emojis in your replies.")).toBe(0);
    expect(at('Talk to me like a friend, not a doctor.')).toBe(0);
    expect(at('Answer in Spanish.')).toBe(0);
  });

  it('starts the instruction after "please" and the like', () => {
    expect(at('Please always answer in Spanish.')).toBe('Please '.length);
    expect(at('And please, from now on, reply in French.')).toBe('And please, '.length);
  });

  it('leaves out one-off requests, talk, and what is not a command', () => {
    expect(at('Tell me a joke.')).toBeNull();
    expect(at('Summarise this article for me.')).toBeNull();
    expect(at('Remind me to call the bank.')).toBeNull();
    expect(at("Don't forget your umbrella.")).toBeNull();
    expect(at('Call me when you land.')).toBeNull();
    expect(at('When you get there, text me.')).toBeNull();
    expect(at('Never mind.')).toBeNull();
    expect(at("Don't worry about it.")).toBeNull();
    expect(at('Stop it.')).toBeNull();
    expect(at('I always walk to work.')).toBeNull();
    expect(at('Your answers were great yesterday.')).toBeNull();
  });
});
