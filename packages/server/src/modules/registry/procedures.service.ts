import type {
  Device,
  DeviceGroup,
  ModalityEntry,
  Procedure,
  ProcedureImportResult,
  deviceGroupInputSchema,
  deviceInputSchema,
  modalityEntryInputSchema,
  procedureInputSchema,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { AccountRow, DeviceGroupRow, ModalityEntryRow, ProcedureRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { databaseErrorOf } from '../../platform/http.js';
import { loadWorkbook, readProcedureSheet } from './procedures-import.js';
import * as store from './procedures.store.js';

type DeviceGroupInput = z.infer<typeof deviceGroupInputSchema>;
type DeviceInput = z.infer<typeof deviceInputSchema>;
type ProcedureInput = z.infer<typeof procedureInputSchema>;
type ModalityEntryInput = z.infer<typeof modalityEntryInputSchema>;

const toDeviceGroup = (row: DeviceGroupRow): DeviceGroup => ({
  id: row.id,
  bucketId: row.bucketId,
  name: row.name,
  sort: row.sort,
});

const toDevice = (row: store.DeviceRow): Device => ({
  id: row.id,
  bucketId: row.bucketId,
  name: row.name,
  aeTitle: row.aeTitle,
  host: row.host,
  port: row.port,
  modality: row.modality,
  room: row.room,
  deviceGroupId: row.deviceGroupId,
  charset: row.charset === 'GB18030' ? 'GB18030' : 'ISO_IR 192',
});

const toProcedure = (row: ProcedureRow): Procedure => ({
  id: row.id,
  bucketId: row.bucketId,
  name: row.name,
  code: row.code,
  enName: row.enName,
  price: row.price,
  scanTech: row.scanTech,
  isEnhanced: row.isEnhanced,
  bodyPartCount: row.bodyPartCount,
  modality: row.modality,
  aeTitle: row.aeTitle,
  deviceGroupIds: row.deviceGroupIds,
  steps: row.steps,
  reportDuringExam: row.reportDuringExam,
  showLocalVideo: row.showLocalVideo,
  imagingOptional: row.imagingOptional,
  sort: row.sort,
});

const toModalityEntry = (row: ModalityEntryRow): ModalityEntry => ({
  id: row.id,
  bucketId: row.bucketId,
  modalityCode: row.modalityCode,
  displayName: row.displayName,
});

/** The 409 a unique index gives: the duplicate `what`, named (e.g. 'A device with this AE title'). */
const duplicate = (what: string) => errors.conflict(`${what} already exists`);

/** Runs a write that a unique index may refuse, answering 409 with `what` when it does. */
async function unique<T>(what: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (databaseErrorOf(err)?.code === '23505') throw duplicate(what);
    throw err;
  }
}

/** The procedure's values as stored: its device groups once each, in the order given. */
const procedureValues = (input: ProcedureInput): store.ProcedureValues => ({
  ...input,
  deviceGroupIds: [...new Set(input.deviceGroupIds)],
});

const SAME_GROUP = 'A device group of this name';
const SAME_AE = 'A device with this AE title';
const SAME_CODE = 'A procedure with this code';
const SAME_MODALITY = 'A modality with this code';

/** Procedure management (the organization tab): device groups, devices, procedures, the modality dictionary. */
export class ProceduresService {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
  ) {}

  /** The operation audit row of a change to the organization's procedure management. */
  private audit(
    db: Db,
    ctx: AuditContext,
    actor: AccountRow,
    action: string,
    bucketId: string,
    targetId: string,
    details?: Record<string, unknown>,
  ) {
    return writeAudit(db, ctx, {
      action,
      category: 'operation',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: action.split('.')[0],
      targetId,
      bucketId,
      ...(details ? { details } : {}),
    });
  }

  /** Deletes the organization's row `id` with `remove`, audited as `action`; 404 naming `what` when it has none. */
  private async removeRow(
    remove: (db: Db, bucketId: string, id: string) => Promise<boolean>,
    what: string,
    action: string,
    actor: AccountRow,
    bucketId: string,
    id: string,
    ctx: AuditContext,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await remove(tx, bucketId, id))) throw errors.notFound(what);
      await this.audit(tx, ctx, actor, action, bucketId, id);
    });
  }

  /** 400 unless every id is a device group of the organization. */
  private async checkGroups(db: Db, bucketId: string, ids: string[], field: string): Promise<void> {
    if (ids.length === 0) return;
    const known = new Set((await store.deviceGroupsOf(db, bucketId)).map((g) => g.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw errors.validation('Not a device group of this organization', { field, ids: unknown });
    }
  }

  /* ---------- device groups ---------- */

  async deviceGroups(bucketId: string): Promise<DeviceGroup[]> {
    return (await store.deviceGroupsOf(this.db, bucketId)).map(toDeviceGroup);
  }

  createDeviceGroup(actor: AccountRow, bucketId: string, input: DeviceGroupInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      const row = await store.insertDeviceGroup(tx, bucketId, input.name, this.clock.now());
      if (!row) throw duplicate(SAME_GROUP);
      await this.audit(tx, ctx, actor, 'device_group.create', bucketId, row.id);
      return toDeviceGroup(row);
    });
  }

  updateDeviceGroup(actor: AccountRow, bucketId: string, id: string, input: DeviceGroupInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      const row = await unique(SAME_GROUP, store.renameDeviceGroup(tx, bucketId, id, input.name));
      if (!row) throw errors.notFound('Device group');
      await this.audit(tx, ctx, actor, 'device_group.update', bucketId, id);
      return toDeviceGroup(row);
    });
  }

  /** Deletes a device group; its devices and the procedures naming it go on without it. */
  removeDeviceGroup(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void> {
    return this.removeRow(store.deleteDeviceGroup, 'Device group', 'device_group.delete', actor, bucketId, id, ctx);
  }

  /* ---------- devices ---------- */

  async devices(bucketId: string): Promise<Device[]> {
    return (await store.devicesOf(this.db, bucketId)).map(toDevice);
  }

  createDevice(actor: AccountRow, bucketId: string, input: DeviceInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      if (input.deviceGroupId) await this.checkGroups(tx, bucketId, [input.deviceGroupId], 'deviceGroupId');
      const row = await store.insertDevice(tx, bucketId, input, this.clock.now());
      if (!row) throw duplicate(SAME_AE);
      await this.audit(tx, ctx, actor, 'device.create', bucketId, row.id);
      return toDevice(row);
    });
  }

  updateDevice(actor: AccountRow, bucketId: string, id: string, input: DeviceInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      if (input.deviceGroupId) await this.checkGroups(tx, bucketId, [input.deviceGroupId], 'deviceGroupId');
      const row = await unique(SAME_AE, store.updateDevice(tx, bucketId, id, input));
      if (!row) throw errors.notFound('Device');
      await this.audit(tx, ctx, actor, 'device.update', bucketId, id);
      return toDevice(row);
    });
  }

  removeDevice(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void> {
    return this.removeRow(store.deleteDevice, 'Device', 'device.delete', actor, bucketId, id, ctx);
  }

  /* ---------- procedures ---------- */

  async procedures(bucketId: string): Promise<Procedure[]> {
    return (await store.proceduresOf(this.db, bucketId)).map(toProcedure);
  }

  createProcedure(actor: AccountRow, bucketId: string, input: ProcedureInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      await this.checkGroups(tx, bucketId, input.deviceGroupIds, 'deviceGroupIds');
      const sort = await store.nextProcedureSort(tx, bucketId);
      const row = await store.insertProcedure(tx, bucketId, procedureValues(input), sort, this.clock.now());
      if (!row) throw duplicate(SAME_CODE);
      await this.audit(tx, ctx, actor, 'procedure.create', bucketId, row.id);
      return toProcedure(row);
    });
  }

  updateProcedure(actor: AccountRow, bucketId: string, id: string, input: ProcedureInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      await this.checkGroups(tx, bucketId, input.deviceGroupIds, 'deviceGroupIds');
      const row = await unique(
        SAME_CODE,
        store.updateProcedure(tx, bucketId, id, procedureValues(input), this.clock.now()),
      );
      if (!row) throw errors.notFound('Procedure');
      await this.audit(tx, ctx, actor, 'procedure.update', bucketId, id);
      return toProcedure(row);
    });
  }

  removeProcedure(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void> {
    return this.removeRow(store.deleteProcedure, 'Procedure', 'procedure.delete', actor, bucketId, id, ctx);
  }

  /** Puts the organization's procedures in the order of `ids`, which must be exactly all of them. */
  resort(actor: AccountRow, bucketId: string, ids: string[], ctx: AuditContext): Promise<Procedure[]> {
    return this.db.transaction(async (tx) => {
      const known = new Set((await store.proceduresOf(tx, bucketId)).map((p) => p.id));
      const given = new Set(ids);
      if (given.size !== ids.length || given.size !== known.size || ids.some((id) => !known.has(id))) {
        throw errors.validation("The ids are not exactly the organization's procedures, each once", { field: 'ids' });
      }
      await store.setProcedureSorts(tx, bucketId, ids);
      await this.audit(tx, ctx, actor, 'procedure.resort', bucketId, bucketId);
      return (await store.proceduresOf(tx, bucketId)).map(toProcedure);
    });
  }

  /**
   * Imports procedures from an .xlsx sheet: a row whose code the organization has updates that
   * procedure, any other is created. Any bad row refuses the whole file (400 with every bad row).
   */
  async importProcedures(
    actor: AccountRow,
    bucketId: string,
    file: Buffer,
    ctx: AuditContext,
  ): Promise<ProcedureImportResult> {
    const workbook = await loadWorkbook(file);
    return this.db.transaction(async (tx) => {
      const sheet = readProcedureSheet(workbook, await store.deviceGroupsOf(tx, bucketId));
      if (sheet.errors.length) {
        throw errors.validation('Some rows of the file are not valid; nothing was imported', { rows: sheet.errors });
      }
      const byCode = new Map((await store.proceduresOf(tx, bucketId)).map((p) => [p.code.toLowerCase(), p]));
      let sort = await store.nextProcedureSort(tx, bucketId);
      let created = 0;
      let updated = 0;
      const now = this.clock.now();
      for (const input of sheet.procedures) {
        const existing = byCode.get(input.code.toLowerCase());
        if (existing) {
          // the code keeps its stored spelling: it matched in another case
          await store.updateProcedure(
            tx,
            bucketId,
            existing.id,
            procedureValues({ ...input, code: existing.code }),
            now,
          );
          updated++;
        } else {
          if (!(await store.insertProcedure(tx, bucketId, procedureValues(input), sort++, now))) {
            throw duplicate(SAME_CODE);
          }
          created++;
        }
      }
      await this.audit(tx, ctx, actor, 'procedure.import', bucketId, bucketId, { created, updated });
      return { created, updated };
    });
  }

  /* ---------- the modality dictionary ---------- */

  async modalityDictionary(bucketId: string): Promise<ModalityEntry[]> {
    return (await store.modalityEntriesOf(this.db, bucketId)).map(toModalityEntry);
  }

  createModalityEntry(actor: AccountRow, bucketId: string, input: ModalityEntryInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      const row = await store.insertModalityEntry(tx, bucketId, input, this.clock.now());
      if (!row) throw duplicate(SAME_MODALITY);
      await this.audit(tx, ctx, actor, 'modality_entry.create', bucketId, row.id);
      return toModalityEntry(row);
    });
  }

  updateModalityEntry(actor: AccountRow, bucketId: string, id: string, input: ModalityEntryInput, ctx: AuditContext) {
    return this.db.transaction(async (tx) => {
      const row = await unique(SAME_MODALITY, store.updateModalityEntry(tx, bucketId, id, input));
      if (!row) throw errors.notFound('Modality');
      await this.audit(tx, ctx, actor, 'modality_entry.update', bucketId, id);
      return toModalityEntry(row);
    });
  }

  removeModalityEntry(actor: AccountRow, bucketId: string, id: string, ctx: AuditContext): Promise<void> {
    return this.removeRow(store.deleteModalityEntry, 'Modality', 'modality_entry.delete', actor, bucketId, id, ctx);
  }
}
