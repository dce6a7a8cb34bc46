/** Whose data a query may touch: one account and one of its spaces. Every repository function takes one. */
export interface Scope {
  accountId: number;
  /** The space name; '' is the account owner's own memory. */
  space: string;
}
