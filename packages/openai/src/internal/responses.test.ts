import { describe, expect, it } from 'vitest';
import type { ResponsesBodyLike } from './responses.js';
import { eventCollector, lastUserText, newTurnText, replyOfResponse, withInstructions } from './responses.js';

describe('Responses helpers', () => {
  it("reads the user's words from a string input or the last user message item", () => {
    expect(newTurnText({ input: 'Hello there' })).toBe('Hello there');
    expect(newTurnText({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }, { type: 'input_image' }] }] })).toBe('Hi');
    const continued = {
      input: [
        { role: 'user', content: 'Weather?' },
        { type: 'function_call_output', content: undefined },
      ],
    };
    expect(newTurnText(continued)).toBe('');
    expect(lastUserText(continued)).toBe('Weather?');
  });

  it("puts the block after the app's instructions", () => {
    expect(withInstructions({ input: 'x', instructions: 'Be brief.' }, 'MEMORY').instructions).toBe('Be brief.\n\nMEMORY');
    expect(withInstructions<ResponsesBodyLike>({ input: 'x' }, 'MEMORY').instructions).toBe('MEMORY');
  });

  it('ends a turn on a completed reply, not on a call of a function', () => {
    const message = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] };
    expect(replyOfResponse({ status: 'completed', output: [message] })).toEqual({ text: 'Sunny.', endsTurn: true });
    expect(replyOfResponse({ status: 'completed', output: [{ type: 'function_call' }] }).endsTurn).toBe(false);
    expect(replyOfResponse({ status: 'incomplete', output: [message] }).endsTurn).toBe(false);
  });

  it("puts a streamed reply together, and takes the completed response's word for it", () => {
    const collector = eventCollector();
    collector.add({ type: 'response.output_text.delta', delta: 'Sun' });
    expect(collector.result()).toEqual({ text: 'Sun', endsTurn: false });
    collector.add({ type: 'response.output_text.delta', delta: 'ny.' });
    collector.add({ type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [] } });
    expect(collector.result()).toEqual({ text: 'Sunny.', endsTurn: true, id: 'resp_1' });
  });
});
