import type { Migration } from '../migrations.js';
import { initial } from './0001-initial.js';

/** Every migration, in order. Each lives in its own numbered file. */
export const migrations: Migration[] = [initial];
