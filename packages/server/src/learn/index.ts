export { readMessages } from '../text/messages.js';
export { factFingerprint } from './fingerprint.js';
export { learnFromMessages, learnFromText } from './learn.js';
export type { LearnedFact, LearnOptions, MemoryKind, MessageInput, ReadMessage } from './types.js';
