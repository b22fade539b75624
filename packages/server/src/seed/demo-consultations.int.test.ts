import type { ConsultationBuckets, ConsultationDetail } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';

/**
 * The demo's consultations (seed/demo-consultations.ts; issue 25): the hospital's reporting doctor
 * requests of the teleradiology centre (XH-TELE, the group's default target) and the demo expert
 * answers there.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('demo consultations', () => {
  it("lets the hospital's doctor ask XH-TELE and the demo expert take it", async () => {
    const doctor = t.as(await t.login('doctor'));
    const where = (await doctor.get('consultations/buckets')).json() as ConsultationBuckets;
    const target = where.targets.find((b) => b.isDefault);
    expect(target?.name).toBe('远程诊断中心');
    const source = where.sources.find((s) => s.name === '放射科')!;
    const expert = target!.experts.find((e) => e.name === '孙专家')!;
    const created = await doctor.post('consultations', {
      sourceBucketId: source.bucketId,
      targetBucketId: target!.bucketId,
      title: '肺结节会诊',
      patient: { name: '张伟' },
      scheduledAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
      reason: '性质待定',
      experts: [expert.accountId],
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json() as ConsultationDetail;
    expect(c.can).toEqual(expect.arrayContaining(['update', 'bindExam', 'unbindExam', 'addCase', 'deleteCase']));
    const seen = (await t.as(await t.login('expert')).get(`consultations/${c.id}`)).json() as ConsultationDetail;
    expect(seen.roles).toEqual(['expert', 'target']);
    expect(seen.can).toEqual(expect.arrayContaining(['setMembers', 'cancel']));
  });
});
