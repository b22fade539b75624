import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  hospitalDate,
  PATIENT_GENDERS,
  PET_GENDERS,
  type GroupSettings,
  type patientInputSchema,
  type registrationCreateSchema,
  type registrationUpdateSchema,
  type scheduledExamInputSchema,
} from '@yyp/contracts';
import type { RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { nameInitials } from '../archive/index.js';
import { getDomainConfig } from '../domain/index.js';
import { findGroup } from '../groups/index.js';
import { freshCodes } from './fresh-codes.js';
import { devicesOf, proceduresByIds } from './procedures.store.js';
import * as store from './registry.store.js';

/*
 * The parts of a registration as the desk enters them (issue 22): the patient checked against the
 * domain and resolved to the group's record, the scheduled exams planned with their procedure,
 * station and identifiers, the desk fields as written. RegistryService composes them.
 */

export type CreateInput = z.output<typeof registrationCreateSchema>;
export type UpdateInput = z.output<typeof registrationUpdateSchema>;
export type PatientFields = z.output<typeof patientInputSchema>;
export type ExamFields = z.output<typeof scheduledExamInputSchema>;

/** Letters and digits a person reads off a label without confusing them (no 0/O, 1/I/L). */
export const PASS_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const randomFrom = (alphabet: string, n: number) =>
  Array.from(crypto.randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
/** A UID from a random UUID (PS3.5 B.2: 2.25.<the UUID as a decimal integer>). */
const uuidUid = () => `2.25.${BigInt(`0x${crypto.randomUUID().replace(/-/g, '')}`).toString()}`;

/** A birth date YYYYMMDD moved by whole years. */
const shiftYears = (dob: string, years: number) =>
  `${String(Number(dob.slice(0, 4)) + years).padStart(4, '0')}${dob.slice(4)}`;

/** The patient fields as the domain allows: pet genders and the animal only where the domain registers animals. */
export async function checkPatient(db: Db, patient: PatientFields): Promise<void> {
  const { isPet } = await getDomainConfig(db);
  const genders: readonly string[] = isPet ? PET_GENDERS : PATIENT_GENDERS;
  if (!genders.includes(patient.gender)) {
    throw errors.validation(`Gender must be one of ${genders.join(', ')}`, { field: 'patient.gender' });
  }
  if (!isPet && patient.animal) {
    throw errors.validation('Animals are registered in pet domains only', { field: 'patient.animal' });
  }
  if (isPet && !patient.animal) throw errors.validation('The animal is required', { field: 'patient.animal' });
}

/**
 * The scheduled exams' rows as registered: the procedure's name, code, modality and station,
 * the device's AE title, new identifiers for new exams. A date before the hospital's today is
 * refused unless it is the exam's unchanged appointment.
 */
export async function planExams(
  db: Db,
  bucketId: string,
  inputs: ExamFields[],
  today: string,
  existing: Map<string, ScheduledExamRow>,
): Promise<Planned[]> {
  const procedures = new Map(
    (
      await proceduresByIds(
        db,
        bucketId,
        inputs.flatMap((e) => (e.procedureId ? [e.procedureId] : [])),
      )
    ).map((p) => [p.id, p]),
  );
  const devices = new Map((await devicesOf(db, bucketId)).map((d) => [d.id, d]));
  const accessions = await freshCodes(
    inputs.filter((input) => !(input.id && existing.has(input.id))).length,
    () => newAccession(today),
    (candidates) => store.takenAccessions(db, bucketId, candidates),
  );
  return inputs.map((input, i) => {
    const before = input.id ? existing.get(input.id) : undefined;
    const procedure = input.procedureId ? procedures.get(input.procedureId) : undefined;
    if (input.procedureId && !procedure) {
      throw errors.validation('No such procedure in this organization', { field: `exams.${i}.procedureId` });
    }
    const device = input.deviceId ? devices.get(input.deviceId) : undefined;
    if (input.deviceId && !device) {
      throw errors.validation('No such device in this organization', { field: `exams.${i}.deviceId` });
    }
    const unchanged = before && before.scheduledDate === input.scheduledDate;
    if (input.scheduledDate < today && !unchanged) {
      throw errors.validation('The scheduled date cannot be before today', { field: `exams.${i}.scheduledDate` });
    }
    const accessionNumber = before?.accessionNumber ?? accessions.pop()!;
    return {
      id: before?.id ?? crypto.randomUUID(),
      procedureId: procedure?.id ?? null,
      procedureName: procedure?.name ?? '',
      procedureCode: procedure?.code ?? '',
      modality: procedure?.modality ?? input.modality,
      bodyPart: input.bodyPart,
      studyDesc: input.studyDesc || procedure?.name || '',
      bodyPartCount: input.bodyPartCount ?? procedure?.bodyPartCount ?? null,
      imagingOptional: procedure?.imagingOptional ?? false,
      deviceId: device?.id ?? null,
      stationAeTitle: device?.aeTitle ?? procedure?.aeTitle ?? '',
      scheduledDate: input.scheduledDate,
      scheduledTime: input.scheduledTime,
      accessionNumber,
      studyInstanceUid: before?.studyInstanceUid ?? uuidUid(),
      requestedProcedureId: before?.requestedProcedureId ?? accessionNumber,
      spsId: before?.spsId ?? `S${accessionNumber}`,
    };
  });
}

/**
 * The group's record of the patient (one per group): the one named, else the one with the
 * patient ID, else the one matched by name and birth date under the group's dob match mode
 * (disabled: never; shift_on: within a year; shift_off: the same date), else a new one. The
 * record takes the demographics as entered.
 */
export async function resolvePatient(
  tx: Db,
  groupId: string,
  input: PatientFields,
  now: Date,
): Promise<RegistryPatientRow> {
  const demographics = {
    name: input.name,
    namePinyin: nameInitials(input.name),
    gender: input.gender,
    birthDate: input.birthDate,
    phone: input.phone,
    idCard: input.idCard,
    address: input.address,
    animal: input.animal,
  };
  let found: RegistryPatientRow | undefined;
  if (input.id) {
    found = await store.findPatient(tx, groupId, input.id);
    if (!found) throw errors.validation('No such patient in this group', { field: 'patient.id' });
  } else if (input.patientId) {
    found = await store.findPatientByPid(tx, groupId, input.patientId);
  } else if (input.birthDate) {
    const settings = ((await findGroup(tx, groupId))?.settings ?? {}) as Partial<GroupSettings>;
    const mode = settings.dobMatchMode ?? 'shift_off';
    if (mode !== 'disabled') {
      const span = mode === 'shift_on' ? 1 : 0;
      const birth = { from: shiftYears(input.birthDate, -span), to: shiftYears(input.birthDate, span) };
      found = (await store.findPatientsByName(tx, groupId, input.name, birth))[0];
    }
  }
  if (found) {
    if (input.patientId && input.patientId !== found.patientId) {
      throw errors.validation('The patient ID belongs to another patient record', { field: 'patient.patientId' });
    }
    return store.updatePatient(tx, found.id, demographics, now);
  }
  const patientId =
    input.patientId ||
    (
      await freshCodes(
        1,
        () => `P${today6(now)}${randomFrom('0123456789', 6)}`,
        (candidates) => store.takenPatientIds(tx, groupId, candidates),
      )
    )[0]!;
  return store.insertPatient(tx, { id: crypto.randomUUID(), groupId, patientId, ...demographics }, now);
}

function insertRegistration(
  tx: Db,
  values: Omit<store.RegistrationValues, 'passCode'>,
  now: Date,
): Promise<RegistrationRow> {
  return store.insertRegistration(tx, { ...values, passCode: randomFrom(PASS_ALPHABET, 8) }, now);
}

/** The desk fields of a registration as written. */
export function deskFields(input: CreateInput | UpdateInput) {
  return {
    patientSource: input.patientSource,
    inpatientId: input.patientSource === 'I' ? input.inpatientId : '',
    bedNum: input.patientSource === 'I' ? input.bedNum : '',
    outpatientId: input.patientSource === 'O' || input.patientSource === 'NO' ? input.outpatientId : '',
    physicalExamId: input.patientSource === 'P' ? input.physicalExamId : '',
    applyDept: input.applyDept,
    orderPlacer: input.orderPlacer,
    clinicImpression: input.clinicImpression,
    urgent: input.urgent,
    note: input.note,
    weight: input.weight,
    height: input.height,
  };
}

/** A scheduled exam's row as planned from the desk's input (identity, procedure, station, appointment). */
export interface Planned {
  id: string;
  procedureId: string | null;
  procedureName: string;
  procedureCode: string;
  modality: string;
  bodyPart: string;
  studyDesc: string;
  bodyPartCount: number | null;
  imagingOptional: boolean;
  deviceId: string | null;
  stationAeTitle: string;
  scheduledDate: string;
  scheduledTime: string;
  accessionNumber: string;
  studyInstanceUid: string;
  requestedProcedureId: string;
  spsId: string;
}

/** Whether an edit moves the appointment (date, time, device, procedure, modality): a reschedule. */
export function scheduleChanged(before: ScheduledExamRow, after: Planned): boolean {
  return (
    before.scheduledDate !== after.scheduledDate ||
    before.scheduledTime !== after.scheduledTime ||
    before.deviceId !== after.deviceId ||
    before.procedureId !== after.procedureId ||
    before.modality !== after.modality ||
    before.stationAeTitle !== after.stationAeTitle
  );
}

/** The values a move may write: never the row's identity. */
export function stripIdentity<T extends object>(values: T): Omit<T, 'id' | 'registrationId' | 'bucketId'> {
  const {
    id: _id,
    registrationId: _r,
    bucketId: _b,
    ...rest
  } = values as T & { id?: unknown; registrationId?: unknown; bucketId?: unknown };
  return rest;
}

/** YYMMDD of the hospital's today. */
const today6 = (now: Date) => hospitalDate(now).replace(/-/g, '').slice(2);

/** An accession number: the day (YYMMDD) and six random digits, 12 characters (DICOM SH allows 16). */
function newAccession(today: string): string {
  return `${today.replace(/-/g, '').slice(2)}${randomFrom('0123456789', 6)}`;
}

/** The patient (resolvePatient) and a new registration of it in the organization, with its pass code. */
export async function registerPatient(
  tx: Db,
  bucket: { id: string; groupId: string },
  input: PatientFields,
  values: Omit<store.RegistrationValues, 'passCode' | 'id' | 'groupId' | 'bucketId' | 'patientRef'>,
  now: Date,
): Promise<{ patient: RegistryPatientRow; registration: RegistrationRow }> {
  const patient = await resolvePatient(tx, bucket.groupId, input, now);
  const registration = await insertRegistration(
    tx,
    { id: crypto.randomUUID(), groupId: bucket.groupId, bucketId: bucket.id, patientRef: patient.id, ...values },
    now,
  );
  return { patient, registration };
}
