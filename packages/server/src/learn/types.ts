/** The four kinds a memory can have (SPEC.md: people, plan, pref, detail). */
export type MemoryKind = 'people' | 'plan' | 'pref' | 'detail';

/** What a name in a memory's `about` names. */
export type NameType = 'person' | 'place' | 'org' | 'thing';

export type { MessageInput, ReadMessage } from '../text/messages.js';

/** One fact learned from a source, with the sentence it came from. */
export interface LearnedFact {
  /** The fact in the service's own words: third person, absolute dates. */
  text: string;
  kind: MemoryKind;
  /** Names of people, places, organisations and things it mentions, normalised and deduplicated. */
  about: string[];
  /** YYYY-MM-DD (UTC): the day it was said or written. */
  date: string;
  /** The sentence it came from: offsets into that message's read text (or into the note text), end exclusive. */
  sentence: { text: string; messageIndex: number | null; start: number; end: number };
  /** The whole message the fact came from (conversations), indexed so its other words find it. */
  context?: string;
  /** The message before it in the conversation (often the question it answers), led by the opening of the one before that. */
  before?: string;
  /** Subject and attribute of a fact that can change ("omar|home"); a later fact with the same slot replaces it. */
  slot?: string | null;
  /**
   * What a speaker said of something other than themselves, written as theirs ("Omar said
   * it was so much fun."): a reaction or a remark, which tells less than what people say of
   * themselves; recall weighs it a little lower (see REPORTED_WEIGHT in recall/search.ts).
   */
  reported?: boolean;
  /** The id of a current memory this fact updates (said by the optional model; see model/). */
  replaces?: number;
  /** What each name of `about` names, in the same order (see learn/name-types.ts). */
  nameTypes?: NameType[];
  /** Whether the fact lasts (identity, relationships, stable likes, background) rather than holding for now (see learn/lasting.ts). */
  lasting?: boolean;
  /** Whether the fact speaks of the owner: the writer of a note, or the speaker of a user message without a name ("The user"). */
  owner?: boolean;
}

export interface LearnOptions {
  /** When the source was saved; relative dates resolve against a message's `at`, else this. */
  writtenAt: Date;
  /** Name to use for "I" in notes and in user messages that have no `name`; default "The user". */
  owner?: string | null;
  /**
   * The text is a note an app wrote about its owner (a saved note, not a page or a file): its
   * clipped sentences ("Prefers window seats", "User is vegan") are about the owner.
   */
  note?: boolean;
}

/** A replacement of text[start, end) by `text`, in the coordinates of the string it edits. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}
