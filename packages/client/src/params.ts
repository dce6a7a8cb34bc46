import type {
  AddMemoryRequest,
  AskRequest,
  BriefingRequest,
  BriefQuery,
  ContextRequest,
  CorrectMemoryRequest,
  CreateKeyRequest,
  EpisodesQuery,
  GetSourceQuery,
  GraphQuery,
  IntentionsQuery,
  KindFilter,
  Labels,
  LessonsQuery,
  ListSourcesQuery,
  NowQuery,
  ProfileQuery,
  SearchRequest,
  SpaceQuery,
  UpdateIntentionRequest,
} from '@engram/protocol';
import type { Uploadable } from './uploadable.js';

/** The protocol's request type with its query-coerced fields typed as the numbers they are. */
type WithNumbers<T, Keys extends keyof T> = Omit<T, Keys> & { [Key in Keys]?: number };

/** Naming a space for one call (must agree with the client's space when both are set). */
export type SpaceParams = SpaceQuery;

/** `memories.add()`: one of `text`, `url` or `messages`, an optional `title` and `space`. */
export type MemoryAddParams = AddMemoryRequest;

/** `memories.list()`. */
export interface MemoryListParams {
  kind?: KindFilter;
  /** Memories a page, 1 to 200 (default 50). */
  limit?: number;
  /** Where to start (default 0); the iterator follows `next` by itself. */
  cursor?: number;
  space?: string;
}

/** `memories.batch()`: up to 100 saves, each may name its own space. */
export interface MemoryBatchParams {
  items: AddMemoryRequest[];
  /** The space of the items that name none. */
  space?: string;
}

/** `memories.correct()`: what is right. */
export type MemoryCorrectParams = CorrectMemoryRequest;

/** `memories.upload()`: a PDF or Word (.docx) file. */
export interface MemoryUploadParams {
  file: Uploadable;
  title?: string;
  /** The project the document belongs to, for briefings (up to 200 characters). */
  project?: string;
  space?: string;
  /** The file's name; taken from the path, File or stream when left out. */
  filename?: string;
  /** The media type; found from the name or the first bytes when left out. */
  contentType?: string;
}

/** `files.write()`. */
export interface FileWriteParams {
  /** Starts with "/", at most 255 characters. */
  path: string;
  /** Kept exactly as sent; may be empty. */
  text: string;
  /** Replace the file's labels (`{}` clears them); left out keeps them. */
  labels?: Labels;
  /** `false` keeps the text this write adds without learning it (an app's own record, such as a chat transcript). */
  learn?: boolean;
  /** The project the file belongs to, for briefings (up to 200 characters); left out keeps the old one. */
  project?: string;
  space?: string;
}

/** `files.list()`. */
export interface FileListParams {
  /** Files whose path starts with it; default "/" (every file). */
  prefix?: string;
  /** Files a page, 1 to 200 (default 100). */
  limit?: number;
  cursor?: number;
  space?: string;
}

/** `files.deleteByPrefix()`. */
export interface FileDeleteByPrefixParams {
  space?: string;
  /** Delete only the first 100 and return `more`, instead of calling again until none is left. */
  once?: boolean;
}

/** `sources.list()`. */
export type SourceListParams = WithNumbers<ListSourcesQuery, 'limit' | 'cursor'>;

/** `sources.get()`: `wait` holds the answer up to that many seconds (0 to 60) until learning ends. */
export type SourceGetParams = WithNumbers<GetSourceQuery, 'wait'>;

/** `sources.wait()`. */
export interface SourceWaitParams {
  /** Milliseconds to wait in all (default 120 000). */
  timeout?: number;
  space?: string;
}

/** `context()`. */
export type ContextParams = WithNumbers<ContextRequest, 'limit'>;

/** `ask()`. */
export type AskParams = AskRequest;

/** `search()`. */
export type SearchParams = WithNumbers<SearchRequest, 'limit'>;

/** `briefing()`. */
export type BriefingParams = WithNumbers<BriefingRequest, 'budget_chars'>;

/** `now()`. */
export type NowParams = NowQuery;

/** `episodes()`. */
export type EpisodesParams = WithNumbers<EpisodesQuery, 'limit'>;

/** `lessons()`. */
export type LessonsParams = WithNumbers<LessonsQuery, 'limit'>;

/** `intentions.list()`. */
export type IntentionListParams = WithNumbers<IntentionsQuery, 'limit'>;

/** `intentions.update()`: the new status (default done). */
export type IntentionUpdateParams = UpdateIntentionRequest;

/** `profile()`: `subject` left out means the owner. */
export type ProfileParams = ProfileQuery;

/** `graph()`: `limit` caps the nodes (most memories first). */
export type GraphParams = WithNumbers<GraphQuery, 'limit'>;

/** `brief()`. */
export type BriefParams = WithNumbers<BriefQuery, 'limit'>;

/** `keys.create()`: a key limited to one space (the client's, or `space`). */
export type KeyCreateParams = CreateKeyRequest;

/** `spaces.list()`. */
export interface SpaceListParams {
  limit?: number;
  cursor?: number;
}
