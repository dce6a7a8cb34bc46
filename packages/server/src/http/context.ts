import type { Config } from '../config.js';
import type { Model } from '../model/model-client.js';
import type { OperationContext } from '../operations/context.js';
import type { Db } from '../store/database.js';
import type { RequestLog } from './request-log.js';

export type { AppEnv, Caller } from './env.js';

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

/** The metering context of an app. */
export const meterOf = (deps: AppDeps) => ({ db: deps.db, config: deps.config, now: deps.now ?? (() => new Date()) });

/** The context the app's operations run in: metering's, with the model and the worker's wake-up. */
export const operationsOf = (deps: AppDeps): OperationContext => ({
  ...meterOf(deps),
  model: deps.model ?? null,
  onSourceAdded: deps.onSourceAdded,
});
