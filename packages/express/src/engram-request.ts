import type { Engram } from '@engram/client';

/** What `engramKeys()` puts on `req.engram` for a signed-in user. */
export interface EngramRequestContext {
  /** The user's space (from `spaceFor`). */
  space: string;
  /** The user's key (`egs_…`): it reaches this space only, and stops at `expiresAt`. */
  key: string;
  /** The key's id, for `engram.keys.revoke(id)`. */
  keyId: number;
  /** When the key stops working (ISO 8601); a new one is made before then. */
  expiresAt: string;
  /** Engram's address. */
  baseURL: string;
  /** A client holding the user's key: whatever it does stays inside the user's space. */
  client: Engram;
  /** Revokes every key this middleware made for the user's space, at once (call it on logout). */
  revoke(): Promise<void>;
}

declare global {
  // Express's own types are extended through this namespace (as passport does for `req.user`).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The signed-in user's Engram key and client, set by `engramKeys()`. */
      engram?: EngramRequestContext;
    }
  }
}
