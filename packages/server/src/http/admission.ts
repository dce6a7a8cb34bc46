import type { Db } from '../store/database.js';
import { primaryOf } from '../store/database.js';
import type { Admission } from '../store/usage-repository.js';
import { admitCall, admitCalls } from '../store/usage-repository.js';

/** The most calls admitted in one statement. */
const MAX_GROUP = 100;

interface Waiting {
  hash: string;
  at: Date;
  periodStart: Date;
  resolve(admission: Admission | null): void;
  reject(error: unknown): void;
}

/**
 * Admission of calls that come together, in one statement (store/usage-repository.ts
 * `admitCalls`) instead of one each, as saves are stored together (operations/save.ts
 * `SaveGroups`): a call that finds no group being admitted starts one on the next turn of the
 * event loop, and the calls that come while it runs go in the next one. Each call gets what
 * `admitCall` would have told it alone (its own count in its key's minute). On the embedded
 * store every statement crosses to its thread and back, and the keyed call's statement was
 * most of those a save makes under load. A group failing fails each of its calls with its error.
 */
export class AdmissionGroups {
  #waiting: Waiting[] = [];
  #running = false;

  constructor(private readonly db: Db) {}

  /** Admits one call with the next group. */
  admit(hash: string, at: Date, periodStart: Date): Promise<Admission | null> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ hash, at, periodStart, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length) await this.#admit(this.#next());
    } finally {
      this.#running = false;
    }
  }

  /** The next group: the first calls waiting whose period is the first one's (one usage read serves them). */
  #next(): Waiting[] {
    const period = this.#waiting[0]!.periodStart.getTime();
    const group: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const call of this.#waiting) {
      if (group.length < MAX_GROUP && call.periodStart.getTime() === period) group.push(call);
      else rest.push(call);
    }
    this.#waiting = rest;
    return group;
  }

  async #admit(group: Waiting[]): Promise<void> {
    try {
      // A call alone is admitted by the statement made for one, which costs the store less.
      const [first] = group;
      const answers =
        group.length === 1
          ? [await admitCall(this.db, first!.hash, first!.at, first!.periodStart)]
          : await admitCalls(this.db, group, first!.periodStart);
      group.forEach((call, at) => call.resolve(answers[at] ?? null));
    } catch (error) {
      for (const call of group) call.reject(error);
    }
  }
}

const groups = new WeakMap<Db, AdmissionGroups>();

/** The admission groups of a store. */
export function admissionGroupsOf(db: Db): AdmissionGroups {
  const store = primaryOf(db);
  let group = groups.get(store);
  if (!group) groups.set(store, (group = new AdmissionGroups(store)));
  return group;
}
