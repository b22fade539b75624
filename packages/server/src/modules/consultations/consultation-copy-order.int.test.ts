import type { Order } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultationExams, exams, groupExpertBuckets } from '../../db/schema.js';
import { consultationAt, makeConsultationWorld, type ConsultationWorld } from '../../test/factories-consultations.js';
import { makeMember } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * One study, two reasons to copy it into the same organization (issue 25 with issue 24): the
 * consultation's copy is reused by a remote read of the same exam ordered from the same centre (it
 * becomes the read's, 'remote', which its experts report). Cancelling the read then gives the copy
 * back to the consultation still binding it, instead of taking the consultation's images away; once
 * neither holds it, the consultation's close removes it.
 */
let t: TestApp;
let w: ConsultationWorld;
const db = () => t.db.database.db;
const copyRow = async (id: string) => (await db().select().from(exams).where(eq(exams.id, id)))[0];

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultationWorld(t);
  // The centre is also one of the clinic group's expert organizations, unpaid (its reads cost nothing).
  await db().insert(groupExpertBuckets).values({
    groupId: w.clinic.org.groupId,
    bucketId: w.centre.org.bucketId,
    paid: false,
    created: t.clock.now(),
  });
});
afterAll(() => t.close());

describe("a consultation's copy reused by a remote read", () => {
  it('goes back to the consultation when the read is cancelled, and leaves with the consultation', async () => {
    const c = await consultationAt(t, w, 'scheduled');
    const [bound] = await db().select().from(consultationExams).where(eq(consultationExams.consultationId, c.id));
    const copyId = bound!.sharedExamId!;
    expect((await copyRow(copyId))?.source).toBe('consultation');

    const orderer = await makeMember(t, w.clinic.org.bucketId, { actions: ['apply_expert_report', 'exam_get'] });
    const applied = await t.as(orderer.token).post('request/apply', {
      examId: bound!.examId,
      targetBucketId: w.centre.org.bucketId,
      reason: '疑难病例',
      applicantMobile: '13800138000',
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const order = applied.json() as Order;
    // The read took the consultation's copy over: one copy, now the read's.
    expect((await copyRow(copyId))?.source).toBe('remote');

    const cancelled = await t.as(orderer.token).post(`request/${order.id}/cancel-remote`, { reason: '改为会诊' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Still bound by the open consultation: it stays, the consultation's again, and its expert opens it.
    expect(await copyRow(copyId)).toMatchObject({ source: 'consultation', bucketId: w.centre.org.bucketId });
    expect((await t.as(w.centre.expert.token).get(`exams/${copyId}`)).statusCode).toBe(200);

    // The consultation completes: the copy leaves with it.
    let v = c.version;
    const written = await t
      .as(w.centre.expert.token)
      .put(`consultations/${c.id}/results`, { result: '考虑良性', version: v });
    v = (written.json() as { version: number }).version;
    expect(
      (await t.as(w.centre.expert.token).post(`consultations/${c.id}/status`, { status: 2, version: v })).statusCode,
    ).toBe(200);
    expect(await copyRow(copyId)).toBeUndefined();
  });
});
