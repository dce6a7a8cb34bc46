/**
 * @engram/client: the typed HTTP client of Engram, per-user long-term memory for AI apps.
 * No runtime dependencies: it needs only fetch, AbortController and Blob.
 */
export { DEFAULT_BASE_URL, Engram } from './client.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EngramError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnreadableError,
  UnsupportedMediaTypeError,
  UsagePausedError,
} from './errors.js';
export type { ClientOptions, Fetch, Logger, RequestOptions, SaveOptions, WaitOptions } from './options.js';
export type { PageBody } from './page.js';
export { Page, PagePromise } from './page.js';
export type {
  AskParams,
  BriefingParams,
  BriefParams,
  ContextParams,
  EpisodesParams,
  FileDeleteByPrefixParams,
  FileListParams,
  FileWriteParams,
  GraphParams,
  IntentionListParams,
  IntentionUpdateParams,
  KeyCreateParams,
  LessonsParams,
  MemoryAddParams,
  MemoryBatchParams,
  MemoryCorrectParams,
  MemoryListParams,
  MemoryUploadParams,
  NowParams,
  ProfileParams,
  SearchParams,
  SourceGetParams,
  SourceListParams,
  SourceWaitParams,
  SpaceListParams,
  SpaceParams,
} from './params.js';
export type { FileDeleteByPrefixResponse, FileDeleteResponse, FilesPage } from './resources/files.js';
export { Files } from './resources/files.js';
export { Intentions } from './resources/intentions.js';
export { Keys } from './resources/keys.js';
export type { MemoriesPage } from './resources/memories.js';
export { Memories } from './resources/memories.js';
export type { MemoryHealth } from './resources/memory-health.js';
export type { SourcesPage } from './resources/sources.js';
export { Sources } from './resources/sources.js';
export type { SpacesPage } from './resources/spaces.js';
export { Spaces } from './resources/spaces.js';
export type { Uploadable } from './uploadable.js';

/** This package's version. */
export const CLIENT_VERSION = '0.1.0';
