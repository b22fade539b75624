import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import type { ChargeCreated, PaymentsPage, PrePaidOrder } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTxns, orders, payments, refunds } from '../../db/schema.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import {
  creditToken,
  makeOrder,
  paidByCredit,
  paidByWeixin,
  startPayWorld,
  topUp,
  type PayWorld,
} from './payments.fixture.js';

/**
 * payments/page-query and export-excel (spec 001 §7; orders page 10, export ≤ 1000): the payer's
 * and the experts' views, scoped to the organization; and a payment that finds its order already
 * paid (a QR paid after the balance paid) is settled and refunded in full automatically.
 */
let w: PayWorld;
let weixin: { orderId: string; paymentNo: string };
let credit: { orderId: string };
let pendingNo: string;
beforeAll(async () => {
  w = await startPayWorld();
  weixin = await paidByWeixin(w, { priceFen: 30_000 });
  w.t.clock.advance(1000);
  credit = await paidByCredit(w, { priceFen: 500 });
  w.t.clock.advance(1000);
  const open = await makeOrder(w);
  const charge = (
    await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: open.id })
  ).json() as ChargeCreated;
  pendingNo = (
    (
      await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, {
        headers: { authorization: `Charge ${charge.token}` },
      })
    ).json() as PrePaidOrder
  ).paymentNo;
});
afterAll(async () => {
  await w.close();
});

const page = (side: 'payer' | 'expert', body: unknown, as = w.orderer.token, bucketId = w.clinic.bucketId) =>
  w.t.as(as).post(`payments/page-query?bucketId=${bucketId}&side=${side}`, body);

describe('payments/page-query', () => {
  it('shows the payer its payments, newest first, ten a page, with filters and sorts', async () => {
    const res = await page('payer', {});
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json() as PaymentsPage;
    expect(all.count).toBe(3);
    expect(all.data.map((p) => p.paymentNo)[0]).toBe(pendingNo);
    expect(all.data.find((p) => p.paymentNo === weixin.paymentNo)).toMatchObject({
      orderId: weixin.orderId,
      channel: 'weixin',
      amountFen: 30_000,
      status: 'paid',
      paymentStatus: 1,
      invoiceStatus: 'none',
      expertBucketId: w.experts.bucketId,
    });
    const byCredit = (await page('payer', { filters: { channel: 'credit' } })).json() as PaymentsPage;
    expect(byCredit.data.map((p) => p.orderId)).toEqual([credit.orderId]);
    const cheap = (
      await page('payer', { sorts: [{ field: 'amountFen', order: 'asc' }], limit: 1 })
    ).json() as PaymentsPage;
    expect([cheap.count, cheap.data.map((p) => p.amountFen)]).toEqual([3, [500]]);
    const byNo = (await page('payer', { filters: { no: weixin.paymentNo } })).json() as PaymentsPage;
    expect(byNo.data).toHaveLength(1);
    expect((await page('payer', { limit: 101 })).statusCode).toBe(400);
  });

  it('shows the experts only the payments paid to them', async () => {
    const res = (await page('expert', {}, w.admin.token, w.experts.bucketId)).json() as PaymentsPage;
    expect(res.data.map((p) => p.status)).toEqual(['paid', 'paid']);
    expect(new Set(res.data.map((p) => p.orderId))).toEqual(new Set([weixin.orderId, credit.orderId]));
  });

  it("refuses who holds no order action there, and another group's organization", async () => {
    expect((await page('payer', {}, w.bystander.token)).statusCode).toBe(403);
    expect((await page('expert', {}, w.orderer.token)).statusCode).toBe(403);
    expect((await page('payer', {}, w.admin.token)).statusCode).toBe(404);
    const other = await makeOrganization(w.t);
    const stranger = await makeMember(w.t, other.bucketId, { level: 'admin', groupLevel: 1 });
    const res = await page('payer', {}, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(weixin.paymentNo);
  });
});

describe('payments/export-excel', () => {
  it('writes the payments as .xlsx', async () => {
    const res = await w.t
      .as(w.orderer.token)
      .get(`payments/export-excel?bucketId=${w.clinic.bucketId}&side=payer&language=en`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['x-export-count']).toBe('3');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('payments')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Payment no.');
    const amounts = [2, 3, 4].map((r) => sheet.getRow(r).getCell(5).value);
    expect(amounts).toContain('300.00');
    expect(amounts).toContain('5.00');
  });

  it('refuses more than 1,000 (ExportLimitExceeded)', async () => {
    const now = w.t.clock.now();
    const rows = Array.from({ length: 1_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      paymentNo: `YPBULK${String(i).padStart(8, '0')}`,
      purpose: 'order',
      groupId: w.clinic.groupId,
      bucketId: w.clinic.bucketId,
      channel: 'weixin',
      amountFen: 100,
      created: now,
    }));
    await w.db.insert(payments).values(rows);
    const res = await w.t.as(w.orderer.token).get(`payments/export-excel?bucketId=${w.clinic.bucketId}&side=payer`);
    expect([res.statusCode, res.json().code, res.json().details]).toEqual([
      400,
      'ExportLimitExceeded',
      { count: 1_003, limit: 1_000 },
    ]);
  });
});

describe('a QR paid after the balance paid the order', () => {
  it('settles the QR payment and refunds it in full, the order staying paid by the balance', async () => {
    const order = await makeOrder(w);
    const charge = (
      await w.t.as(w.orderer.token).post('charge/apply-charge', { orderId: order.id })
    ).json() as ChargeCreated;
    const qr = (
      await w.t.call('GET', `charge/${charge.id}/pre-paid-order`, {
        headers: { authorization: `Charge ${charge.token}` },
      })
    ).json() as PrePaidOrder;
    // The balance pays while the QR's close is lost on the way: WeChat still takes the scan.
    await topUp(w, 12_000);
    const closeOrder = w.wechat.provider!.closeOrder;
    w.wechat.provider!.closeOrder = () => Promise.reject(new Error('lost'));
    try {
      const res = await w.t.call('POST', 'credits/charge', {
        token: w.orderer.token,
        headers: { 'charge-authorization': `Bearer ${await creditToken(w, order.id, 12_000)}` },
        body: { orderId: order.id },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      w.wechat.provider!.closeOrder = closeOrder;
    }
    expect((await w.wechat.simulator!.pay(qr.codeUrl!)).map((d) => d.status)).toEqual([200]);
    await w.wechat.simulator!.whenIdle();
    const [row] = await w.db.select().from(orders).where(eq(orders.id, order.id));
    expect([row!.paymentStatus, row!.channel, row!.refundedFen]).toEqual([1, 'credit', 0]);
    const [back] = await w.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect([back!.amountFen, back!.status, back!.reason]).toEqual([12_000, 'success', 'duplicate payment']);
    const posted = await w.db
      .select()
      .from(ledgerTxns)
      .where(and(eq(ledgerTxns.orderId, order.id)));
    expect(posted.map((t) => t.kind).sort()).toEqual(['payment', 'payment', 'refund']);
  });
});
