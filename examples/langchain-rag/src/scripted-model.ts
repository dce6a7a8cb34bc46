import { SimpleChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';

/**
 * A chat model that needs no network, for running the example offline and testing it: it answers
 * with the first remembered line of its system message, or thanks the user when there is none.
 * `prompts` holds every list of messages it was given.
 */
export class ScriptedChatModel extends SimpleChatModel {
  readonly prompts: BaseMessage[][] = [];

  _llmType() {
    return 'scripted';
  }

  async _call(messages: BaseMessage[]): Promise<string> {
    this.prompts.push(messages);
    const remembered = messages
      .filter((message) => message.type === 'system')
      .flatMap((message) => message.text.split('\n'))
      .find((line) => line.startsWith('- '));
    return remembered ? `From what I remember: ${remembered.slice(2)}` : 'Thanks, I will keep that in mind.';
  }
}
