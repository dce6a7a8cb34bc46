/**
 * @engram/client: the typed HTTP client of Engram, per-user long-term memory for AI apps.
 * No runtime dependencies: it needs only fetch, AbortController and Blob.
 */
export { Engram, DEFAULT_BASE_URL } from './client.js';
export {
  EngramError,
  APIError,
  BadRequestError,
  AuthenticationError,
  UsagePausedError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  UnreadableError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
} from './errors.js';
export { Page, PagePromise } from './page.js';
export type { PageBody } from './page.js';
export type { ClientOptions, RequestOptions, SaveOptions, WaitOptions, Logger, Fetch } from './options.js';
export type { Uploadable } from './uploadable.js';
export type {
  SpaceParams,
  MemoryAddParams,
  MemoryListParams,
  MemoryBatchParams,
  MemoryCorrectParams,
  MemoryUploadParams,
  FileWriteParams,
  FileListParams,
  FileDeleteByPrefixParams,
  SourceListParams,
  SourceGetParams,
  SourceWaitParams,
  ContextParams,
  AskParams,
  SearchParams,
  BriefingParams,
  NowParams,
  EpisodesParams,
  LessonsParams,
  IntentionListParams,
  IntentionUpdateParams,
  ProfileParams,
  BriefParams,
  KeyCreateParams,
  SpaceListParams,
} from './params.js';
export { Memories } from './resources/memories.js';
export type { MemoriesPage } from './resources/memories.js';
export { Files } from './resources/files.js';
export type { FilesPage, FileDeleteResponse, FileDeleteByPrefixResponse } from './resources/files.js';
export { Sources } from './resources/sources.js';
export type { SourcesPage } from './resources/sources.js';
export { Intentions } from './resources/intentions.js';
export { Keys } from './resources/keys.js';
export { Spaces } from './resources/spaces.js';
export type { SpacesPage } from './resources/spaces.js';
export type { MemoryHealth } from './resources/memory-health.js';

/** This package's version. */
export const CLIENT_VERSION = '0.1.0';
