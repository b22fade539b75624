import ExcelJS from 'exceljs';
import {
  earningsMonthOf,
  ledgerAccount,
  slaCreditPosting,
  type EarningsPage,
  type Invoice,
  type InvoiceConfig,
  type InvoicesPage,
} from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, ledgerEntries, ledgerTxns } from '../../db/schema.js';
import { makeMember, makeOrganization, unique, type BuiltMember } from '../../test/factories.js';
import { balanceOf, postTxn } from '../ledger/index.js';
import { paidByCredit, paidByWeixin, startPayWorld, type PayWorld } from './payments.fixture.js';

/**
 * The invoice list (invoices/page-query) and the expert organization's earnings statement
 * (earnings/page-query, earnings/export-excel), issue 24: scoped to the organization named, its
 * readers checked first; the statement's figures are sums of the ledger, checked against it.
 */
let w: PayWorld;
let sellers: { bucketId: string; groupId: string };
let sellerAdmin: BuiltMember;
const DAY = 86_400_000;
const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
const from = chinaDay(Date.now() - 40 * DAY);
const to = chinaDay(Date.now() + DAY);

beforeAll(async () => {
  w = await startPayWorld();
  // An expert organization of its own group, so its ledger account holds only this file's postings.
  sellers = await makeOrganization(w.t, { name: '影像专家中心', group: { displayName: unique('专家') } });
  sellerAdmin = await makeMember(w.t, sellers.bucketId, { actions: ['payment_refund', 'issue_invoice'] });
});
afterAll(async () => {
  await w.close();
});

const statement = (bucketId: string, body: object, as = sellerAdmin.token) =>
  w.t.as(as).post(`earnings/page-query?bucketId=${bucketId}`, body);

describe('earnings/page-query and export-excel', () => {
  let a: { orderId: string; paymentNo: string };
  let b: { orderId: string };
  beforeAll(async () => {
    a = await paidByWeixin(w, { targetBucketId: sellers.bucketId });
    b = await paidByCredit(w, { targetBucketId: sellers.bucketId, priceFen: 3_050 });
    const refund = await w.t.call('POST', `payments/${a.paymentNo}/refund`, {
      token: sellerAdmin.token,
      headers: { 'idempotency-key': unique('earn-refund-') },
      body: { amountFen: 5_000, reason: '部分退款' },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    // The turnaround sweep's posting for a breached order (orders/turnaround.service.ts).
    await postTxn(w.db, {
      kind: 'sla_credit',
      ref: b.orderId,
      groupId: w.clinic.groupId,
      orderId: b.orderId,
      lines: slaCreditPosting({
        buyerGroupId: w.clinic.groupId,
        expertBucketId: sellers.bucketId,
        amountFen: 610,
        currency: 'CNY',
      }),
    });
  });

  it('sums the revenue account per month: gross − refunds − turnaround credits = net, as the ledger has it', async () => {
    const res = await statement(sellers.bucketId, { from, to });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as EarningsPage;
    expect(page.totals).toEqual([
      { currency: 'CNY', orders: 2, grossFen: 15_050, refundsFen: 5_000, creditsFen: 610, netFen: 9_440 },
    ]);
    // The net is minus the account's balance (a credit account), read by the ledger face itself.
    expect(-(await balanceOf(w.db, ledgerAccount.revenue(sellers.bucketId), 'CNY'))).toBe(9_440);
    expect(page.months.map((m) => m.month)).toEqual([earningsMonthOf(new Date())]);
    expect(page.months[0]).toMatchObject(page.totals[0]!);
    expect(page.count).toBe(2);
    const byOrder = new Map(page.data.map((l) => [l.orderId, l]));
    expect(byOrder.get(a.orderId)).toMatchObject({
      grossFen: 12_000,
      refundsFen: 5_000,
      creditsFen: 0,
      netFen: 7_000,
      requestBucketName: '县医院放射科',
      productName: 'CT 专家读片',
    });
    expect(byOrder.get(b.orderId)).toMatchObject({ grossFen: 3_050, refundsFen: 0, creditsFen: 610, netFen: 2_440 });
    const one = (await statement(sellers.bucketId, { from, to, limit: 1, skip: 1 })).json() as EarningsPage;
    expect([one.data.length, one.count, one.data[0]!.orderId]).toEqual([1, 2, page.data[1]!.orderId]);
    // A range with nothing posted.
    const empty = (await statement(sellers.bucketId, { from: '2020-01-01', to: '2020-01-31' })).json() as EarningsPage;
    expect([empty.months, empty.totals, empty.data, empty.count]).toEqual([[], [], [], 0]);
  });

  it("another organization's statement is 404 or 403; bad input is 400", async () => {
    // w.admin holds payment_refund at the other expert centre, not here: it cannot see this one.
    expect((await statement(sellers.bucketId, { from, to }, w.admin.token)).statusCode).toBe(404);
    expect((await statement(sellers.bucketId, { from, to }, w.orderer.token)).statusCode).toBe(404);
    const reader = await makeMember(w.t, sellers.bucketId, { actions: ['exam_get'] });
    expect((await statement(sellers.bucketId, { from, to }, reader.token)).statusCode).toBe(403);
    const exported = await w.t
      .as(reader.token)
      .get(`earnings/export-excel?bucketId=${sellers.bucketId}&from=${from}&to=${to}`);
    expect(exported.statusCode).toBe(403);
    // The other centre's own statement holds none of these orders.
    const theirs = (await statement(w.experts.bucketId, { from, to }, w.admin.token)).json() as EarningsPage;
    expect(theirs.count).toBe(0);
    for (const body of [
      { from: to, to: from },
      { from: '2025-01-01', to: '2026-01-02' },
      { from: '2026-13-01', to: '2026-12-31' },
      { from },
      { from, to, limit: 0 },
      { from, to, extra: 1 },
    ]) {
      expect((await statement(sellers.bucketId, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('exports the months and the orders as .xlsx, audited; more than 1,000 orders is refused', async () => {
    const res = await w.t
      .as(sellerAdmin.token)
      .get(`earnings/export-excel?bucketId=${sellers.bucketId}&from=${from}&to=${to}&language=en`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['x-export-count']).toBe('2');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const months = book.getWorksheet('months')!;
    expect(months.getRow(1).values).toEqual([
      undefined,
      'Month',
      'Orders',
      'Currency',
      'Gross (yuan)',
      'Refunds (yuan)',
      'Turnaround credits (yuan)',
      'Net (yuan)',
    ]);
    expect(months.getRow(2).getCell(7).value).toBe('94.40');
    expect(book.getWorksheet('orders')!.rowCount).toBe(3);
    const trail = await w.db.select().from(auditLogs).where(eq(auditLogs.action, 'earnings.exported'));
    expect(trail.map((r) => [r.bucketId, r.actorId])).toEqual([[sellers.bucketId, sellerAdmin.accountId]]);

    const busy = await makeOrganization(w.t, { name: '繁忙专家中心', group: { displayName: unique('专家') } });
    const busyAdmin = await makeMember(w.t, busy.bucketId, { level: 'admin' });
    const now = new Date();
    const txns = Array.from({ length: 1_001 }, (_, i) => ({
      id: unique('txn-'),
      kind: 'payment',
      ref: unique(`busy-${i}-`),
      orderId: unique('ord-'),
      created: now,
    }));
    await w.db.insert(ledgerTxns).values(txns);
    await w.db.insert(ledgerEntries).values(
      txns.flatMap((t) => [
        { id: unique('e-'), txnId: t.id, account: 'cash:weixin', amountFen: 100, currency: 'CNY', created: now },
        {
          id: unique('e-'),
          txnId: t.id,
          account: ledgerAccount.revenue(busy.bucketId),
          amountFen: -100,
          currency: 'CNY',
          created: now,
        },
      ]),
    );
    const over = await w.t
      .as(busyAdmin.token)
      .get(`earnings/export-excel?bucketId=${busy.bucketId}&from=${from}&to=${to}`);
    expect([over.statusCode, over.json().code, over.json().details]).toEqual([
      400,
      'ExportLimitExceeded',
      { count: 1_001, limit: 1_000 },
    ]);
    const page = (await statement(busy.bucketId, { from, to }, busyAdmin.token)).json() as EarningsPage;
    expect(page.totals).toEqual([
      { currency: 'CNY', orders: 1_001, grossFen: 100_100, refundsFen: 0, creditsFen: 0, netFen: 100_100 },
    ]);
  });
});

describe('invoices/page-query', () => {
  let invoice: Invoice;
  const list = (bucketId: string, side: string, body: object, as: string) =>
    w.t.as(as).post(`invoices/page-query?bucketId=${bucketId}&side=${side}`, body);
  beforeAll(async () => {
    const expertsAdmin = await makeMember(w.t, w.experts.bucketId, { level: 'admin' });
    const config = (await w.t.as(expertsAdmin.token).get(`buckets/${w.experts.bucketId}/invoice-config`)).json();
    const saved = await w.t.as(expertsAdmin.token).put(`buckets/${w.experts.bucketId}/invoice-config`, {
      supportsInvoice: true,
      version: (config as InvoiceConfig).version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const paid = await paidByWeixin(w);
    const applied = await w.t
      .as(w.orderer.token)
      .post('payments/apply-invoice', { orderIds: [paid.orderId], title: '县医院', phone: '13812345678' });
    expect(applied.statusCode, applied.body).toBe(201);
    invoice = applied.json() as Invoice;
  });

  it("lists the applicant's and the issuer's invoices with their orders and status", async () => {
    const mine = await list(w.clinic.bucketId, 'applicant', {}, w.orderer.token);
    expect(mine.statusCode, mine.body).toBe(200);
    const page = mine.json() as InvoicesPage;
    expect(page.count).toBe(1);
    expect(page.data[0]).toMatchObject({
      id: invoice.id,
      status: 'applied',
      title: '县医院',
      amountFen: 12_000,
      expertBucketName: '远程专家中心',
      requestBucketName: '县医院放射科',
      orderIds: invoice.orderIds,
    });
    expect(page.data[0]!.orders.map((o) => o.id)).toEqual(invoice.orderIds);
    const toIssue = (await list(w.experts.bucketId, 'issuer', {}, w.admin.token)).json() as InvoicesPage;
    expect(toIssue.data.map((i) => i.id)).toEqual([invoice.id]);
    const issued = await w.t
      .as(w.admin.token)
      .post('payments/issue-invoice', { invoiceId: invoice.id, invoiceNo: 'FP-LIST-1' });
    expect(issued.statusCode).toBe(200);
    const after = (await list(w.clinic.bucketId, 'applicant', {}, w.orderer.token)).json() as InvoicesPage;
    expect(after.data[0]).toMatchObject({ status: 'issued', invoiceNo: 'FP-LIST-1' });
    const stillApplied = await list(w.experts.bucketId, 'issuer', { filters: { status: 'applied' } }, w.admin.token);
    expect((stillApplied.json() as InvoicesPage).count).toBe(0);
  });

  it("never shows another organization's invoices; readers are checked first; bad input is 400", async () => {
    const otherClinic = await makeOrganization(w.t, { name: '另一医院', group: { displayName: unique('另一') } });
    const otherOrderer = await makeMember(w.t, otherClinic.bucketId, { actions: ['apply_expert_report'] });
    const own = (await list(otherClinic.bucketId, 'applicant', {}, otherOrderer.token)).json() as InvoicesPage;
    expect([own.count, own.data]).toEqual([0, []]);
    expect((await list(w.clinic.bucketId, 'applicant', {}, otherOrderer.token)).statusCode).toBe(404);
    expect((await list(w.experts.bucketId, 'issuer', {}, otherOrderer.token)).statusCode).toBe(404);
    expect((await list(w.clinic.bucketId, 'applicant', {}, w.admin.token)).statusCode).toBe(404);
    expect((await list(w.experts.bucketId, 'issuer', {}, w.orderer.token)).statusCode).toBe(404);
    expect((await list(w.clinic.bucketId, 'applicant', {}, w.bystander.token)).statusCode).toBe(403);
    const refunder = await makeMember(w.t, w.experts.bucketId, { actions: ['payment_refund'] });
    expect((await list(w.experts.bucketId, 'issuer', {}, refunder.token)).statusCode).toBe(403);
    // The clinic's orderer asking for the clinic's side as issuer: it issues nothing and may not look.
    expect((await list(w.clinic.bucketId, 'issuer', {}, w.orderer.token)).statusCode).toBe(403);
    for (const [side, body] of [
      ['payer', {}],
      ['applicant', { limit: 0 }],
      ['applicant', { filters: { status: 'none' } }],
      ['applicant', { filters: { orderNo: 'x' } }],
    ] as const) {
      expect((await list(w.clinic.bucketId, side, body, w.orderer.token)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});
