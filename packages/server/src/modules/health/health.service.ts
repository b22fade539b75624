import type { Db } from '../../platform/db.js';
import { pingDatabase } from './health.store.js';

/** The health check's database part: resolves when the database answers, throws otherwise. */
export function checkDatabase(db: Db): Promise<void> {
  return pingDatabase(db);
}
