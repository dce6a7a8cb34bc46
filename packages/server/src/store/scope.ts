/** Whose data a query may touch: one account and one of its spaces. Every repository function takes one. */
export interface Scope {
  accountId: number;
  /** The space name; '' is the account owner's own memory. */
  space: string;
}

/** Where a page of a listing starts: after the row with a key (its id or sequence number), or after a count of rows. */
export type PageStart = { after: number } | { offset: number };
