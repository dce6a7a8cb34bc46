import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuzzTarget } from '../fuzz/contract.js';
import { documentedOperations, fuzzContract, prepareTarget } from '../fuzz/contract.js';
import { startOwnServer } from '../setup/own-server.js';

/** Cases a run sends; bench/fuzz/run.ts sends 10,000 and more. */
const CASES = 300;
const SEED = 20_261_124;

describe('the HTTP contract under generated requests', () => {
  let own: Awaited<ReturnType<typeof startOwnServer>>;
  let target: FuzzTarget;
  let document: any;
  beforeAll(async () => {
    // No workers: nothing changes the store between a call and its snapshot but the call itself.
    own = await startOwnServer({
      ENGRAM_WORKERS: '0',
      ENGRAM_MAX_BODY_BYTES: String(1024 * 1024),
      ENGRAM_UPLOAD_MAX_BYTES: '65536',
      ENGRAM_ACCOUNT_RPM: '1000000',
    });
    target = await prepareTarget(own.server.url, own.key, own.server.store.db);
    document = await (await fetch(`${own.server.url}/v1/openapi.json`)).json();
  }, 120_000);
  afterAll(() => own?.close());

  it(`answers ${CASES} valid and invalid requests below 500, in the error shape, changing nothing when refusing`, {
    timeout: 900_000,
  }, async () => {
    const run = await fuzzContract(document, target, { count: CASES, seed: SEED });
    expect(run.failures).toEqual([]);
    expect(run.cases).toBe(CASES);
    expect([...run.operations].sort()).toEqual(documentedOperations(document).sort());
    // Both kinds of answer were reached: accepted calls and refusals.
    const statuses = [...run.statuses.keys()];
    expect(statuses.some((status) => status < 300)).toBe(true);
    expect(statuses.filter((status) => status >= 400).length).toBeGreaterThan(3);
  });
});
