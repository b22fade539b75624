import type { ExpertBucket, Order, OrdersPage, Product } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams, instances, orders } from '../../db/schema.js';
import { makeGroupMember, makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from './orders.fixture.js';
import { recordOrderPaid } from './index.js';

/**
 * Products, a group's expert organizations and applying for reads (spec 001 §7 products,
 * expert-buckets, billing-sources, rads, request/*; spec 000 §5 once per exam and the expert
 * selection rules; §6 apply_expert_report / apply_remote_report; issue 24).
 */
let t: TestApp;
let w: OrdersWorld;
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('products', () => {
  it("are listed to the seller and to groups that order from it, and to nobody else's", async () => {
    const mine = await t.as(w.experts.teleadmin.token).get(`products?type=1&bucketId=${w.experts.org.bucketId}`);
    expect(mine.statusCode).toBe(200);
    expect((mine.json() as Product[]).map((p) => [p.name, p.priceFen, p.turnaroundMinutes, p.breachCreditBp])).toEqual([
      ['CT 专家读片', 12_000, 120, 2500],
    ]);
    const buyer = await t.as(w.clinic.doctor.token).get(`products?type=1&bucketId=${w.experts.org.bucketId}`);
    expect(buyer.statusCode).toBe(200);
    expect((buyer.json() as Product[]).map((p) => p.id)).toEqual([w.product.id]);
    const stranger = await makeMember(t, (await makeOrganization(t)).bucketId);
    const refused = await t.as(stranger.token).get(`products?type=1&bucketId=${w.experts.org.bucketId}`);
    expect(refused.statusCode).toBe(404);
  });

  it('are changed by the organization admins only, version-checked, with prices in whole fen', async () => {
    const byDoctor = await t.as(w.experts.teledoctor.token).post('products', {
      bucketId: w.experts.org.bucketId,
      name: 'MR',
      priceFen: 100,
    });
    expect(byDoctor.statusCode).toBe(403);
    const fractional = await t.as(w.experts.teleadmin.token).post('products', {
      bucketId: w.experts.org.bucketId,
      name: 'MR',
      priceFen: 10.5,
    });
    expect(fractional.statusCode).toBe(400);
    const added = await t.as(w.experts.teleadmin.token).post('products', {
      bucketId: w.experts.org.bucketId,
      type: 2,
      name: 'MR 远程诊断',
      priceFen: 5000,
      currency: 'USD',
    });
    expect(added.statusCode, added.body).toBe(201);
    const p = added.json() as Product;
    const changed = await t.as(w.experts.teleadmin.token).put(`products/${p.id}`, { version: 1, priceFen: 6000 });
    expect(changed.json()).toMatchObject({ priceFen: 6000, currency: 'USD', version: 2 });
    const stale = await t.as(w.experts.teleadmin.token).put(`products/${p.id}`, { version: 1, priceFen: 1 });
    expect(stale.statusCode).toBe(409);
    const otherAdmin = await t.as(w.clinicAdmin.token).put(`products/${p.id}`, { version: 2, priceFen: 1 });
    expect(otherAdmin.statusCode).toBe(404);
    expect((await t.as(w.experts.teledoctor.token).del(`products/${p.id}`)).statusCode).toBe(403);
    expect((await t.as(w.experts.teleadmin.token).del(`products/${p.id}`)).statusCode).toBe(204);
    expect((await t.as(w.experts.teleadmin.token).del(`products/${p.id}`)).statusCode).toBe(404);
  });
});

describe("a group's expert organizations", () => {
  it('are listed to its members, billing-sources (paid ones) and rads (all)', async () => {
    const list = await t.as(w.clinic.doctor.token).get(`groups/${w.clinic.org.groupId}/expert-buckets`);
    expect(list.json() as ExpertBucket[]).toEqual([
      {
        groupId: w.clinic.org.groupId,
        bucketId: w.experts.org.bucketId,
        bucketName: '远程专家中心',
        paid: true,
        isDefault: false,
      },
    ]);
    const sources = await t.as(w.clinic.doctor.token).get(`groups/${w.clinic.org.groupId}/billing-sources`);
    expect(sources.json()).toEqual([{ bucketId: w.experts.org.bucketId, bucketName: '远程专家中心' }]);
    const rads = await t.as(w.clinic.doctor.token).get(`groups/${w.clinic.org.groupId}/rads`);
    expect(rads.json()).toEqual([{ bucketId: w.experts.org.bucketId, bucketName: '远程专家中心' }]);
  });

  it('are chosen by group admins, never mixing paid and unpaid organizations', async () => {
    const free = await makeOrganization(t, { name: '免费读片中心' });
    const byDoctor = await t
      .as(w.clinic.doctor.token)
      .post(`groups/${w.clinic.org.groupId}/expert-buckets`, { bucketId: free.bucketId, paid: false });
    expect(byDoctor.statusCode).toBe(403);
    const mixed = await t
      .as(w.clinicAdmin.token)
      .post(`groups/${w.clinic.org.groupId}/expert-buckets`, { bucketId: free.bucketId, paid: false });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ code: 'ExpertSelectionInvalid' });
    const paid = await t
      .as(w.clinicAdmin.token)
      .post(`groups/${w.clinic.org.groupId}/expert-buckets`, { bucketId: free.bucketId, paid: true });
    expect((paid.json() as ExpertBucket[]).map((b) => b.bucketId).sort()).toEqual(
      [w.experts.org.bucketId, free.bucketId].sort(),
    );
    const removed = await t
      .as(w.clinicAdmin.token)
      .del(`groups/${w.clinic.org.groupId}/expert-buckets/${free.bucketId}`);
    expect((removed.json() as ExpertBucket[]).map((b) => b.bucketId)).toEqual([w.experts.org.bucketId]);
    const again = await t.as(w.clinicAdmin.token).del(`groups/${w.clinic.org.groupId}/expert-buckets/${free.bucketId}`);
    expect(again.statusCode).toBe(404);
  });
});

describe('applying', () => {
  it('makes an order waiting for payment, once per exam, seen by request/remote-report', async () => {
    const examId = await newExam(t, w, 'Li^Si');
    const order = await applyOk(t, w, examId);
    expect(order).toMatchObject({
      type: 'expert',
      status: 'applied',
      paymentStatus: 0,
      needsPayment: true,
      priceFen: 12_000,
      currency: 'CNY',
      patientName: 'Li^Si',
      requestBucketName: '县医院放射科',
      targetBucketName: '远程专家中心',
      targetExamId: null,
      reportId: null,
      deadlineAt: null,
    });
    expect(order.orderNo).toMatch(/^R\d{16}$/);
    const again = await t.as(w.clinic.doctor.token).post('request/apply', {
      examId,
      productId: w.product.id,
      applicantEmail: 'a@b.cn',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'AlreadyApplied' });
    // The experts sell no remote read (type 2) yet; once they do, the exam has had its one read.
    const remote = () =>
      t.as(w.clinic.doctor.token).post('request/apply-remote-report', {
        examId,
        targetBucketId: w.experts.org.bucketId,
        applicantEmail: 'a@b.cn',
      });
    expect((await remote()).json()).toMatchObject({ code: 'ExpertSelectionInvalid' });
    const remoteProduct = await t.as(w.experts.teleadmin.token).post('products', {
      bucketId: w.experts.org.bucketId,
      type: 2,
      name: '远程诊断',
      priceFen: 3000,
    });
    expect(remoteProduct.statusCode).toBe(201);
    expect((await remote()).json()).toMatchObject({ code: 'AlreadyApplied' });
    const seen = await t.as(w.clinic.tech.token).get(`request/remote-report?examId=${examId}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect((seen.json() as { order: Order }).order.id).toBe(order.id);
    const detail = await t.as(w.clinic.doctor.token).get(`request/${order.id}/detail`);
    expect(detail.json()).toMatchObject({ id: order.id, orderNo: order.orderNo });
  });

  it('makes a remote read (apply-remote-report, apply_remote_report) of the type-2 product', async () => {
    const examId = await newExam(t, w);
    const res = await t.as(w.clinic.doctor.token).post('request/apply-remote-report', {
      examId,
      targetBucketId: w.experts.org.bucketId,
      applicantEmail: 'doctor@county.cn',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'remote', productName: '远程诊断', priceFen: 3000, needsPayment: true });
    // apply_expert_report alone is not enough for a remote read.
    const expertOnly = await makeMember(t, w.clinic.org.bucketId, { actions: ['apply_expert_report', 'exam_get'] });
    const other = await newExam(t, w);
    const refused = await t.as(expertOnly.token).post('request/apply-remote-report', {
      examId: other,
      targetBucketId: w.experts.org.bucketId,
      applicantEmail: 'a@b.cn',
    });
    expect(refused.statusCode).toBe(403);
  });

  it('needs an applicant contact, the apply action and one of the group’s expert organizations', async () => {
    const examId = await newExam(t, w);
    const noContact = await t.as(w.clinic.doctor.token).post('request/apply', { examId, productId: w.product.id });
    expect(noContact.json()).toMatchObject({ code: 'ExpertSelectionInvalid' });
    const noAction = await t
      .as(w.clinic.tech.token)
      .post('request/apply', { examId, productId: w.product.id, applicantMobile: '13800138000' });
    expect(noAction.statusCode).toBe(403);
    const stranger = await makeGroupMember(t, (await makeOrganization(t)).groupId);
    const other = await t
      .as(stranger.token)
      .post('request/apply', { examId, productId: w.product.id, applicantMobile: '13800138000' });
    expect(other.statusCode).toBe(404);
    const noDefault = await t
      .as(w.clinic.doctor.token)
      .post('request/apply', { examId, applicantMobile: '13800138000' });
    expect(noDefault.json()).toMatchObject({ code: 'ExpertSelectionInvalid' });
    const notChosen = await makeOrganization(t);
    const outside = await t
      .as(w.clinic.doctor.token)
      .post('request/apply', { examId, targetBucketId: notChosen.bucketId, applicantMobile: '13800138000' });
    expect(outside.json()).toMatchObject({ code: 'ExpertSelectionInvalid' });
    expect(await db().select().from(orders).where(eq(orders.examId, examId))).toEqual([]);
  });

  it('refuses paid organizations while the payment service is off (free ones still work)', async () => {
    await updateDomainConfig(db(), { enablePaymentService: false }, t.clock.now());
    try {
      const examId = await newExam(t, w);
      const res = await t
        .as(w.clinic.doctor.token)
        .post('request/apply', { examId, productId: w.product.id, applicantMobile: '13800138000' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PaymentServiceDisabled' });
      const free = await makeOrdersWorld(t, { paid: false, payments: false });
      const freeExam = await newExam(t, free);
      const order = await applyOk(t, free, freeExam);
      expect(order).toMatchObject({ priceFen: 0, needsPayment: false, status: 'applied' });
      expect(order.deadlineAt).not.toBeNull();
    } finally {
      await updateDomainConfig(db(), { enablePaymentService: true }, t.clock.now());
    }
  });

  it('is cancelled while applied (the experts’ copy goes), then deleted; a started order cannot be', async () => {
    const free = await makeOrdersWorld(t, { paid: false });
    const examId = await newExam(t, free);
    const order = await applyOk(t, free, examId);
    const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
    const shared = row!.targetExamId!;
    expect(await db().select({ id: exams.id }).from(exams).where(eq(exams.id, shared))).toHaveLength(1);
    expect((await t.as(free.clinic.doctor.token).del(`request/${order.id}/delete`)).statusCode).toBe(409);
    const byExpert = await t.as(free.experts.teleadmin.token).post(`request/${order.id}/cancel-remote`, {});
    expect(byExpert.statusCode).toBe(404);
    const cancelled = await t
      .as(free.clinic.doctor.token)
      .post(`request/${order.id}/cancel-remote`, { reason: '患者转院' });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancelReason: '患者转院' });
    expect(await db().select({ id: exams.id }).from(exams).where(eq(exams.id, shared))).toEqual([]);
    expect(await db().select().from(instances).where(eq(instances.examId, shared))).toEqual([]);
    const twice = await t.as(free.clinic.doctor.token).post(`request/${order.id}/cancel-remote`, {});
    expect(twice.json()).toMatchObject({ code: 'OrderNotCancellable' });
    // The exam is free again: a new application is accepted.
    const second = await applyOk(t, free, examId);
    expect(second.id).not.toBe(order.id);
    expect((await t.as(free.clinic.doctor.token).del(`request/${order.id}/delete`)).statusCode).toBe(204);
    expect(await db().select().from(orders).where(eq(orders.id, order.id))).toEqual([]);
    // The experts start: no cancelling any more.
    await db().update(orders).set({ status: 'reporting' }).where(eq(orders.id, second.id));
    const late = await t.as(free.clinic.doctor.token).post(`request/${second.id}/cancel-remote`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'OrderNotCancellable' });
  });

  it('reaches the experts only once paid: their list, and the detail of either side', async () => {
    const examId = await newExam(t, w, 'Wang^Wu');
    const order = await applyOk(t, w, examId);
    const list = (token: string, q: string) => t.as(token).post(`orders/page-query?${q}`, { filters: {} });
    const before = await list(w.experts.teledoctor.token, `targetBucketId=${w.experts.org.bucketId}`);
    expect((before.json() as OrdersPage).data.map((o) => o.id)).not.toContain(order.id);
    expect((await t.as(w.experts.teledoctor.token).get(`request/${order.id}/detail`)).statusCode).toBe(404);
    await recordOrderPaid(db(), order.id, { channel: 'weixin', paidFen: 12_000, paidAt: t.clock.now() });
    const after = await list(w.experts.teledoctor.token, `targetBucketId=${w.experts.org.bucketId}`);
    const theirs = (after.json() as OrdersPage).data.find((o) => o.id === order.id)!;
    expect(theirs).toMatchObject({ paymentStatus: 1, status: 'applied' });
    expect(theirs.targetExamId).toBeTruthy();
    expect(theirs.examId).toBe(theirs.targetExamId);
    const [copy] = await db().select().from(exams).where(eq(exams.id, theirs.targetExamId!));
    expect(copy).toMatchObject({ bucketId: w.experts.org.bucketId, patientName: 'Wang^Wu', source: 'remote' });
    const mine = await list(w.clinic.doctor.token, `requestBucketId=${w.clinic.org.bucketId}`);
    const page = mine.json() as OrdersPage;
    expect(page.count).toBeGreaterThanOrEqual(1);
    // The count kept by order_counts (status, payment status and type filters) is the rows' count.
    for (const side of [`requestBucketId=${w.clinic.org.bucketId}`, `targetBucketId=${w.experts.org.bucketId}`]) {
      const token = side.startsWith('request') ? w.clinic.doctor.token : w.experts.teledoctor.token;
      for (const filters of [{}, { paymentStatus: [1] }, { status: ['applied'], type: 'expert' }]) {
        const kept = (await t.as(token).post(`orders/page-query?${side}`, { filters })).json() as OrdersPage;
        const since = { ...filters, from: '2000-01-01T00:00:00Z' };
        const counted = (await t.as(token).post(`orders/page-query?${side}`, { filters: since })).json() as OrdersPage;
        expect(kept.count, `${side} ${JSON.stringify(filters)}`).toBe(counted.count);
      }
    }
    expect(page.data.find((o) => o.id === order.id)).toMatchObject({ examId, targetExamId: null });
    // The name search (the search keys' index, then the name itself): contained, in any case.
    for (const [patientName, found] of [
      ['wang', [order.id]],
      ['ANG^w', [order.id]],
      ['g^wu', [order.id]],
      ['wangx', []],
      ['wu^wang', []],
    ] as const) {
      const filtered = await t
        .as(w.clinic.doctor.token)
        .post(`orders/page-query?requestBucketId=${w.clinic.org.bucketId}`, {
          filters: { patientName, paymentStatus: [1] },
        });
      expect(
        (filtered.json() as OrdersPage).data.map((o) => o.id),
        patientName,
      ).toEqual(found);
    }
    for (const orderNo of [order.orderNo, order.orderNo.toLowerCase(), order.orderNo.slice(0, 14)]) {
      const byNo = await t
        .as(w.clinic.doctor.token)
        .post(`orders/page-query?requestBucketId=${w.clinic.org.bucketId}`, {
          filters: { orderNo },
        });
      expect((byNo.json() as OrdersPage).data.map((o) => o.id)).toEqual([order.id]);
    }
    // The experts' list is theirs alone; the clinic's doctor cannot read it.
    const peek = await list(w.clinic.doctor.token, `targetBucketId=${w.experts.org.bucketId}`);
    expect(peek.statusCode).toBe(404);
    const audited = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'order.apply_expert'), eq(auditLogs.targetId, order.id)));
    expect(audited).toHaveLength(1);
  });
});
