import type { Config } from '../config.js';
import type { Model } from '../model/model-client.js';
import type { Db } from '../store/database.js';
import type { RequestLog } from './request-log.js';

/** Who is calling, as the auth middleware found it. */
export interface Caller {
  accountId: number;
  keyId: number;
  /** The one space a limited key reaches; null for an account key. */
  limitedTo: string | null;
  /** The key's own requests a minute (limited keys); null means the account default. */
  rpm: number | null;
}

/** What every route can reach. */
export interface AppDeps {
  db: Db;
  config: Config;
  /** Called after a source is stored, so that an in-process worker can start at once. */
  onSourceAdded?: () => void;
  /** The clock; tests inject one. */
  now?: () => Date;
  /** The optional model that writes answers to `ask` (the offline answer stands in when it fails). */
  model?: Model | null;
  /** Whether the process is stopping (GET /readyz then answers 503 so that balancers send no more). */
  stopping?: () => boolean;
  /** Where answered calls are logged; the app makes its own when none is given. */
  requestLog?: RequestLog;
}

/** Hono's environment for Engram's app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The space the call was resolved to, once known. */
    space: string;
    /** The error type of a failed call, for the request log. */
    errorType: string;
  };
}

/** The metering context of an app. */
export const meterOf = (deps: AppDeps) => ({ db: deps.db, config: deps.config, now: deps.now ?? (() => new Date()) });
