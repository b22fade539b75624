import {
  ledgerAccount,
  PLAN_PACKAGES,
  TOPUP_MAX_FEN,
  type ChargeCreated,
  type ChargeStatus,
  type OwnCharges,
  type PlanCheck,
  type PrePaidOrder,
} from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, buckets, ledgerEntries, ledgerTxns, payments } from '../../db/schema.js';
import {
  joinOrganization,
  makeAccount,
  makeGroupMember,
  makeMember,
  makeOrganization,
  unique,
  type BuiltAccount,
} from '../../test/factories.js';
import { balanceOf, groupCreditBalance } from '../ledger/index.js';
import { makeOrder, startPayWorld, type PayWorld } from './payments.fixture.js';

/**
 * WeChat top-ups of a group's balance and plan packages bought for private organizations (issue 24
 * /settings/billing), and charge/request: each opens a charge (purpose topup / plan) whose
 * notification settles it exactly once — five deliveries at once, on PostgreSQL real parallel
 * requests — posting the ledger once (the balance is the ledger's sum) and applying the plan once.
 */
let w: PayWorld;
let groupId: string;
let groupAdmin: BuiltAccount;
let groupMember: BuiltAccount;
let otherAdmin: BuiltAccount;
let offAdmin: BuiltAccount;
let offGroupId: string;
let privateOrg: string;
let publicOrg: string;
let orgAdmin: BuiltAccount;
let orgMember: BuiltAccount;
let refunder: BuiltAccount;

const sim = () => w.wechat.simulator!;
const day = 86_400_000;

beforeAll(async () => {
  w = await startPayWorld();
  const hospital = await makeOrganization(w.t, {
    name: '仁和放射科',
    group: { displayName: unique('仁和'), settings: { enableCredit: true } },
  });
  groupId = hospital.groupId;
  publicOrg = hospital.bucketId;
  privateOrg = (
    await makeOrganization(w.t, {
      groupId,
      name: '仁和体检中心',
      isPrivate: true,
      plan: { kind: 'period', quota: 100, expiresAt: new Date(w.t.clock.now().getTime() - day) },
    })
  ).bucketId;
  await w.db.update(buckets).set({ planUsed: 40 }).where(eq(buckets.id, privateOrg));
  groupAdmin = await makeGroupMember(w.t, groupId, 1);
  groupMember = await makeGroupMember(w.t, groupId, 0);
  orgAdmin = await makeAccount(w.t);
  await joinOrganization(w.t, privateOrg, orgAdmin.accountId, { level: 'admin' });
  orgMember = await makeMember(w.t, privateOrg, { actions: ['exam_get'] });
  refunder = await makeMember(w.t, privateOrg, { actions: ['payment_refund'] });
  otherAdmin = await makeGroupMember(w.t, w.clinic.groupId, 1);
  const off = await makeOrganization(w.t, { group: { displayName: unique('无余额集团') } });
  offGroupId = off.groupId;
  offAdmin = await makeGroupMember(w.t, offGroupId, 1);
});
afterAll(async () => {
  await w.close();
});

const auth = (c: ChargeCreated) => ({ headers: { authorization: `Charge ${c.token}` } });

async function qrOf(c: ChargeCreated): Promise<PrePaidOrder> {
  const res = await w.t.call('GET', `charge/${c.id}/pre-paid-order`, auth(c));
  expect(res.statusCode).toBe(200);
  return res.json() as PrePaidOrder;
}

/** Paid at the simulator while its notification could not reach us. */
async function payUnnotified(qr: PrePaidOrder): Promise<void> {
  sim().setNotifyOrigin('http://127.0.0.1:9');
  try {
    expect((await sim().pay(qr.codeUrl!)).map((d) => d.status)).toEqual([null]);
  } finally {
    sim().setNotifyOrigin(undefined);
  }
}

async function topUpCharge(token: string, body: unknown) {
  return w.t.as(token).post('credits/weixin-top-up', body);
}

async function txns(kind: string, ref: string) {
  return w.db
    .select()
    .from(ledgerTxns)
    .where(and(eq(ledgerTxns.kind, kind), eq(ledgerTxns.ref, ref)));
}

async function audits(action: string, targetId: string) {
  return (await w.db.select().from(auditLogs).where(eq(auditLogs.action, action))).filter(
    (r) => r.targetId === targetId,
  );
}

const paymentCount = async () => (await w.db.select({ id: payments.id }).from(payments)).length;

async function balanceShown(): Promise<number> {
  const res = await w.t.as(groupAdmin.token).get(`credits/group-credit?groupId=${groupId}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { amountFen: number }).amountFen;
}

describe('a WeChat top-up of the group balance', () => {
  it('five notifications at once settle it once; the balance rises by the amount and is the ledger sum', async () => {
    const before = await balanceShown();
    const res = await topUpCharge(groupAdmin.token, { groupId, amountFen: 10_000 });
    expect(res.statusCode).toBe(201);
    const charge = res.json() as ChargeCreated;
    const qr = await qrOf(charge);
    expect([qr.amountFen, qr.currency, qr.expired]).toEqual([10_000, 'CNY', false]);
    await payUnnotified(qr);
    expect(await balanceShown()).toBe(before);
    const deliveries = await sim().notifyTransaction(qr.paymentNo, { times: 5 });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    const posted = await txns('topup', qr.paymentNo);
    expect(posted).toHaveLength(1);
    const lines = await w.db.select().from(ledgerEntries).where(eq(ledgerEntries.txnId, posted[0]!.id));
    expect(lines.map((l) => [l.account, l.amountFen]).sort()).toEqual(
      [
        [ledgerAccount.cashWeixin, 10_000],
        [ledgerAccount.groupCredit(groupId), -10_000],
      ].sort(),
    );
    expect(await audits('payment.topup_paid', qr.paymentNo)).toHaveLength(1);
    expect(await balanceShown()).toBe(before + 10_000);
    expect(await groupCreditBalance(w.db, groupId, 'CNY')).toBe(before + 10_000);
    const status = (await w.t.call('GET', `charge/${charge.id}/payment-status`, auth(charge))).json() as ChargeStatus;
    expect([status.status, status.paymentStatus]).toEqual(['paid', 1]);
    // A paid charge has no QR to show any more.
    expect((await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, auth(charge))).statusCode).toBe(409);
  });

  it('paid-confirm settles an unnotified top-up; the late notification changes nothing', async () => {
    const before = await balanceShown();
    const charge = (await topUpCharge(groupAdmin.token, { groupId, amountFen: 250 })).json() as ChargeCreated;
    const qr = await qrOf(charge);
    await payUnnotified(qr);
    const confirmed = (await w.t.call('POST', `charge/${charge.id}/paid-confirm`, auth(charge))).json() as ChargeStatus;
    expect([confirmed.status, confirmed.paymentStatus]).toEqual(['paid', 1]);
    expect((await sim().notifyTransaction(qr.paymentNo, { times: 2 })).map((d) => d.status)).toEqual([200, 200]);
    expect(await txns('topup', qr.paymentNo)).toHaveLength(1);
    expect(await balanceShown()).toBe(before + 250);
  });

  it('refuses bad amounts (400), a member (403), another group (404), a group with credit off (403): nothing made', async () => {
    const count = await paymentCount();
    for (const amountFen of [0, -100, 99, TOPUP_MAX_FEN + 1, 150.5]) {
      const res = await topUpCharge(groupAdmin.token, { groupId, amountFen });
      expect([amountFen, res.statusCode, res.json().code]).toEqual([amountFen, 400, 'ValidationError']);
    }
    expect((await topUpCharge(groupAdmin.token, { groupId })).statusCode).toBe(400);
    expect((await topUpCharge(groupAdmin.token, { groupId, amountFen: 100, extra: 1 })).statusCode).toBe(400);
    const member = await topUpCharge(groupMember.token, { groupId, amountFen: 100 });
    expect([member.statusCode, member.json().code]).toEqual([403, 'InsufficientPermissions']);
    expect((await topUpCharge(otherAdmin.token, { groupId, amountFen: 100 })).statusCode).toBe(404);
    expect((await topUpCharge(groupAdmin.token, { groupId: 'no-such-group', amountFen: 100 })).statusCode).toBe(404);
    const off = await topUpCharge(offAdmin.token, { groupId: offGroupId, amountFen: 100 });
    expect([off.statusCode, off.json().details?.action]).toEqual([403, 'enableCredit']);
    expect((await w.t.call('POST', 'credits/weixin-top-up', { body: { groupId, amountFen: 100 } })).statusCode).toBe(
      401,
    );
    expect(await paymentCount()).toBe(count);
  });

  it('a top-up is not refunded through payments/{no}/refund: nothing changes', async () => {
    const charge = (await topUpCharge(groupAdmin.token, { groupId, amountFen: 300 })).json() as ChargeCreated;
    const qr = await qrOf(charge);
    expect((await sim().pay(qr.codeUrl!))[0]?.status).toBe(200);
    const before = await balanceShown();
    for (const token of [groupAdmin.token, w.admin.token]) {
      const res = await w.t.call('POST', `payments/${qr.paymentNo}/refund`, {
        token,
        headers: { 'idempotency-key': unique('refund-key-') },
        body: { amountFen: 100, reason: '退回充值' },
      });
      expect(res.statusCode).toBe(404);
    }
    expect(await balanceShown()).toBe(before);
  });
});

describe('buying a plan package', () => {
  const buy = (token: string, body: unknown) => w.t.as(token).post('packages/buy', body);
  const planOf = async () => (await w.db.select().from(buckets).where(eq(buckets.id, privateOrg)))[0]!;

  async function buyAndPay(packageId: string, times: number): Promise<PrePaidOrder> {
    const res = await buy(orgAdmin.token, { bucketId: privateOrg, packageId });
    expect(res.statusCode).toBe(201);
    const qr = await qrOf(res.json() as ChargeCreated);
    expect(qr.amountFen).toBe(PLAN_PACKAGES.find((p) => p.id === packageId)!.priceFen);
    await payUnnotified(qr);
    const deliveries = await sim().notifyTransaction(qr.paymentNo, { times });
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    return qr;
  }

  it('a period package on an expired plan: a new year from payment, quota from the used count, once', async () => {
    const blocked = (await w.t.as(orgAdmin.token).get(`plans/check?bucketId=${privateOrg}`)).json() as PlanCheck;
    expect([blocked.available, blocked.blocked]).toEqual([false, 'SubscriptionExpired']);
    const earnings = await balanceOf(w.db, ledgerAccount.platformPlans, 'CNY');
    const qr = await buyAndPay('period-1000-1y', 5);
    const paidAt = (await w.db.select().from(payments).where(eq(payments.paymentNo, qr.paymentNo)))[0]!.paidAt!;
    const plan = await planOf();
    expect([plan.planKind, plan.planQuota, plan.planUsed]).toEqual(['period', 40 + 1000, 40]);
    expect(plan.planExpiresAt!.getTime()).toBe(paidAt.getTime() + 365 * day);
    expect(await txns('plan', qr.paymentNo)).toHaveLength(1);
    expect(await audits('payment.plan_paid', qr.paymentNo)).toHaveLength(1);
    expect(await balanceOf(w.db, ledgerAccount.platformPlans, 'CNY')).toBe(earnings - 300_000);
    const check = (await w.t.as(orgAdmin.token).get(`plans/check?bucketId=${privateOrg}`)).json() as PlanCheck;
    expect([check.available, check.remaining]).toEqual([true, 1000]);
    const available = (await w.t.as(orgAdmin.token).get(`plans/available?bucketId=${privateOrg}`)).json() as unknown[];
    expect(available).toHaveLength(1);
  });

  it("a second period extends from the current plan's end; a one-time package adds its quota", async () => {
    const first = await planOf();
    await buyAndPay('period-1000-1y', 3);
    const second = await planOf();
    expect(second.planExpiresAt!.getTime()).toBe(first.planExpiresAt!.getTime() + 365 * day);
    expect(second.planQuota).toBe(first.planQuota! + 1000);
    await buyAndPay('one-time-100', 2);
    const third = await planOf();
    expect([third.planKind, third.planQuota, third.planExpiresAt?.getTime()]).toEqual([
      'period',
      second.planQuota! + 100,
      second.planExpiresAt!.getTime(),
    ]);
  });

  it('refuses an unknown package, a public organization, a non-admin, another group: nothing made', async () => {
    const count = await paymentCount();
    const unknown = await buy(orgAdmin.token, { bucketId: privateOrg, packageId: 'gold-forever' });
    expect(unknown.statusCode).toBe(400);
    expect((await buy(orgAdmin.token, { bucketId: privateOrg })).statusCode).toBe(400);
    const open = await buy(groupAdmin.token, { bucketId: publicOrg, packageId: 'one-time-100' });
    expect([open.statusCode, open.json().code]).toEqual([409, 'Conflict']);
    expect((await buy(orgMember.token, { bucketId: privateOrg, packageId: 'one-time-100' })).statusCode).toBe(403);
    expect((await buy(otherAdmin.token, { bucketId: privateOrg, packageId: 'one-time-100' })).statusCode).toBe(404);
    expect(await paymentCount()).toBe(count);
  });

  it("a plan's payment is not refundable: 409 PaymentNotRefundable for its organization's refunder", async () => {
    const [row] = await w.db
      .select()
      .from(payments)
      .where(and(eq(payments.purpose, 'plan'), eq(payments.status, 'paid')))
      .limit(1);
    const res = await w.t.call('POST', `payments/${row!.paymentNo}/refund`, {
      token: refunder.token,
      headers: { 'idempotency-key': unique('refund-key-') },
      body: { amountFen: 100, reason: '不要了' },
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'PaymentNotRefundable']);
    const [after] = await w.db.select().from(payments).where(eq(payments.id, row!.id));
    expect(after!.refundedFen).toBe(0);
  });
});

describe('charge/request: the caller’s own charges', () => {
  it('lists only what the caller created, newest first, with what each was for and no patient', async () => {
    const order = await makeOrder(w);
    expect((await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id })).statusCode).toBe(201);
    const mine = (await w.t.as(groupAdmin.token).get('charge/request?limit=100')).json() as OwnCharges;
    const created = await w.db.select().from(payments).where(eq(payments.createdBy, groupAdmin.accountId));
    expect(mine.count).toBe(created.length);
    expect(mine.data.map((c) => c.id).sort()).toEqual(created.map((c) => c.id).sort());
    expect(mine.data.every((c) => c.purpose === 'topup' && c.groupId === groupId)).toBe(true);
    const times = mine.data.map((c) => Date.parse(c.created));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const plans = (await w.t.as(orgAdmin.token).get('charge/request')).json() as OwnCharges;
    expect(plans.data.length).toBeLessThanOrEqual(10);
    expect(plans.data.every((c) => c.purpose === 'plan' && c.bucketId === privateOrg && c.packageId)).toBe(true);
    expect(plans.data[0]!.bucketName).toBe('仁和体检中心');
    const orders = (await w.t.as(w.orderer.token).get('charge/request')).json() as OwnCharges;
    const own = orders.data.find((c) => c.orderId === order.id)!;
    expect([own.purpose, own.orderNo, own.status, own.channel]).toEqual(['order', order.orderNo, 'pending', 'weixin']);
    expect(JSON.stringify(orders)).not.toContain('王晓东');
    expect(((await w.t.as(orgMember.token).get('charge/request')).json() as OwnCharges).count).toBe(0);
  });

  it('pages with limit and skip, and refuses a bad page (400)', async () => {
    const all = (await w.t.as(groupAdmin.token).get('charge/request?limit=100')).json() as OwnCharges;
    const page = (await w.t.as(groupAdmin.token).get('charge/request?limit=1&skip=1')).json() as OwnCharges;
    expect(page.count).toBe(all.count);
    expect(page.data.map((c) => c.id)).toEqual([all.data[1]!.id]);
    for (const q of ['limit=0', 'limit=101', 'skip=-1', 'limit=abc', 'other=1']) {
      expect([q, (await w.t.as(groupAdmin.token).get(`charge/request?${q}`)).statusCode]).toEqual([q, 400]);
    }
    expect((await w.t.call('GET', 'charge/request')).statusCode).toBe(401);
  });
});
