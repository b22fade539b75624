import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { CONSULTATION_STATUS_VALUES, type ConsultationStatus } from '@yyp/contracts';
import { consultationMembers, consultations } from '../../db/schema.js';
import { makeStaffed, staffActions, type Staffed } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';

/**
 * A consultation world for the video tests (test support): a requesting hospital (its doctor holds
 * consultation_create), an expert organization of another group (its expert is the consultation's
 * member), a technician of the hospital without consultation actions and a doctor of a third group.
 */
export interface VideoWorld {
  source: Staffed<'doctor' | 'tech'>;
  target: Staffed<'expert'>;
  outsider: Staffed<'doctor'>;
}

export async function makeVideoWorld(t: TestApp): Promise<VideoWorld> {
  const source = await makeStaffed(
    t,
    ['doctor', 'tech'],
    {},
    {
      doctor: { role: 'reporting', plus: ['consultation_create'] },
      tech: {
        role: 'technician',
        without: staffActions({ role: 'technician' }).filter((a) => a.startsWith('consultation')),
      },
    },
  );
  const target = await makeStaffed(t, ['expert']);
  const outsider = await makeStaffed(t, ['doctor']);
  return { source, target, outsider };
}

/** A consultation from the world's hospital to its experts (status scheduled unless told), the expert its member. */
export async function makeVideoConsultation(
  t: TestApp,
  world: VideoWorld,
  options: { scheduledAt?: Date; status?: ConsultationStatus } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await t.db.database.db.insert(consultations).values({
    id,
    groupId: world.source.org.groupId,
    sourceBucketId: world.source.org.bucketId,
    targetBucketId: world.target.org.bucketId,
    title: '疑难病例会诊',
    status: options.status ?? CONSULTATION_STATUS_VALUES.scheduled,
    scheduledAt: options.scheduledAt ?? t.clock.now(),
    patientName: '张伟',
    creatorId: world.source.doctor.accountId,
  });
  await t.db.database.db
    .insert(consultationMembers)
    .values({ consultationId: id, accountId: world.target.expert.accountId, role: 'expert' });
  return id;
}

export async function setConsultationStatus(t: TestApp, id: string, status: ConsultationStatus): Promise<void> {
  await t.db.database.db.update(consultations).set({ status }).where(eq(consultations.id, id));
}
