/**
 * @engram/express: per-user Engram keys for Express backends. Each signed-in user gets a key
 * limited to their own space, for their browser or app; the account key stays on the server.
 */
export { engramKeys } from './engram-keys.js';
export type { EngramKeysOptions, EngramKeyResponse } from './engram-keys.js';
export { engramProxy } from './engram-proxy.js';
export type { EngramProxyOptions } from './engram-proxy.js';
export type { EngramRequestContext } from './engram-request.js';
