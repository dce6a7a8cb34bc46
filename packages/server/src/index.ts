/**
 * @engram/server: the Engram memory service. Most people run the `engram` command;
 * these exports let a program embed the service or test against it.
 */

export type { HealthDeps, HealthSchedule } from './brief/health.js';
export { runDueHealthChecks } from './brief/health.js';
export type { Config } from './config.js';
export { loadConfig } from './config.js';
export { createApp } from './http/app.js';
export type { PeriodicContext, PeriodicJob } from './jobs/periodic.js';
export { registerPeriodic } from './jobs/periodic.js';
export { LearningWorker as Worker } from './operations/learning-worker.js';
export type { NodeRoles, RunningNode, RunningServer, StartOptions } from './server.js';
export { startNode, startServer } from './server.js';
export type { Store } from './store/database.js';
export { openStore } from './store/database.js';
export { migrate } from './store/migrations.js';
