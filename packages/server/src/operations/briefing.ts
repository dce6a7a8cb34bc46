import type { BriefingResponse, MemoryHealthResponse } from '@engram/protocol';
import type { BriefingRequestInput } from '../brief/briefing.js';
import { assembleBriefing } from '../brief/briefing.js';
import { runHealthNow } from '../brief/health.js';
import type { Scope } from '../store/scope.js';
import type { OperationContext } from './context.js';

/** A briefing of what is known for a project (or all of them), within a budget of characters, as of now. */
export function brief(context: OperationContext, scope: Scope, input: Omit<BriefingRequestInput, 'now'>): Promise<BriefingResponse> {
  return assembleBriefing(context.db, scope, { ...input, now: context.now() });
}

/** Tests the space's memories now (those learned in the last day, else the newest), with the model when there is one. */
export function checkHealth(context: OperationContext, scope: Scope): Promise<MemoryHealthResponse> {
  return runHealthNow(context.db, scope, context.now(), context.model ?? null);
}
