/**
 * Factories of the front desk's tests (issue 22): an organization's desk staff, procedures and
 * devices, and registrations made through POST registry as the desk makes them.
 *
 *   const desk = await makeDesk(t);                                   // registrar, technician, doctor
 *   const ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT' });
 *   const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }]);
 */
import crypto from 'node:crypto';
import {
  demoRoles,
  hospitalDate,
  type Registration,
  type RegistrationCreate,
  type ScheduledExamInput,
} from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { modalities, procedures, scheduledExams } from '../db/schema.js';
import {
  makeMember,
  makeOrganization,
  unique,
  type BuiltMember,
  type BuiltOrganization,
  type OrganizationOptions,
} from './factories.js';
import type { TestApp } from './harness.js';

const dbOf = (t: TestApp) => t.db.database.db;

export interface Desk {
  org: BuiltOrganization;
  /** 登记员: registry_create, arrive, update, delete */
  registrar: BuiltMember;
  /** 技师: registry_arrive (no exam_delete) */
  tech: BuiltMember;
  /** 报告医生: no desk action */
  doctor: BuiltMember;
}

/** An organization with a registrar, a technician and a reporting doctor holding the demo roles' actions. */
export async function makeDesk(t: TestApp, org: OrganizationOptions = {}): Promise<Desk> {
  const built = await makeOrganization(t, org);
  const member = (name: string, actions: readonly string[]) =>
    makeMember(t, built.bucketId, { username: unique(name), actions: actions as never });
  return {
    org: built,
    registrar: await member('registrar', demoRoles.registrar.actions),
    tech: await member('tech', demoRoles.technician.actions),
    doctor: await member('doctor', demoRoles.reporting.actions),
  };
}

/** 放射科's desk with its chest CT (胸部CT平扫, CT001), and the desk of another organization. */
export async function makeCtDesks(t: TestApp): Promise<{ desk: Desk; other: Desk; ct: string }> {
  const desk = await makeDesk(t, { name: '放射科' });
  const other = await makeDesk(t);
  const ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT', name: '胸部CT平扫', code: 'CT001' });
  return { desk, other, ct };
}

/** A procedure of the organization; answers its id. */
export async function makeProcedure(
  t: TestApp,
  bucketId: string,
  values: { modality: string; name?: string; code?: string; aeTitle?: string; imagingOptional?: boolean },
): Promise<string> {
  const id = crypto.randomUUID();
  await dbOf(t)
    .insert(procedures)
    .values({
      id,
      bucketId,
      name: values.name ?? `${values.modality} 平扫`,
      code: values.code ?? unique('P'),
      modality: values.modality,
      aeTitle: values.aeTitle ?? '',
      imagingOptional: values.imagingOptional ?? false,
    });
  return id;
}

/** A device (a modality row with its AE title) of the organization; answers its id. */
export async function makeDevice(
  t: TestApp,
  bucketId: string,
  values: { aeTitle: string; modality?: string; name?: string; charset?: 'ISO_IR 192' | 'GB18030' },
): Promise<string> {
  const id = crypto.randomUUID();
  await dbOf(t)
    .insert(modalities)
    .values({
      id,
      bucketId,
      aeTitle: values.aeTitle,
      host: null,
      name: values.name ?? values.aeTitle,
      modality: values.modality ?? '',
      charset: values.charset ?? 'ISO_IR 192',
    });
  return id;
}

/** The hospital's date `days` from the test clock's now (YYYY-MM-DD). */
export const dayFromNow = (t: TestApp, days = 0) => hospitalDate(t.clock.now(), days);

/** POST registry as the desk does it: an outpatient with these exams (tomorrow unless given). */
export async function register(
  t: TestApp,
  token: string,
  bucketId: string,
  exams: Partial<ScheduledExamInput>[],
  extra: Partial<RegistrationCreate> = {},
): Promise<Registration> {
  const res = await t.as(token).post('registry', {
    bucketId,
    patient: { name: '王^小东', gender: 'M', birthDate: '19810615', phone: '13800000000' },
    patientSource: 'O',
    outpatientId: 'MZ-1',
    exams: exams.map((e) => ({ scheduledDate: dayFromNow(t, 1), ...e })),
    ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return res.json() as Registration;
}

/** Ties a scheduled exam to an exam (what storing its study or matching by hand does). */
export async function linkExam(t: TestApp, scheduledId: string, examId: string): Promise<void> {
  await dbOf(t).update(scheduledExams).set({ examId }).where(eq(scheduledExams.id, scheduledId));
}
