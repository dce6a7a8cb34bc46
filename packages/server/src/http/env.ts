import type { Admission as StoreAdmission } from '../store/usage-repository.js';

/** Who is calling, as the auth middleware found it. */
export interface Caller {
  accountId: number;
  keyId: number;
  /** The one space a limited key reaches; null for an account key. */
  limitedTo: string | null;
  /** The key's own requests a minute (limited keys); null means the account default. */
  rpm: number | null;
}

/** What `authenticate` read with the key (the request's count this minute, the account's usage), and when. */
export type Admission = Omit<StoreAdmission, 'key'> & {
  /** The clock's time when the key was checked. */
  at: Date;
  /** Set once the call's own change to the usage was applied to `usage` (a save): it then stands as after the call. */
  settled?: boolean;
};

/** Hono's environment for Engram's app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The space the call was resolved to, once known. */
    space: string;
    /** The error type of a failed call, for the request log. */
    errorType: string;
    /** Set by `authenticate`. */
    admission: Admission;
  };
}
