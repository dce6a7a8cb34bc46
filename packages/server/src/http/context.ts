import type { Config } from '../config.js';
import type { Db } from '../store/database.js';

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
}

/** Hono's environment for Engram's app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The space the call was resolved to, once known. */
    space: string;
  };
}

/** The metering context of an app. */
export const meterOf = (deps: AppDeps) => ({ db: deps.db, config: deps.config, now: deps.now ?? (() => new Date()) });
