import type { Action, ConsultationDetail, CreateConsultation } from '@yyp/contracts';
import {
  consultationCases,
  consultationFiles,
  consultationLinks,
  consultations,
  groupConsultationBuckets,
} from '../db/schema.js';
import { makeStaffed, type Staffed } from './factories-archive.js';
import { makeExam, makeGroupMember, type BuiltAccount } from './factories.js';
import type { TestApp } from './harness.js';

/** Every consultation action of the requesting side (spec 000 §6) but the experts' one. */
export const REQUESTER_ACTIONS: Action[] = [
  'consultation_create',
  'consultation_update',
  'consultation_delete',
  'consultation_clinicCase_create',
  'consultation_clinicCase_delete',
  'consultation_Exam_create',
  'consultation_Exam_delete',
];

/**
 * The consultations' world (issue 25): a county hospital's radiology (the source, its group has
 * consultations on and the expert centre as its consultation target) and a provincial expert centre
 * in another group (the target); a third group's doctor with every consultation action at home.
 */
export interface ConsultationWorld {
  /** doctor: every requesting action; nurse: reads exams, no consultation action */
  clinic: Staffed<'doctor' | 'nurse'>;
  /** the clinic group's admin (targets, rating config) */
  clinicAdmin: BuiltAccount;
  /** expert: may write the result (consultation_submitSuggestion); chief: the target's staff (consultation_update); junior: neither */
  centre: Staffed<'expert' | 'chief' | 'junior'>;
  /** a third group's doctor: every consultation action in its own organization */
  outsider: Staffed<'doctor'>;
}

export async function makeConsultationWorld(t: TestApp): Promise<ConsultationWorld> {
  const centre = await makeStaffed(
    t,
    ['expert', 'chief', 'junior'],
    { name: '省影像会诊中心' },
    {
      expert: { role: 'reporting', plus: ['consultation_submitSuggestion'], without: ['consultation_update'] },
      chief: { role: 'approving', plus: ['consultation_update'], without: ['consultation_submitSuggestion'] },
      junior: { role: 'remoteReading', without: ['consultation_create'] },
    },
  );
  const clinic = await makeStaffed(
    t,
    ['doctor', 'nurse'],
    { name: '县医院放射科', group: { settings: { enableConsultation: true } } },
    { doctor: { role: 'reporting', plus: REQUESTER_ACTIONS }, nurse: { plus: ['exam_get'] } },
  );
  const clinicAdmin = await makeGroupMember(t, clinic.org.groupId, 1);
  await t.db.database.db
    .insert(groupConsultationBuckets)
    .values({ groupId: clinic.org.groupId, bucketId: centre.org.bucketId, created: t.clock.now() });
  const outsider = await makeStaffed(
    t,
    ['doctor'],
    { name: '别院放射科', group: { settings: { enableConsultation: true } } },
    { doctor: { role: 'reporting', plus: REQUESTER_ACTIONS } },
  );
  return { clinic, clinicAdmin, centre, outsider };
}

/** The body of a request from the clinic to the centre (the expert named), in an hour. */
export function consultationRequest(
  t: TestApp,
  w: ConsultationWorld,
  over: Partial<CreateConsultation> = {},
): CreateConsultation {
  return {
    sourceBucketId: w.clinic.org.bucketId,
    targetBucketId: w.centre.org.bucketId,
    title: '肺部结节会诊',
    patient: { name: '王小东', age: '56Y', gender: 'M', tel: '', email: '', contactHospital: '' },
    scheduledAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
    reason: '右肺上叶结节，性质待定',
    experts: [w.centre.expert.accountId],
    ...over,
  };
}

/** Requests a consultation through the API as the clinic's doctor (answers the detail). */
export async function requestConsultation(
  t: TestApp,
  w: ConsultationWorld,
  over: Partial<CreateConsultation> = {},
): Promise<ConsultationDetail> {
  const res = await t.as(w.clinic.doctor.token).post('consultations', consultationRequest(t, w, over));
  if (res.statusCode !== 201) throw new Error(`request failed: ${res.statusCode} ${res.body}`);
  return res.json() as ConsultationDetail;
}

/**
 * A consultation taken to `until` through the API: bound to a new exam of the clinic and requested,
 * then scheduled by the chief, then (completed) the result written and closed.
 */
export async function consultationAt(
  t: TestApp,
  w: ConsultationWorld,
  until: 'pending' | 'scheduled' | 'completed',
  over: Partial<CreateConsultation> = {},
): Promise<ConsultationDetail> {
  const { examId } = await makeExam(t, w.clinic.org.bucketId);
  let c = await requestConsultation(t, w, { examId, ...over });
  const step = async (token: string, method: 'post' | 'put', path: string, body: Record<string, unknown>) => {
    const res = await t.as(token)[method](`consultations/${c.id}/${path}`, { ...body, version: c.version });
    if (res.statusCode !== 200) throw new Error(`${path} failed: ${res.statusCode} ${res.body}`);
    c = res.json() as ConsultationDetail;
  };
  if (until === 'pending') return c;
  await step(w.centre.chief.token, 'post', 'status', { status: 1 });
  if (until === 'scheduled') return c;
  await step(w.centre.expert.token, 'put', 'results', { result: '考虑良性结节，建议3个月后复查' });
  await step(w.centre.expert.token, 'post', 'status', { status: 2 });
  return c;
}

/**
 * A consultation of an organization asking itself, with a link, a case document and a file,
 * written directly (for the all-routes tenant-isolation matrix: consultations/:id, :linkId, :caseId,
 * :fileId, and the video room of the consultation, :roomId).
 */
export async function insertConsultationRows(
  t: TestApp,
  bucketId: string,
  groupId: string,
): Promise<{ consultationId: string; roomId: string; linkId: string; caseId: string; fileId: string }> {
  const db = t.db.database.db;
  const base = {
    groupId,
    sourceBucketId: bucketId,
    targetBucketId: bucketId,
    reason: '会诊',
    scheduledAt: t.clock.now(),
  };
  await db.insert(consultations).values([
    { ...base, id: 'consultation-fixture', title: '甲城会诊', patientName: 'Secret^Consulted' },
    { ...base, id: 'consultation-linked', title: '甲城旧会诊', patientName: 'Secret^Consulted', status: 2 },
  ]);
  await db.insert(consultationLinks).values({
    id: 'consultation-link-fixture',
    consultationId: 'consultation-fixture',
    linkedId: 'consultation-linked',
  });
  await db
    .insert(consultationCases)
    .values({ id: 'consultation-case-fixture', consultationId: 'consultation-fixture', name: '病历', type: 'record' });
  await db.insert(consultationFiles).values({
    id: 'consultation-file-fixture',
    consultationId: 'consultation-fixture',
    caseId: 'consultation-case-fixture',
    key: 'consultations/fixture.pdf',
    fileName: 'fixture.pdf',
    size: 10,
    fileType: 'application/pdf',
  });
  return {
    consultationId: 'consultation-fixture',
    roomId: 'consultation-fixture',
    linkId: 'consultation-link-fixture',
    caseId: 'consultation-case-fixture',
    fileId: 'consultation-file-fixture',
  };
}
