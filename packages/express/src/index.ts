/**
 * @engram/express: per-user Engram keys for Express backends. Each signed-in user gets a key
 * limited to their own space, for their browser or app; the account key stays on the server.
 */

export type { EngramKeyResponse, EngramKeysOptions } from './engram-keys.js';
export { engramKeys } from './engram-keys.js';
export type { EngramProxyOptions } from './engram-proxy.js';
export { engramProxy } from './engram-proxy.js';
export type { EngramRequestContext } from './engram-request.js';
