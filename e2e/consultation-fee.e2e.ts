import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOpenConsultations } from './consultation-support.js';
import {
  api,
  apiLogin,
  browserPerFile,
  payOnSimulator,
  screenshot,
  settle,
  signIn,
  step,
  type BrowserPage,
  type ListedExam,
  waitForZhangWeiCts,
} from './support.js';

const V1 = '/yyp/api/v1';
const TITLE = '付费会诊：张伟 胸部 CT';
const PRODUCT = 'e2e 专家会诊';

interface Fee {
  orderId: string;
  orderNo: string;
  examId: string;
  priceFen: number;
  paymentStatus: number;
}
interface Detail {
  id: string;
  status: number;
  version: number;
  fee: Fee | null;
  can: string[];
  exams: { examId: string }[];
}

/** JSON POST as `token` (with extra headers), answering status and body. */
const post = <T>(path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  api<T>(`${V1}/${path}`, token, { method: 'POST', body: JSON.stringify(body), headers });

async function detailAs(token: string, id: string): Promise<Detail> {
  const res = await api<Detail>(`${V1}/consultations/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/**
 * Issue 25's "payment status shown where the consultation is paid through the billing capability":
 * the teleradiology centre (XH-TELE, its admin teleadmin) sells consultations at ¥80.00 (a product
 * of type 3, made for this file and deleted after it). The hospital's doctor requests one on 张伟's
 * CT, the exam bound, which opens its fee; the experts cannot accept it unpaid (409
 * ConsultationUnpaid). The doctor sees the fee unpaid on the detail, pays it on the order's payment
 * page by WeChat (the simulator's scan page), comes back and sees it paid; the expert accepts it.
 * A paid consultation is not cancelled (409 ConsultationPaid) until the centre refunds the fee in
 * full; then the doctor cancels it. Screenshots in e2e/screenshots/.
 */
describe('consultation fee: pay a consultation sold by the target, then the experts accept it', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));
  let ct: ListedExam;
  let productId = '';
  let consultationId = '';

  beforeAll(async () => {
    [, ct] = (await waitForZhangWeiCts()) as [ListedExam, ListedExam];
    const teleadmin = (await apiLogin('teleadmin')).accessToken;
    const doctor = (await apiLogin('doctor')).accessToken;
    // the hospital's default consultation organization is the teleradiology centre (XH-TELE)
    const where = await api<{ targets: { bucketId: string; isDefault: boolean }[] }>(
      `${V1}/consultations/buckets`,
      doctor,
    );
    const tele = where.body.targets.find((b) => b.isDefault) ?? where.body.targets[0]!;
    const made = await post<{ id: string; type: number }>('products', teleadmin, {
      bucketId: tele.bucketId,
      type: 3,
      name: PRODUCT,
      description: '专家远程会诊',
      modality: null,
      priceFen: 8000,
      currency: 'CNY',
      turnaroundMinutes: null,
      breachCreditBp: 0,
      active: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.type).toBe(3);
    productId = made.body.id;
  }, 120_000);

  // Nothing of this file stays: the fee refunded and the consultation cancelled (a paid one cannot
  // be), and the product deleted, so the next files' consultations are free again.
  afterAll(async () => {
    if (consultationId) {
      await refundInFull(consultationId).catch(() => undefined);
      await cancelOpenConsultations([consultationId]);
    }
    if (productId) {
      const teleadmin = (await apiLogin('teleadmin')).accessToken;
      const deleted = await api(`${V1}/products/${productId}`, teleadmin, { method: 'DELETE' });
      expect(deleted.status).toBe(204);
    }
  });

  const statusTag = (page: Page, label: string) => page.locator('.ant-tag').filter({ hasText: label }).first();
  const feeStatus = (page: Page) => page.getByTestId('consultation-fee-status');

  it('the doctor requests it on the CT, its fee opens unpaid, and the experts cannot accept it yet', async () => {
    step('the doctor requests a consultation on 张伟 CT with 孙专家 (the exam bound)');
    const doctor = (await apiLogin('doctor')).accessToken;
    const buckets = await api<{
      sources: { bucketId: string; name: string }[];
      targets: { bucketId: string; isDefault: boolean; experts: { accountId: string; name: string }[] }[];
    }>(`${V1}/consultations/buckets`, doctor);
    const target = buckets.body.targets.find((b) => b.isDefault) ?? buckets.body.targets[0]!;
    const source = buckets.body.sources.find((b) => b.name === '放射科') ?? buckets.body.sources[0]!;
    const sun = target.experts.find((e) => e.name === '孙专家')!;
    const created = await post<Detail>('consultations', doctor, {
      sourceBucketId: source.bucketId,
      targetBucketId: target.bucketId,
      examId: ct.id,
      title: TITLE,
      patient: { name: '张伟', age: '', gender: '', tel: '', email: '', contactHospital: '' },
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: '右肺上叶结节，请专家会诊（付费）',
      experts: [sun.accountId],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    consultationId = created.body.id;
    const requested = await detailAs(doctor, consultationId);
    expect(requested.exams.map((e) => e.examId)).toEqual([ct.id]);
    expect(requested.fee).toMatchObject({ examId: ct.id, priceFen: 8000, paymentStatus: 0 });

    step('the expert may not accept it unpaid');
    const expert = (await apiLogin('expert')).accessToken;
    const seen = await detailAs(expert, consultationId);
    expect(seen.can).not.toContain('schedule');
    expect(seen.fee).toMatchObject({ paymentStatus: 0, examId: '' });
    const early = await post<{ code: string }>(`consultations/${consultationId}/status`, expert, {
      status: 1,
      version: seen.version,
    });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('ConsultationUnpaid');

    step('the expert sees the hint on the detail');
    await signIn(t.page, 'expert', `/consultations/${encodeURIComponent(consultationId)}`);
    await t.page.getByText('申请方尚未支付会诊费，支付后方可接受会诊').waitFor();
    expect(await t.page.getByRole('button', { name: '接受并排期' }).count()).toBe(0);
    await settle(t.page);
    await screenshot(t.page, 'consultation-fee-target-unpaid');
  }, 120_000);

  it('the doctor sees the fee unpaid, pays it by WeChat, comes back and sees it paid', async () => {
    step('open the consultation: the fee unpaid');
    await signIn(t.page, 'doctor', `/consultations/${encodeURIComponent(consultationId)}`);
    await statusTag(t.page, '待会诊').waitFor();
    await expect.poll(() => feeStatus(t.page).innerText()).toBe('未支付');
    const request = t.page.locator('.ant-card').filter({ has: t.page.getByText('患者及申请信息', { exact: true }) });
    await request.getByText(`${PRODUCT} · ¥80.00`).waitFor();
    const doctor = (await apiLogin('doctor')).accessToken;
    const fee = (await detailAs(doctor, consultationId)).fee!;
    await request.getByText(fee.orderNo, { exact: true }).waitFor();
    const pay = t.page.getByRole('link', { name: '支付会诊费' });
    await pay.waitFor();
    await settle(t.page);
    await screenshot(t.page, 'consultation-fee-unpaid', { fullPage: true });

    step('pay it on the order page by WeChat (the simulator scans the QR)');
    await pay.click();
    await t.page.waitForURL(`**/exams/${ct.id}/apply-report/${fee.orderId}`);
    const qr = t.page.getByTestId('payment-qr');
    await qr.waitFor();
    expect(await t.page.getByText('¥80.00').count()).toBeGreaterThan(0);
    await t.page.locator('.yyp-pay__summary').getByText('会诊', { exact: true }).waitFor();
    await screenshot(t.page, 'consultation-fee-pay');
    const scanUrl = await t.page.getByTestId('sim-scan-link').getAttribute('href');
    expect(scanUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sim\/scan\?code_url=/);
    await payOnSimulator(t.browser, scanUrl!);

    step('back to the consultation: paid');
    const back = t.page.getByTestId('payment-paid').getByRole('button', { name: '返回会诊' });
    await back.waitFor({ timeout: 20_000 });
    await back.click();
    await t.page.waitForURL(`**/consultations/${encodeURIComponent(consultationId)}`);
    await expect.poll(() => feeStatus(t.page).innerText()).toMatch(/^已支付\s*\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await t.page.getByRole('link', { name: '支付会诊费' }).count()).toBe(0);
    // money is held: the doctor is told why there is no cancel button
    await t.page.getByText('会诊费已支付：如需取消会诊，请先联系会诊机构退款。').waitFor();
    expect(await t.page.getByRole('button', { name: '取消会诊' }).count()).toBe(0);
    await settle(t.page);
    await screenshot(t.page, 'consultation-fee-paid', { fullPage: true });
    expect((await detailAs(doctor, consultationId)).fee).toMatchObject({ paymentStatus: 1 });
  }, 120_000);

  it('the expert accepts the paid consultation; it is cancelled only once the centre refunded the fee', async () => {
    step('the expert accepts and schedules it');
    await signIn(t.page, 'expert', `/consultations/${encodeURIComponent(consultationId)}`);
    await expect.poll(() => feeStatus(t.page).innerText()).toMatch(/^已支付/);
    await t.page.getByRole('button', { name: '接受并排期' }).click();
    const accept = t.page.getByRole('dialog', { name: '接受会诊' });
    await accept.getByRole('button', { name: '接受并排期' }).click();
    await accept.waitFor({ state: 'hidden' });
    await statusTag(t.page, '已排期').waitFor();
    await settle(t.page);
    await screenshot(t.page, 'consultation-fee-scheduled');

    step('paid: the doctor cannot cancel it (409 ConsultationPaid)');
    const doctor = (await apiLogin('doctor')).accessToken;
    const scheduled = await detailAs(doctor, consultationId);
    expect(scheduled.status).toBe(1);
    expect(scheduled.can).not.toContain('cancel');
    const refused = await post<{ code: string }>(`consultations/${consultationId}/cancel`, doctor, {
      reason: '患者转院',
      version: scheduled.version,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ConsultationPaid');

    step('the centre (its approving doctor) refunds the fee in full; the doctor cancels it');
    await refundInFull(consultationId);
    const refunded = await detailAs(doctor, consultationId);
    expect(refunded.fee).toMatchObject({ paymentStatus: 3 });
    expect(refunded.can).toContain('cancel');
    const cancelled = await post<Detail>(`consultations/${consultationId}/cancel`, doctor, {
      reason: '患者转院',
      version: refunded.version,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe(3);
  }, 120_000);
});

/**
 * The centre refunds a consultation's paid fee in full (payments/{no}/refund, settled by the
 * simulator's refund notification) and waits until the consultation reads it refunded. Nothing when
 * the fee holds no money. The demo's refunds are the centre's approving doctor's (孙专家 holds
 * payment_refund there; its admin teleadmin manages the organization and holds no role).
 */
async function refundInFull(consultationId: string): Promise<void> {
  const doctor = (await apiLogin('doctor')).accessToken;
  const fee = (await detailAs(doctor, consultationId)).fee;
  if (!fee || ![1, 4].includes(fee.paymentStatus)) return;
  const refunder = (await apiLogin('expert')).accessToken;
  const order = await api<{ order: { paidFen: number; refundedFen: number }; ledger: { kind: string; ref: string }[] }>(
    `${V1}/orders/detail?orderId=${fee.orderId}`,
    refunder,
  );
  expect(order.status, JSON.stringify(order.body)).toBe(200);
  const paymentNo = order.body.ledger.find((l) => l.kind === 'payment')!.ref;
  const refund = await post(
    `payments/${paymentNo}/refund`,
    refunder,
    { amountFen: order.body.order.paidFen - order.body.order.refundedFen, reason: '会诊取消，全额退款' },
    { 'idempotency-key': `e2e-consultation-refund-${paymentNo}` },
  );
  expect(refund.status, JSON.stringify(refund.body)).toBeLessThan(300);
  await expect
    .poll(async () => (await detailAs(doctor, consultationId)).fee?.paymentStatus, { timeout: 15_000, interval: 250 })
    .toBe(3);
}
