import type { Db } from '../database.js';

/** A numbered schema change. Migrations only move forward. */
export interface Migration {
  id: number;
  name: string;
  up(db: Db): Promise<void>;
}
