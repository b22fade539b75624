import {
  registrationDetails,
  type Registration,
  type RegistryItem,
  type RegistryPatient,
  type ScheduledExam,
} from '@yyp/contracts';
import type { RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import type { RegistryRow } from './registry.store.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentPatient(p: RegistryPatientRow): RegistryPatient {
  return {
    id: p.id,
    groupId: p.groupId,
    patientId: p.patientId,
    name: p.name,
    gender: p.gender,
    birthDate: p.birthDate,
    phone: p.phone,
    idCard: p.idCard,
    address: p.address,
    animal: p.animal ?? null,
    created: p.created.toISOString(),
  };
}

export function presentScheduledExam(
  e: ScheduledExamRow,
  names: { arriver?: string | null; device?: string | null } = {},
): ScheduledExam {
  return {
    id: e.id,
    registrationId: e.registrationId,
    bucketId: e.bucketId,
    status: e.status as ScheduledExam['status'],
    procedureId: e.procedureId,
    procedureName: e.procedureName,
    procedureCode: e.procedureCode,
    modality: e.modality,
    bodyPart: e.bodyPart,
    studyDesc: e.studyDesc,
    bodyPartCount: e.bodyPartCount,
    deviceId: e.deviceId,
    deviceName: names.device ?? '',
    stationAeTitle: e.stationAeTitle,
    scheduledDate: e.scheduledDate,
    scheduledTime: e.scheduledTime,
    accessionNumber: e.accessionNumber,
    studyInstanceUid: e.studyInstanceUid,
    imagingOptional: e.imagingOptional,
    examId: e.examId,
    arrivedAt: iso(e.arrivedAt),
    arriverName: names.arriver ?? '',
    startedAt: iso(e.startedAt),
    performedAt: iso(e.performedAt),
    cancelledAt: iso(e.cancelledAt),
    cancelReason: e.cancelReason,
    discontinuedReason: e.discontinuedReason,
    created: e.created.toISOString(),
    updated: e.updated.toISOString(),
  };
}

export function presentRegistration(
  r: RegistrationRow,
  patient: RegistryPatientRow,
  exams: ScheduledExam[],
  registrarName: string,
): Registration {
  return {
    id: r.id,
    version: r.version,
    bucketId: r.bucketId,
    groupId: r.groupId,
    source: r.source as Registration['source'],
    passCode: r.passCode,
    orderId: r.orderId ?? null,
    patient: presentPatient(patient),
    patientSource: r.patientSource as Registration['patientSource'],
    ...registrationDetails(r),
    registrarName,
    created: r.created.toISOString(),
    updated: r.updated.toISOString(),
    exams,
  };
}

export function presentRegistryRow(row: RegistryRow): RegistryItem {
  const r = row.registration;
  return {
    ...presentScheduledExam(row.exam, { arriver: row.arriverName, device: row.deviceName }),
    passCode: r.passCode,
    source: r.source as RegistryItem['source'],
    patient: presentPatient(row.patient),
    patientSource: r.patientSource as RegistryItem['patientSource'],
    applyDept: r.applyDept,
    orderPlacer: r.orderPlacer,
    urgent: r.urgent,
    registrarName: row.registrarName ?? '',
  };
}
