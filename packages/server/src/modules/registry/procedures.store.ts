import crypto from 'node:crypto';
import { and, asc, eq, inArray, max, sql } from 'drizzle-orm';
import {
  deviceGroups,
  modalities,
  modalityDictionary,
  procedures,
  type DeviceGroupRow,
  type ModalityEntryRow,
  type ProcedureRow,
} from '../../db/schema.js';
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

export type DeviceRow = typeof modalities.$inferSelect;

/** Deletes the organization's row `id` of one of procedure management's lists; false when it has none. */
async function deleteOwned(
  db: Db,
  table: typeof deviceGroups | typeof modalities | typeof procedures | typeof modalityDictionary,
  bucketId: string,
  id: string,
): Promise<boolean> {
  const rows = await db
    .delete(table)
    .where(and(eq(table.bucketId, bucketId), eq(table.id, id)))
    .returning({ id: table.id });
  return rows.length > 0;
}

/* ---------- device groups ---------- */

/** The organization's device groups, by sort then name. */
export function deviceGroupsOf(db: Db, bucketId: string): Promise<DeviceGroupRow[]> {
  return db
    .select()
    .from(deviceGroups)
    .where(eq(deviceGroups.bucketId, bucketId))
    .orderBy(asc(deviceGroups.sort), asc(deviceGroups.name));
}

/** A new device group; undefined when the organization has one of that name (any case). */
export async function insertDeviceGroup(
  db: Db,
  bucketId: string,
  name: string,
  now: Date,
): Promise<DeviceGroupRow | undefined> {
  const rows = await db
    .insert(deviceGroups)
    .values({ id: crypto.randomUUID(), bucketId, name, created: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function renameDeviceGroup(
  db: Db,
  bucketId: string,
  id: string,
  name: string,
): Promise<DeviceGroupRow | undefined> {
  const rows = await db
    .update(deviceGroups)
    .set({ name })
    .where(and(eq(deviceGroups.bucketId, bucketId), eq(deviceGroups.id, id)))
    .returning();
  return rows[0];
}

/**
 * Deletes a device group: its devices keep going without a group and the procedures naming it no
 * longer do. False when the organization has no such group.
 */
export async function deleteDeviceGroup(db: Db, bucketId: string, id: string): Promise<boolean> {
  if (!(await deleteOwned(db, deviceGroups, bucketId, id))) return false;
  await db
    .update(modalities)
    .set({ deviceGroupId: null })
    .where(and(eq(modalities.bucketId, bucketId), eq(modalities.deviceGroupId, id)));
  await db
    .update(procedures)
    .set({ deviceGroupIds: sql`${procedures.deviceGroupIds} - ${id}::text` })
    .where(and(eq(procedures.bucketId, bucketId), sql`${procedures.deviceGroupIds} @> jsonb_build_array(${id}::text)`));
  return true;
}

/* ---------- devices (the organization's modalities) ---------- */

export type DeviceValues = Pick<
  DeviceRow,
  'name' | 'aeTitle' | 'host' | 'port' | 'modality' | 'room' | 'deviceGroupId' | 'charset'
>;

/** A new device; undefined when its AE title is taken (AE titles are unique across organizations). */
export async function insertDevice(
  db: Db,
  bucketId: string,
  values: DeviceValues,
  now: Date,
): Promise<DeviceRow | undefined> {
  const rows = await db
    .insert(modalities)
    .values({ ...values, id: crypto.randomUUID(), bucketId, createdAt: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateDevice(
  db: Db,
  bucketId: string,
  id: string,
  values: DeviceValues,
): Promise<DeviceRow | undefined> {
  const rows = await db
    .update(modalities)
    .set(values)
    .where(and(eq(modalities.bucketId, bucketId), eq(modalities.id, id)))
    .returning();
  return rows[0];
}

/** Deletes a device; the scheduled exams that named it keep their device id (no foreign key). */
export async function deleteDevice(db: Db, bucketId: string, id: string): Promise<boolean> {
  return deleteOwned(db, modalities, bucketId, id);
}

/* ---------- procedures ---------- */

export type ProcedureValues = Omit<ProcedureRow, 'id' | 'bucketId' | 'sort' | 'created' | 'updated'>;

/** The organization's procedures, by sort then name. */
export function proceduresOf(db: Db, bucketId: string): Promise<ProcedureRow[]> {
  return db
    .select()
    .from(procedures)
    .where(eq(procedures.bucketId, bucketId))
    .orderBy(asc(procedures.sort), asc(procedures.name));
}

/** The sort a new procedure takes: after the organization's last one. */
export async function nextProcedureSort(db: Db, bucketId: string): Promise<number> {
  const [row] = await db
    .select({ top: max(procedures.sort) })
    .from(procedures)
    .where(eq(procedures.bucketId, bucketId));
  const top = row?.top ?? null;
  return top === null ? 0 : top + 1;
}

/** A new procedure; undefined when the organization has one of that code (any case). */
export async function insertProcedure(
  db: Db,
  bucketId: string,
  values: ProcedureValues,
  sort: number,
  now: Date,
): Promise<ProcedureRow | undefined> {
  const rows = await db
    .insert(procedures)
    .values({ ...values, id: crypto.randomUUID(), bucketId, sort, created: now, updated: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateProcedure(
  db: Db,
  bucketId: string,
  id: string,
  values: ProcedureValues,
  now: Date,
): Promise<ProcedureRow | undefined> {
  const rows = await db
    .update(procedures)
    .set({ ...values, updated: now })
    .where(and(eq(procedures.bucketId, bucketId), eq(procedures.id, id)))
    .returning();
  return rows[0];
}

export async function deleteProcedure(db: Db, bucketId: string, id: string): Promise<boolean> {
  return deleteOwned(db, procedures, bucketId, id);
}

/** Each procedure's sort becomes its index in `ids` (all of them the organization's). */
export async function setProcedureSorts(db: Db, bucketId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const cases = sql.join(
    ids.map((id, index) => sql`when ${id}::text then ${index}::int`),
    sql` `,
  );
  await db
    .update(procedures)
    .set({ sort: sql`case ${procedures.id} ${cases} end` })
    .where(and(eq(procedures.bucketId, bucketId), inArray(procedures.id, ids)));
}

/* ---------- the modality dictionary ---------- */

/** The organization's modality dictionary, by code. */
export function modalityEntriesOf(db: Db, bucketId: string): Promise<ModalityEntryRow[]> {
  return db
    .select()
    .from(modalityDictionary)
    .where(eq(modalityDictionary.bucketId, bucketId))
    .orderBy(asc(modalityDictionary.modalityCode));
}

type ModalityEntryValues = Pick<ModalityEntryRow, 'modalityCode' | 'displayName'>;

/** A new entry; undefined when the organization's dictionary has that code. */
export async function insertModalityEntry(
  db: Db,
  bucketId: string,
  values: ModalityEntryValues,
  now: Date,
): Promise<ModalityEntryRow | undefined> {
  const rows = await db
    .insert(modalityDictionary)
    .values({ ...values, id: crypto.randomUUID(), bucketId, created: now })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

export async function updateModalityEntry(
  db: Db,
  bucketId: string,
  id: string,
  values: ModalityEntryValues,
): Promise<ModalityEntryRow | undefined> {
  const rows = await db
    .update(modalityDictionary)
    .set(values)
    .where(and(eq(modalityDictionary.bucketId, bucketId), eq(modalityDictionary.id, id)))
    .returning();
  return rows[0];
}

export async function deleteModalityEntry(db: Db, bucketId: string, id: string): Promise<boolean> {
  return deleteOwned(db, modalityDictionary, bucketId, id);
}
