import { and, asc, eq, inArray } from 'drizzle-orm';
import { modalities, procedures, type ProcedureRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The organization's procedures among `ids`. */
export function proceduresByIds(db: Db, bucketId: string, ids: string[]): Promise<ProcedureRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(procedures)
    .where(and(eq(procedures.bucketId, bucketId), inArray(procedures.id, ids)));
}

/** The organization's devices: its DICOM modalities (AE titles), by name. */
export function devicesOf(db: Db, bucketId: string) {
  return db.select().from(modalities).where(eq(modalities.bucketId, bucketId)).orderBy(asc(modalities.name));
}
