import type { Engram } from '@engram/client';
import { EngramChatMessageHistory, EngramRetriever } from '@engram/langchain';
import type { DocumentInterface } from '@langchain/core/documents';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence, RunnableWithMessageHistory } from '@langchain/core/runnables';

const prompt = ChatPromptTemplate.fromMessages([
  [
    'system',
    'You are a friendly assistant. Keep answers short.\n' +
      'What you remember about this user:\n{memories}\n' +
      'Answer from these memories; when they say nothing about the question, say you do not know.',
  ],
  new MessagesPlaceholder('history'),
  ['human', '{question}'],
]);

/** The retrieved memories as prompt lines, each with its date. */
const asLines = (documents: DocumentInterface[]) =>
  documents.length ? documents.map((document) => `- ${document.pageContent} (${document.metadata.date})`).join('\n') : '(nothing yet)';

/**
 * A chain answering one user from their own Engram memories: the retriever finds what bears on
 * the question, the model answers, and the turn goes into the session's history in Engram (which
 * also saves it for Engram to learn from, so the next question can find it).
 * `client` is that user's client (`engram.forSpace(userId)`); invoke with
 * `{ question }` and `{ configurable: { sessionId } }`.
 */
export function createRagChain({ client, model, userName }: { client: Engram; model: BaseChatModel; userName?: string }) {
  const retriever = new EngramRetriever({ client, k: 5 });
  const answer = RunnableSequence.from([
    RunnablePassthrough.assign({ memories: async (input: { question: string }) => asLines(await retriever.invoke(input.question)) }),
    prompt,
    model,
    new StringOutputParser(),
  ]);
  return new RunnableWithMessageHistory({
    runnable: answer,
    getMessageHistory: (sessionId: string) =>
      new EngramChatMessageHistory({ client, sessionId, ...(userName ? { names: { human: userName } } : {}) }),
    inputMessagesKey: 'question',
    historyMessagesKey: 'history',
  });
}
