import type { Registration, ScheduledExam } from '@yyp/contracts';
import type { RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import type { DeskCaller } from './registry.access.js';
import { presentRegistration, presentScheduledExam } from './registry.presenter.js';
import * as store from './registry.store.js';

/** The desk's answers with the names they show (device, arriver, registrar), and its audit rows. */

/** One scheduled exam with its device's and arriver's names. */
export async function presentExam(db: Db, row: ScheduledExamRow): Promise<ScheduledExam> {
  const devices = await store.deviceNames(db, row.deviceId ? [row.deviceId] : []);
  return presentScheduledExam(row, {
    device: row.deviceId ? devices.get(row.deviceId)?.name : '',
    arriver: await store.accountName(db, row.arrivedBy),
  });
}

export async function present(
  db: Db,
  registration: RegistrationRow,
  patient: RegistryPatientRow,
  exams: ScheduledExamRow[],
): Promise<Registration> {
  const devices = await store.deviceNames(
    db,
    exams.flatMap((e) => (e.deviceId ? [e.deviceId] : [])),
  );
  const arrivers = new Map<string, string>();
  for (const id of new Set(exams.flatMap((e) => (e.arrivedBy ? [e.arrivedBy] : [])))) {
    arrivers.set(id, await store.accountName(db, id));
  }
  return presentRegistration(
    registration,
    patient,
    exams.map((e) =>
      presentScheduledExam(e, {
        device: e.deviceId ? devices.get(e.deviceId)?.name : '',
        arriver: e.arrivedBy ? arrivers.get(e.arrivedBy) : '',
      }),
    ),
    await store.accountName(db, registration.createdBy),
  );
}

export function deskAudit(
  db: Db,
  caller: DeskCaller,
  action: string,
  bucketId: string,
  patient: RegistryPatientRow | undefined,
  extra: { db?: Db; targetId?: string; details?: Record<string, unknown> },
): Promise<void> {
  return writeAudit(
    extra.db ?? db,
    caller.ctx,
    actorAudit(caller.account, {
      action,
      category: 'phi',
      targetType: 'registration',
      ...(extra.targetId ? { targetId: extra.targetId } : {}),
      bucketId,
      ...(patient ? { patientId: patient.patientId } : {}),
      ...(extra.details ? { details: extra.details } : {}),
    }),
  );
}
