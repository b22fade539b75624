import {
  topupPosting,
  type ConsultationBuckets,
  type ConsultationDetail,
  type ConsultationListItem,
  type Order,
} from '@yyp/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, ledgerTxns, orders, payments, products } from '../../db/schema.js';
import {
  consultationAt,
  makeConsultationWorld,
  requestConsultation,
  type ConsultationWorld,
} from '../../test/factories-consultations.js';
import { makeExam, makeMember, unique } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';
import { postTxn } from '../ledger/index.js';

/**
 * A paid consultation (issue 25: "payment status is shown where the consultation is paid through the
 * billing capability (a consultation product)"): where the target sells consultations (a product of
 * type 3) and the payment service is on, binding the first exam opens a fee (an order of type
 * consultation); it is paid as any order (here from the group's balance: credits/create-token, then
 * credits/charge); the experts accept it only once paid (409 ConsultationUnpaid); it is refunded
 * before it is cancelled (409 ConsultationPaid); it closes with the consultation.
 */
let t: TestApp;
let w: ConsultationWorld;
const db = () => t.db.database.db;
const json = (res: { json(): unknown }) => res.json() as ConsultationDetail;
const PRICE = 30_000;

async function sellConsultations(o: { priceFen?: number; active?: boolean } = {}) {
  const id = unique('prd-');
  await db()
    .insert(products)
    .values({
      id,
      bucketId: w.centre.org.bucketId,
      type: 3,
      name: '多学科影像会诊',
      priceFen: o.priceFen ?? PRICE,
      active: o.active ?? true,
    });
  return id;
}

async function payFromBalance(orderId: string, token = w.clinic.doctor.token) {
  await postTxn(db(), {
    kind: 'topup',
    ref: unique('topup-'),
    groupId: w.clinic.org.groupId,
    lines: topupPosting({ source: 'manual', groupId: w.clinic.org.groupId, amountFen: PRICE, currency: 'CNY' }),
  });
  const bearer = await t.as(token).post('credits/create-token', { orderId });
  if (bearer.statusCode !== 200) return bearer;
  return t.call('POST', 'credits/charge', {
    token,
    headers: { 'charge-authorization': `Bearer ${(bearer.json() as { token: string }).token}` },
    body: { orderId },
  });
}

const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;

let productId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultationWorld(t);
  await updateDomainConfig(db(), { enablePaymentService: true }, t.clock.now());
  // the clinic's group pays from its balance (enableCredit; WeChat is the other way, as for any order)
  await db()
    .update(groups)
    .set({ settings: sql`${groups.settings} || '{"enableCredit": true}'::jsonb` })
    .where(eq(groups.id, w.clinic.org.groupId));
  productId = await sellConsultations();
});
afterAll(() => t.close());

describe('a paid consultation', () => {
  it('opens its fee with the bound exam, is accepted only once paid, and closes its order with it', async () => {
    const c = await consultationAt(t, w, 'pending');
    expect(c.fee).toMatchObject({ priceFen: PRICE, currency: 'CNY', paymentStatus: 0, productName: '多学科影像会诊' });
    expect(c.paymentStatus).toBe(0);
    const order = await orderRow(c.fee!.orderId);
    expect(order).toMatchObject({
      type: 'consultation',
      consultationId: c.id,
      requestBucketId: w.clinic.org.bucketId,
      targetBucketId: w.centre.org.bucketId,
      examId: c.fee!.examId,
      productId,
      status: 'applied',
    });
    expect(c.exams.map((e) => e.examId)).toContain(c.fee!.examId);

    // The target's side sees the fee but not the source exam it names; no accepting before payment.
    const chief = t.as(w.centre.chief.token);
    const seen = json(await chief.get(`consultations/${c.id}`));
    expect(seen.fee).toMatchObject({ orderId: order.id, paymentStatus: 0, examId: '' });
    expect(seen.can).not.toContain('schedule');
    const early = await chief.post(`consultations/${c.id}/status`, { status: 1, version: c.version });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'ConsultationUnpaid' });
    expect(json(await chief.get(`consultations/${c.id}`)).status).toBe(0);

    // The list shows it unpaid; the requester's order list holds the fee as an order of type consultation.
    const list = (await t.as(w.clinic.doctor.token).post('consultations/query', { skip: 0, limit: 20 })).json() as {
      data: ConsultationListItem[];
    };
    expect(list.data.find((r) => r.id === c.id)?.paymentStatus).toBe(0);
    const page = (
      await t
        .as(w.clinic.doctor.token)
        .post(`orders/page-query?requestBucketId=${w.clinic.org.bucketId}`, { filters: { type: 'consultation' } })
    ).json() as { data: Order[] };
    expect(page.data.map((o) => [o.id, o.consultationId])).toContainEqual([order.id, c.id]);

    const paid = await payFromBalance(order.id);
    expect(paid.statusCode, paid.body).toBe(200);
    const after = json(await t.as(w.clinic.doctor.token).get(`consultations/${c.id}`));
    expect(after.fee).toMatchObject({ paymentStatus: 1 });
    expect(after.fee!.paidAt).not.toBeNull();
    // Money held: the requester cannot cancel it (refund first), the target accepts it now.
    const cancel = await t
      .as(w.clinic.doctor.token)
      .post(`consultations/${c.id}/cancel`, { reason: '患者转院', version: after.version });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ code: 'ConsultationPaid' });
    const accepted = await chief.post(`consultations/${c.id}/status`, { status: 1, version: after.version });
    expect(accepted.statusCode).toBe(200);
    // The experts' side earns it (the ledger posted the payment to the target) and nothing was shared by the order.
    const posted = await db()
      .select()
      .from(ledgerTxns)
      .where(and(eq(ledgerTxns.kind, 'payment'), eq(ledgerTxns.orderId, order.id)));
    expect(posted).toHaveLength(1);
    expect((await orderRow(order.id)).targetExamId).toBeNull();

    let v = json(accepted).version;
    const expert = t.as(w.centre.expert.token);
    const written = await expert.put(`consultations/${c.id}/results`, { result: '考虑良性结节', version: v });
    v = json(written).version;
    expect((await expert.post(`consultations/${c.id}/status`, { status: 2, version: v })).statusCode).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ status: 'reported', paymentStatus: 1 });
  });

  it('opens the fee when an exam is bound later, and a cancel before payment cancels it for good', async () => {
    const c = await requestConsultation(t, w);
    expect(c.fee).toBeNull();
    expect(c.paymentStatus).toBeNull();
    const { examId } = await makeExam(t, w.clinic.org.bucketId);
    const bound = json(await t.as(w.clinic.doctor.token).post(`consultations/${c.id}/exams`, { examIds: [examId] }));
    expect(bound.fee).toMatchObject({ examId, paymentStatus: 0 });
    // A second exam opens no second fee.
    const other = (await makeExam(t, w.clinic.org.bucketId)).examId;
    const twice = json(await t.as(w.clinic.doctor.token).post(`consultations/${c.id}/exams`, { examIds: [other] }));
    expect(twice.fee?.orderId).toBe(bound.fee!.orderId);
    expect(await db().select().from(orders).where(eq(orders.consultationId, c.id))).toHaveLength(1);

    const cancelled = await t
      .as(w.clinic.doctor.token)
      .post(`consultations/${c.id}/cancel`, { reason: '患者转院', version: twice.version });
    expect(cancelled.statusCode).toBe(200);
    expect(await orderRow(bound.fee!.orderId)).toMatchObject({ status: 'cancelled', cancelReason: '患者转院' });
    // Nothing more can be paid on it.
    const late = await payFromBalance(bound.fee!.orderId);
    expect(late.statusCode).toBe(409);
    expect(json(await t.as(w.clinic.doctor.token).get(`consultations/${c.id}`)).fee).toMatchObject({
      paymentStatus: 0,
    });
  });

  it("is no report order: the exam can still be ordered, and the order's own cancel refuses it", async () => {
    const c = await consultationAt(t, w, 'pending');
    const remote = (await t.as(w.clinic.doctor.token).get(`request/remote-report?examId=${c.fee!.examId}`)).json();
    expect(remote).toEqual({ order: null });
    const res = await t.as(w.clinic.doctor.token).post(`request/${c.fee!.orderId}/cancel-remote`, { reason: '不要了' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OrderNotCancellable' });
    expect((await orderRow(c.fee!.orderId)).status).toBe('applied');
    // Someone of the clinic without consultation_create may not pay it.
    const nurse = await payFromBalance(c.fee!.orderId, w.clinic.nurse.token);
    expect(nurse.statusCode).toBe(403);
  });
});

describe('the consultation product', () => {
  it('is priced where the requester chooses the target, and is sold by the target as type 3', async () => {
    // The requester sees the price where it chooses the target (consultations/buckets).
    const where = (await t.as(w.clinic.doctor.token).get('consultations/buckets')).json() as ConsultationBuckets;
    expect(where.targets.find((x) => x.bucketId === w.centre.org.bucketId)?.price).toEqual({
      productName: '多学科影像会诊',
      priceFen: PRICE,
      currency: 'CNY',
    });
    const admin = await makeMember(t, w.centre.org.bucketId, { level: 'admin' });
    const made = await t.as(admin.token).post('products', {
      bucketId: w.centre.org.bucketId,
      type: 3,
      name: '疑难病例会诊',
      priceFen: 45_000,
    });
    expect(made.statusCode, made.body).toBe(201);
    const madeId = (made.json() as { id: string }).id;
    try {
      const listed = (await t.as(admin.token).get(`products?type=3&bucketId=${w.centre.org.bucketId}`)).json() as {
        id: string;
        type: number;
      }[];
      expect(listed.find((p) => p.id === madeId)?.type).toBe(3);
      expect((await t.as(admin.token).get(`products?type=4&bucketId=${w.centre.org.bucketId}`)).statusCode).toBe(400);
      // With the other one inactive, the new one prices the next fee.
      await db().update(products).set({ active: false }).where(eq(products.id, productId));
      expect((await consultationAt(t, w, 'pending')).fee).toMatchObject({
        priceFen: 45_000,
        productName: '疑难病例会诊',
      });
    } finally {
      await db().update(products).set({ active: true }).where(eq(products.id, productId));
      await db().update(products).set({ active: false }).where(eq(products.id, madeId));
    }
  });
});

describe('a refunded consultation', () => {
  it("is cancelled once the target's order admin refunded its fee in full", async () => {
    const c = await consultationAt(t, w, 'pending');
    expect((await payFromBalance(c.fee!.orderId)).statusCode).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, c.fee!.orderId));
    const admin = await makeMember(t, w.centre.org.bucketId, { actions: ['payment_refund'] });
    const refunded = await t.call('POST', `payments/${payment!.paymentNo}/refund`, {
      token: admin.token,
      headers: { 'idempotency-key': unique('refund-consult-') },
      body: { amountFen: PRICE, reason: '专家无法按时会诊' },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    const detail = json(await t.as(w.clinic.doctor.token).get(`consultations/${c.id}`));
    expect(detail.fee?.paymentStatus).toBe(3);
    expect(detail.can).toContain('cancel');
    const cancelled = await t
      .as(w.clinic.doctor.token)
      .post(`consultations/${c.id}/cancel`, { reason: '已退款', version: detail.version });
    expect(cancelled.statusCode).toBe(200);
    expect(await orderRow(c.fee!.orderId)).toMatchObject({ status: 'cancelled', paymentStatus: 3 });
  });
});

describe('a free consultation', () => {
  it('has no fee where the payment service is off, the target sells none active, or at price 0', async () => {
    await db().update(products).set({ active: false }).where(eq(products.id, productId));
    try {
      expect((await consultationAt(t, w, 'scheduled')).fee).toBeNull();
      const zero = await sellConsultations({ priceFen: 0 });
      expect((await consultationAt(t, w, 'scheduled')).fee).toBeNull();
      await db().update(products).set({ active: false }).where(eq(products.id, zero));
      await db().update(products).set({ active: true }).where(eq(products.id, productId));
      await updateDomainConfig(db(), { enablePaymentService: false }, t.clock.now());
      const off = await consultationAt(t, w, 'completed');
      expect(off.fee).toBeNull();
      expect(off.paymentStatus).toBeNull();
    } finally {
      await db().update(products).set({ active: true }).where(eq(products.id, productId));
      await updateDomainConfig(db(), { enablePaymentService: true }, t.clock.now());
    }
  });
});
