/**
 * @engram/server: the Engram memory service. Most people run the `engram` command;
 * these exports let a program embed the service or test against it.
 */
export { loadConfig } from './config.js';
export type { Config } from './config.js';
export { startServer } from './server.js';
export type { RunningServer, StartOptions } from './server.js';
export { createApp } from './http/app.js';
export { openStore } from './store/database.js';
export type { Store } from './store/database.js';
export { migrate } from './store/migrations.js';
export { Worker } from './jobs/worker.js';
