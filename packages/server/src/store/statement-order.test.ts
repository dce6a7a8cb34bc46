import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_PATIENCE_MS, BEGINS_TRANSACTION, StatementOrder } from './statement-order.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the order of statements on the embedded session', () => {
  it('posts a statement at once when nobody holds the session, and the holder’s own statements too', async () => {
    const order = new StatementOrder();
    const [a, b] = [{}, {}];
    const posted: string[] = [];
    await order.submit(a, true, async () => posted.push('a'));
    await order.claim(b, true);
    await order.submit(b, true, async () => posted.push('b in its transaction'));
    expect(posted).toEqual(['a', 'b in its transaction']);
    order.release(b);
  });

  it('holds back other connections’ statements while a transaction holds the session, then posts requests’ first', async () => {
    const order = new StatementOrder();
    const [holder, learner, request, other] = [{}, {}, {}, {}];
    const posted: string[] = [];
    await order.claim(holder, true);
    const answers = [
      order.submit(learner, false, async () => posted.push('learner')),
      order.submit(request, true, async () => posted.push('request')),
      order.submit(other, true, async () => posted.push('other request')),
    ];
    await turn();
    expect(posted).toEqual([]);
    expect(order.waiting.held).toEqual({ urgent: 2, background: 1 });
    order.release(holder);
    await Promise.all(answers);
    expect(posted).toEqual(['request', 'other request', 'learner']);
    expect(order.waiting.held).toEqual({ urgent: 0, background: 0 });
  });

  it('grants claims to requests before background work, each kind in order, after what was held back is posted', async () => {
    const order = new StatementOrder();
    const holder = {};
    const events: string[] = [];
    await order.claim(holder, true);
    const asked: [string, boolean][] = [
      ['background 1', false],
      ['urgent 1', true],
      ['background 2', false],
      ['urgent 2', true],
    ];
    // Each claimant, once granted, runs its transaction (here: nothing) and lets go.
    const claims = asked.map(([name, urgent]) => {
      const owner = {};
      return order.claim(owner, urgent).then(() => {
        events.push(name);
        order.release(owner);
      });
    });
    const held = order.submit({}, true, async () => events.push('held statement'));
    expect(order.waiting.claims).toEqual({ urgent: 2, background: 2 });
    order.release(holder);
    await Promise.all([...claims, held]);
    expect(events).toEqual(['held statement', 'urgent 1', 'urgent 2', 'background 1', 'background 2']);
    expect(order.waiting.claims).toEqual({ urgent: 0, background: 0 });
  });

  it('grants a background claim on a free session a turn later, so that a request asking meanwhile goes first', async () => {
    const order = new StatementOrder();
    const [learner, request] = [{}, {}];
    const events: string[] = [];
    const learning = order.claim(learner, false).then(() => events.push('learning'));
    // The request's next statement, asked before the event loop turns, is posted before the learning transaction begins.
    await order.submit(request, true, async () => events.push('request'));
    await learning;
    expect(events).toEqual(['request', 'learning']);
    order.release(learner);
  });

  it('grants a background claim once no request’s statement is at the thread', async () => {
    const order = new StatementOrder();
    let answer!: () => void;
    const atThread = order.submit({}, true, () => new Promise<void>((resolve) => (answer = resolve)));
    const learner = {};
    let granted = false;
    const claimed = order.claim(learner, false).then(() => {
      granted = true;
    });
    await turn();
    await turn();
    expect(granted).toBe(false);
    answer();
    await atThread;
    await claimed;
    expect(granted).toBe(true);
    order.release(learner);
  });

  describe('under a load that never pauses', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    it('grants a background claim when its patience runs out', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
      const order = new StatementOrder();
      // A request's statement that is not answered while the claim waits.
      void order.submit({}, true, () => new Promise<void>(() => {}));
      let granted = false;
      const learner = {};
      void order.claim(learner, false).then(() => {
        granted = true;
      });
      await vi.advanceTimersByTimeAsync(BACKGROUND_PATIENCE_MS - 10);
      expect(granted).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(granted).toBe(true);
      order.release(learner);
    });
  });

  it('says how long requests have left the store alone', async () => {
    const order = new StatementOrder();
    expect(order.quietMs).toBe(Number.POSITIVE_INFINITY);
    await order.submit({}, false, async () => 0);
    expect(order.quietMs).toBe(Number.POSITIVE_INFINITY);
    order.touch();
    expect(order.quietMs).toBeLessThan(1_000);
  });

  it('knows the statements that begin a transaction', () => {
    expect(['begin', ' BEGIN', 'start transaction isolation level serializable'].every((text) => BEGINS_TRANSACTION.test(text))).toBe(true);
    expect(['select 1', 'beginning', 'commit', "insert into t values ('begin')"].some((text) => BEGINS_TRANSACTION.test(text))).toBe(false);
  });
});
