import type { MeterContext } from '../meter/metering.js';

/**
 * What every operation needs: the store, the configuration, the clock, the optional model and,
 * for saves, a way to wake an in-process worker. Routes, the CLI and workers each make one.
 */
export interface OperationContext extends MeterContext {
  /** Called after a source is stored, so that an in-process worker can start at once. */
  onSourceAdded?: () => void;
}
