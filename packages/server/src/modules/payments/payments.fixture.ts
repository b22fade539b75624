import { topupPosting, type ChargeCreated, type Currency, type PrePaidOrder } from '@yyp/contracts';
import { orders, products } from '../../db/schema.js';
import { startWechatPay, type WechatPayRuntime } from '../../platform/wechatpay/index.js';
import { makeExam, makeMember, makeOrganization, unique, type BuiltMember } from '../../test/factories.js';
import { startTestApp, TestClock, type TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';
import { issueCreditToken, postTxn } from '../ledger/index.js';

/**
 * Test support of the payments module: an app with WeChat Pay's loopback simulator (the real
 * adapter, signatures and AEAD included) listening on a port, so the simulator's notifications reach
 * it; a county clinic (its orderer) and an expert centre of another group (its order admin with
 * payment_refund and issue_invoice), the payment service on; orders inserted as the orders module
 * would make them, each on an exam of its own.
 */
export interface PayWorld {
  t: TestApp;
  wechat: WechatPayRuntime;
  base: string;
  clinic: { bucketId: string; groupId: string };
  experts: { bucketId: string; groupId: string };
  orderer: BuiltMember;
  /** the expert centre's order admin */
  admin: BuiltMember;
  /** a member of the clinic with no order action */
  bystander: BuiltMember;
  db: TestApp['db']['database']['db'];
  close(): Promise<void>;
}

export async function startPayWorld(): Promise<PayWorld> {
  // One clock for the app and the simulator: QR expiry and signature timestamps agree.
  const clock = new TestClock(Date.now());
  const wechat = await startWechatPay(
    { mode: 'sim', live: undefined, simRefundDelayMs: 0 },
    { retryDelaysMs: [], now: () => clock.now() },
  );
  let base = '';
  const t = await startTestApp({
    seed: false,
    clock,
    app: {
      wechatPay: {
        channel: {
          provider: wechat.provider!,
          apiBaseUrl: () => `${base}/yyp/api/v1`,
          scanUrl: (codeUrl) => wechat.simulator!.scanUrl(codeUrl),
        },
        close: () => wechat.close(),
      },
    },
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const db = t.db.database.db;
  await updateDomainConfig(db, { enablePaymentService: true }, t.clock.now());
  const clinic = await makeOrganization(t, { name: '县医院放射科', group: { displayName: unique('县医院') } });
  const experts = await makeOrganization(t, { name: '远程专家中心', group: { displayName: unique('专家集团') } });
  const orderer = await makeMember(t, clinic.bucketId, { actions: ['apply_expert_report', 'apply_remote_report'] });
  const bystander = await makeMember(t, clinic.bucketId, { actions: ['exam_get'] });
  const admin = await makeMember(t, experts.bucketId, { actions: ['payment_refund', 'issue_invoice'] });
  return { t, wechat, base, clinic, experts, orderer, admin, bystander, db, close: () => t.close() };
}

/** An unpaid expert-read order of the clinic with the expert centre (a product of 2 h turnaround). */
export async function makeOrder(
  w: PayWorld,
  o: { priceFen?: number; currency?: Currency; type?: 'expert' | 'remote'; targetBucketId?: string } = {},
): Promise<{ id: string; orderNo: string; examId: string }> {
  const { examId } = await makeExam(w.t, w.clinic.bucketId);
  const productId = unique('prd-');
  const target = o.targetBucketId ?? w.experts.bucketId;
  await w.db.insert(products).values({
    id: productId,
    bucketId: target,
    name: 'CT 专家读片',
    priceFen: o.priceFen ?? 12_000,
    currency: o.currency ?? 'CNY',
    turnaroundMinutes: 120,
  });
  const id = unique('ord-');
  const orderNo = unique('RQ');
  await w.db.insert(orders).values({
    id,
    orderNo,
    type: o.type ?? 'expert',
    groupId: w.clinic.groupId,
    requestBucketId: w.clinic.bucketId,
    targetBucketId: target,
    examId,
    productId,
    productName: 'CT 专家读片',
    priceFen: o.priceFen ?? 12_000,
    currency: o.currency ?? 'CNY',
    patientName: '王晓东',
  });
  return { id, orderNo, examId };
}

/** The clinic's group balance topped up (as a platform admin's manual top-up posts it). */
export async function topUp(w: PayWorld, amountFen: number): Promise<void> {
  await postTxn(w.db, {
    kind: 'topup',
    ref: unique('topup-'),
    groupId: w.clinic.groupId,
    lines: topupPosting({ source: 'manual', groupId: w.clinic.groupId, amountFen, currency: 'CNY' }),
  });
}

/** A credits/create-token bearer of the orderer for the order (as H1's route issues it). */
export async function creditToken(w: PayWorld, orderId: string, amountFen: number): Promise<string> {
  const { token } = await issueCreditToken(w.db, {
    groupId: w.clinic.groupId,
    bucketId: w.clinic.bucketId,
    accountId: w.orderer.accountId,
    orderId,
    amountFen,
    currency: 'CNY',
    now: w.t.clock.now(),
  });
  return token;
}

/** An order paid by scanning the simulator's QR (its notification settled it). */
export async function paidByWeixin(
  w: PayWorld,
  o: Parameters<typeof makeOrder>[1] = {},
): Promise<{ orderId: string; paymentNo: string }> {
  const order = await makeOrder(w, o);
  const charge = (
    await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id })
  ).json() as ChargeCreated;
  const qr = (
    await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, {
      headers: { authorization: `Charge ${charge.token}` },
    })
  ).json() as PrePaidOrder;
  const deliveries = await w.wechat.simulator!.pay(qr.codeUrl!);
  if (deliveries[0]?.status !== 200) {
    throw new Error(`payment of ${order.id} not settled: ${JSON.stringify(deliveries)}`);
  }
  return { orderId: order.id, paymentNo: qr.paymentNo };
}

/** An order paid from the clinic's balance (topped up for it). */
export async function paidByCredit(w: PayWorld, o: Parameters<typeof makeOrder>[1] = {}): Promise<{ orderId: string }> {
  const order = await makeOrder(w, o);
  const priceFen = o.priceFen ?? 12_000;
  await topUp(w, priceFen);
  const res = await w.t.call('POST', 'credits/charge', {
    token: w.orderer.token,
    headers: { 'charge-authorization': `Bearer ${await creditToken(w, order.id, priceFen)}` },
    body: { orderId: order.id },
  });
  if (res.statusCode !== 200) throw new Error(`credit payment of ${order.id} failed: ${res.body}`);
  return { orderId: order.id };
}
