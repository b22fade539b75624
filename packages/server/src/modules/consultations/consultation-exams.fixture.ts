import crypto from 'node:crypto';
import { CONSULTATION_STATUS_VALUES, type Action, type ConsultationStatus } from '@yyp/contracts';
import { consultationMembers, consultations, groupConsultationBuckets } from '../../db/schema.js';
import { makeStaffed, type Staffed } from '../../test/factories-archive.js';
import { makeExam } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';

/**
 * The consultations' test world for bound exams, files, print and export: a county hospital's
 * radiology (the source) asks a provincial expert centre of another group (the target); a third
 * group's doctor holds every consultation action in its own organization and none here.
 */
export interface ConsultWorld {
  /** doctor: the requester (every source consultation action); reader: a requester without the parts' actions; admin: the organization's */
  clinic: Staffed<'doctor' | 'reader' | 'admin'>;
  /** expert: named expert (writes the result); chief: consultation_update (accepts, closes); bystander: staff only */
  experts: Staffed<'expert' | 'chief' | 'bystander'>;
  outsider: Staffed<'doctor'>;
}

const REQUESTER: Action[] = [
  'consultation_create',
  'consultation_update',
  'consultation_delete',
  'consultation_clinicCase_create',
  'consultation_clinicCase_delete',
  'consultation_Exam_create',
  'consultation_Exam_delete',
];

/** Every consultation action: the demo roles' share is taken out, so each member holds exactly its own. */
const EVERY: Action[] = [...REQUESTER, 'consultation_submitSuggestion'];

export async function makeConsultWorld(t: TestApp): Promise<ConsultWorld> {
  const experts = await makeStaffed(
    t,
    ['expert', 'chief', 'bystander'],
    { name: '省影像会诊中心' },
    {
      expert: { role: 'reporting', without: EVERY, plus: ['consultation_submitSuggestion'] },
      chief: { role: 'approving', plus: ['consultation_update', 'consultation_submitSuggestion'] },
      bystander: { role: 'reporting', without: EVERY },
    },
  );
  const clinic = await makeStaffed(
    t,
    ['doctor', 'reader', 'admin'],
    { name: '县医院放射科', group: { settings: { enableConsultation: true } } },
    {
      doctor: { role: 'reporting', plus: REQUESTER },
      // requests consultations (the demo's reporting role) but binds, unbinds and adds nothing
      reader: { role: 'reporting', without: EVERY, plus: ['consultation_create'] },
      admin: { level: 'admin' },
    },
  );
  await t.db.database.db
    .insert(groupConsultationBuckets)
    .values({ groupId: clinic.org.groupId, bucketId: experts.org.bucketId, created: t.clock.now() });
  const outsider = await makeStaffed(
    t,
    ['doctor'],
    { name: '别院放射科', group: { settings: { enableConsultation: true } } },
    { doctor: { role: 'reporting', plus: REQUESTER } },
  );
  return { clinic, experts, outsider };
}

/** A consultation of the world's clinic asking its experts (the expert named), in `status`. */
export async function makeConsultation(
  t: TestApp,
  w: ConsultWorld,
  o: { status?: ConsultationStatus; title?: string; patientName?: string; result?: string } = {},
): Promise<string> {
  const db = t.db.database.db;
  const id = crypto.randomUUID();
  const now = t.clock.now();
  await db.insert(consultations).values({
    id,
    groupId: w.clinic.org.groupId,
    sourceBucketId: w.clinic.org.bucketId,
    targetBucketId: w.experts.org.bucketId,
    title: o.title ?? '肺部结节会诊',
    status: o.status ?? CONSULTATION_STATUS_VALUES.pending,
    scheduledAt: new Date(now.getTime() + 3600_000),
    reason: '右肺上叶结节，性质待定',
    clinicImpression: '肺结节',
    patientName: o.patientName ?? '王^小东',
    patientAge: '56Y',
    patientGender: 'M',
    result: o.result ?? '',
    creatorId: w.clinic.doctor.accountId,
    created: now,
    updated: now,
  });
  await db
    .insert(consultationMembers)
    .values({ consultationId: id, accountId: w.experts.expert.accountId, role: 'expert', created: now });
  return id;
}

/** A new CT of the clinic (or of `bucketId`). */
export async function clinicExam(t: TestApp, w: ConsultWorld, patientName = 'Wang^Xiaodong', bucketId?: string) {
  return (await makeExam(t, bucketId ?? w.clinic.org.bucketId, { patientName })).examId;
}
