export { factFingerprint } from './fingerprint.js';
export { learnFromMessages, learnFromText } from './learn.js';
export { readMessages } from './read-messages.js';
export type { LearnedFact, LearnOptions, MemoryKind, MessageInput, ReadMessage } from './types.js';
