import type { Order, OrderDetail, Report } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances, ledgerTxns, notifications, orders } from '../../db/schema.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { groupCreditBalance } from '../ledger/index.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from './orders.fixture.js';
import { recordOrderPaid } from './index.js';

/**
 * The remote read end to end on the API (issue 24): a paid order shares the exam into the expert
 * organization, whose doctors report it in their own workstation; the approval comes back as the
 * requester's report; each side sees only its own; a missed turnaround credits the buyer once.
 */
let t: TestApp;
let w: OrdersWorld;
const db = () => t.db.database.db;
const content = (findings: string, conclusion: string) => ({ findings, conclusion });

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
});
afterAll(async () => {
  await t.close();
});

async function paidOrder(examId: string, paidAt = t.clock.now()): Promise<{ order: Order; targetExamId: string }> {
  const order = await applyOk(t, w, examId);
  await recordOrderPaid(db(), order.id, { channel: 'weixin', paidFen: order.priceFen, paidAt });
  const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
  return { order, targetExamId: row!.targetExamId! };
}

describe('the remote read', () => {
  it('shares the paid exam with its images, reports it at the experts and publishes the approval back', async () => {
    const examId = await newExam(t, w, 'Zhao^Liu');
    const { order, targetExamId } = await paidOrder(examId);
    expect(targetExamId).not.toBe(examId);
    const [copy] = await db().select().from(exams).where(eq(exams.id, targetExamId));
    expect(copy).toMatchObject({ bucketId: w.experts.org.bucketId, patientName: 'Zhao^Liu', reportStatus: 'none' });
    const theirImages = await db().select().from(instances).where(eq(instances.examId, targetExamId));
    const ourImages = await db().select().from(instances).where(eq(instances.examId, examId));
    expect(theirImages.map((i) => i.blobKey)).toEqual(ourImages.map((i) => i.blobKey));
    expect(theirImages.every((i) => i.bucketId === w.experts.org.bucketId)).toBe(true);

    // Each side sees its own exam only.
    expect((await t.as(w.experts.teledoctor.token).get(`exams/${examId}`)).statusCode).toBe(404);
    expect((await t.as(w.clinic.doctor.token).get(`exams/${targetExamId}`)).statusCode).toBe(404);
    const theirExam = await t.as(w.experts.teledoctor.token).get(`exams/${targetExamId}`);
    expect(theirExam.statusCode).toBe(200);
    expect(theirExam.json()).not.toHaveProperty('isRemoteReportRequested');
    // The requester's exam says a read was requested, and from whom.
    expect((await t.as(w.clinic.doctor.token).get(`exams/${examId}`)).json()).toMatchObject({
      targetBucketId: w.experts.org.bucketId,
      isRemoteReportRequested: true,
    });

    // The expert opens the report: the order is being reported, and can no longer be cancelled.
    const teledoctor = t.as(w.experts.teledoctor.token);
    expect((await teledoctor.post(`reports/${targetExamId}/lock`)).statusCode).toBe(200);
    let detail = (await t.as(w.clinic.doctor.token).get(`request/${order.id}/detail`)).json() as Order;
    expect(detail.status).toBe('reporting');
    const cancel = await t.as(w.clinic.doctor.token).post(`request/${order.id}/cancel-remote`, {});
    expect(cancel.json()).toMatchObject({ code: 'OrderNotCancellable' });

    const saved = await teledoctor.post(`reports/${targetExamId}/submit`, {
      version: 0,
      content: {
        ...(await report(w.experts.teledoctor.token, targetExamId)).content,
        ...content('两肺纹理清晰。', '未见异常'),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = saved.json() as Report;
    // Nothing reaches the requester before the approval.
    expect((await report(w.clinic.doctor.token, examId)).status).toBe('none');
    const approved = await t
      .as(w.experts.expert.token)
      .post(`reports/${targetExamId}/approve`, { version: submitted.version, content: submitted.content });
    expect(approved.statusCode, approved.body).toBe(200);

    const back = await report(w.clinic.doctor.token, examId);
    expect(back).toMatchObject({
      status: 'corrected',
      content: { findings: '两肺纹理清晰。', conclusion: '未见异常' },
    });
    // Marked as the experts' work, on both sides; another report of the clinic is its own.
    const origin = { sourceBucketId: w.experts.org.bucketId, originBucketId: w.clinic.org.bucketId };
    expect(back).toMatchObject(origin);
    expect(await report(w.experts.expert.token, targetExamId)).toMatchObject(origin);
    const own = await report(w.clinic.doctor.token, await newExam(t, w));
    expect(own).toMatchObject({ sourceBucketId: null, originBucketId: null });
    // The experts' work is read-only at the requester's: no transitions, recall and lock refused.
    expect((await report(w.clinic.senior.token, examId)).transitions).toEqual([]);
    for (const [who, action, body] of [
      [w.clinic.senior.token, 'recall', { reason: '改写' }],
      [w.clinic.doctor.token, 'lock', {}],
      [w.clinic.doctor.token, 'save', { version: back.version, content: back.content }],
    ] as const) {
      const refused = await t.as(who).post(`reports/${examId}/${action}`, body);
      expect(refused.statusCode, `${action}: ${refused.body}`).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'ReportNotEditable', details: { status: 'readOnly' } });
    }
    // The experts still work on their own copy.
    expect((await report(w.experts.expert.token, targetExamId)).transitions.length).toBeGreaterThan(0);
    detail = (await t.as(w.clinic.doctor.token).get(`request/${order.id}/detail`)).json() as Order;
    expect(detail).toMatchObject({ status: 'reported', reportId: examId, targetExamId: null });
    expect(detail.reportedAt).not.toBeNull();
    const note = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.accountId, w.clinic.doctor.accountId), eq(notifications.kind, 'remote_report')));
    expect(note.map((n) => n.examId)).toEqual([examId]);

    // orders/detail by the requester's exam, and by the experts' copy.
    const mine = (await t.as(w.clinic.doctor.token).get(`orders/detail?examId=${examId}`)).json() as OrderDetail;
    expect(mine.order).toMatchObject({ id: order.id, status: 'reported', examId });
    expect(mine.ledger).toEqual([]);
    const theirs = await t.as(w.experts.teledoctor.token).get(`orders/detail?reportId=${targetExamId}`);
    expect((theirs.json() as OrderDetail).order).toMatchObject({ id: order.id, examId: targetExamId });
    // Asked by the requester's exam id, the experts still see the order as theirs: their own exam id only.
    const byOther = await t.as(w.experts.teledoctor.token).get(`orders/detail?examId=${examId}`);
    expect((byOther.json() as OrderDetail).order).toMatchObject({ examId: targetExamId, targetExamId });
    // Anyone else: 404.
    const outsider = await makeMember(t, (await makeOrganization(t)).bucketId, { actions: ['exam_get'] });
    for (const q of [`examId=${examId}`, `reportId=${targetExamId}`, `orderId=${order.id}`]) {
      expect((await t.as(outsider.token).get(`orders/detail?${q}`)).statusCode).toBe(404);
    }
  });

  it('credits the buyer once when the turnaround is missed', async () => {
    const examId = await newExam(t, w);
    const threeHoursAgo = new Date(t.clock.now().getTime() - 3 * 3600_000);
    const { order } = await paidOrder(examId, threeHoursAgo);
    const before = await groupCreditBalance(db(), w.clinic.org.groupId, 'CNY');
    // The order's check, queued for its deadline (an hour ago), is due.
    expect(await t.services.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
    // 25 % of ¥120.00
    expect(row).toMatchObject({ slaCreditFen: 3000 });
    expect(row!.breachedAt).not.toBeNull();
    expect(await groupCreditBalance(db(), w.clinic.org.groupId, 'CNY')).toBe(before + 3000);
    expect(await t.services.orders.turnaround.sweep()).toBe(0);
    expect(await t.services.orders.turnaround.breach(order.id)).toBe(false);
    const txns = await db()
      .select()
      .from(ledgerTxns)
      .where(and(eq(ledgerTxns.kind, 'sla_credit'), eq(ledgerTxns.ref, order.id)));
    expect(txns).toHaveLength(1);
    const detail = (await t.as(w.clinic.doctor.token).get(`orders/detail?examId=${examId}`)).json() as OrderDetail;
    expect(detail.order).toMatchObject({ slaCreditFen: 3000 });
    expect(detail.ledger.map((l) => [l.kind, l.account, l.amountFen])).toEqual(
      expect.arrayContaining([
        ['sla_credit', `credit:${w.clinic.org.groupId}`, -3000],
        ['sla_credit', `revenue:${w.experts.org.bucketId}`, 3000],
      ]),
    );
    // An order reported in time, or not yet due, is left alone.
    const onTime = await paidOrder(await newExam(t, w));
    await t.services.orders.turnaround.sweep();
    const [fine] = await db().select().from(orders).where(eq(orders.id, onTime.order.id));
    expect(fine!.breachedAt).toBeNull();
  });

  it("keeps the stored files the other side still uses when one side's exam is purged", async () => {
    const examId = await newExam(t, w);
    const { targetExamId } = await paidOrder(examId);
    const keys = (await db().select().from(instances).where(eq(instances.examId, examId))).map((i) => i.blobKey);
    expect(keys.length).toBeGreaterThan(0);
    const longAgo = new Date(t.clock.now().getTime() - 40 * 86_400_000);
    await db().update(exams).set({ deletedTime: longAgo }).where(eq(exams.id, examId));
    expect(await t.services.examList.purge()).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(exams).where(eq(exams.id, examId))).toEqual([]);
    // The experts' copy still reads its images.
    for (const key of keys) expect((await t.blobs.get(key)).length).toBeGreaterThan(0);
    // Once the copy goes too, nothing references the files and they go.
    await db().update(exams).set({ deletedTime: longAgo }).where(eq(exams.id, targetExamId));
    expect(await t.services.examList.purge()).toBeGreaterThanOrEqual(1);
    for (const key of keys) await expect(t.blobs.get(key)).rejects.toThrow();
  });

  it('takes exactly one of two applications for one exam made at once', async () => {
    const examId = await newExam(t, w);
    const body = { examId, productId: w.product.id, applicantMobile: '13800138000' };
    const answers = await Promise.all([
      t.as(w.clinic.doctor.token).post('request/apply', body),
      t.as(w.clinic.doctor.token).post('request/apply', body),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ code: 'AlreadyApplied' });
    expect(await db().select().from(orders).where(eq(orders.examId, examId))).toHaveLength(1);
  });
});

async function report(token: string, examId: string): Promise<Report> {
  const res = await t.as(token).get(`reports/${examId}/detail`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}
