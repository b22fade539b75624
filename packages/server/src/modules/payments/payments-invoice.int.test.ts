import type { Invoice, InvoiceConfig } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, orders } from '../../db/schema.js';
import { makeMember, makeOrganization, type BuiltMember } from '../../test/factories.js';
import { makeOrder, paidByCredit, paidByWeixin, startPayWorld, type PayWorld } from './payments.fixture.js';

/**
 * Invoices (spec 000 §4: none → applied → issued, issued irreversible; §5 every rule, each with its
 * own code; spec 001 §8 the invoice messages) and the expert organization's invoice settings.
 */
let w: PayWorld;
let expertAdmin: BuiltMember;
beforeAll(async () => {
  w = await startPayWorld();
  expertAdmin = await makeMember(w.t, w.experts.bucketId, { level: 'admin' });
});
afterAll(async () => {
  await w.close();
});

const applyBody = (orderIds: string[], phone = '13812345678') => ({
  orderIds,
  title: '县医院',
  taxNo: '91330000',
  phone,
});
const apply = (orderIds: string[], as = w.orderer.token, phone?: string) =>
  w.t.as(as).post('payments/apply-invoice', applyBody(orderIds, phone));
const invoiceStatus = async (id: string) =>
  (await w.db.select().from(orders).where(eq(orders.id, id)))[0]!.invoiceStatus;
const configOf = async (bucketId: string, as = expertAdmin.token) =>
  (await w.t.as(as).get(`buckets/${bucketId}/invoice-config`)).json() as InvoiceConfig;
/** The admin's change, at the version just read. */
const supportInvoices = async (bucketId: string, on: boolean, as = expertAdmin.token) =>
  w.t.as(as).put(`buckets/${bucketId}/invoice-config`, {
    supportsInvoice: on,
    issuerName: '远程专家中心',
    taxNo: '91110000',
    version: (await configOf(bucketId, as)).version,
  });

describe('buckets/{id}/invoice-config', () => {
  it('is off until the organization’s admins turn it on', async () => {
    const before = (await w.t.as(w.admin.token).get(`buckets/${w.experts.bucketId}/invoice-config`)).json();
    expect(before).toMatchObject({ bucketId: w.experts.bucketId, supportsInvoice: false, updated: null, version: 0 });
    const refused = await w.t.as(w.admin.token).put(`buckets/${w.experts.bucketId}/invoice-config`, {
      supportsInvoice: true,
      version: 0,
    });
    expect(refused.statusCode).toBe(403);
    expect((await w.t.as(w.orderer.token).get(`buckets/${w.experts.bucketId}/invoice-config`)).statusCode).toBe(404);
    const put = await supportInvoices(w.experts.bucketId, true);
    expect(put.statusCode).toBe(200);
    expect(put.json() as InvoiceConfig).toMatchObject({
      supportsInvoice: true,
      issuerName: '远程专家中心',
      version: 1,
    });
    expect((await w.t.as(expertAdmin.token).put(`buckets/${w.experts.bucketId}/invoice-config`, {})).statusCode).toBe(
      400,
    );
  });

  it('is changed only at the version read: a stale one answers 409 Conflict and changes nothing', async () => {
    const bucketId = w.experts.bucketId;
    const read = await configOf(bucketId);
    const put = (body: object) => w.t.as(expertAdmin.token).put(`buckets/${bucketId}/invoice-config`, body);
    const first = await put({ supportsInvoice: true, issuerName: '第一次', version: read.version });
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as InvoiceConfig).version).toBe(read.version + 1);
    const trailBefore = (await w.db.select().from(auditLogs).where(eq(auditLogs.targetId, bucketId))).length;
    for (const version of [read.version, 0, read.version + 5]) {
      const stale = await put({ supportsInvoice: false, issuerName: '过期的修改', version });
      expect([stale.statusCode, stale.json().code], String(version)).toEqual([409, 'Conflict']);
    }
    for (const bad of [
      { supportsInvoice: false },
      { supportsInvoice: false, version: -1 },
      { supportsInvoice: false, version: '1' },
    ]) {
      expect((await put(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await configOf(bucketId)).toMatchObject({
      supportsInvoice: true,
      issuerName: '第一次',
      version: read.version + 1,
    });
    expect((await w.db.select().from(auditLogs).where(eq(auditLogs.targetId, bucketId))).length).toBe(trailBefore);
    // A first save (version 0) of an organization with no settings yet.
    const fresh = await makeOrganization(w.t, { groupId: w.experts.groupId, name: '新专家中心' });
    const freshAdmin = await makeMember(w.t, fresh.bucketId, { level: 'admin' });
    const created = await supportInvoices(fresh.bucketId, true, freshAdmin.token);
    expect([created.statusCode, (created.json() as InvoiceConfig).version]).toEqual([200, 1]);
  });
});

describe('payments/apply-invoice and issue-invoice', () => {
  it('applies over paid WeChat orders of one expert organization, then issues once', async () => {
    await supportInvoices(w.experts.bucketId, true);
    const a = await paidByWeixin(w);
    const b = await paidByWeixin(w, { priceFen: 3_050 });
    const res = await apply([a.orderId, b.orderId, a.orderId]);
    expect(res.statusCode, res.body).toBe(201);
    const invoice = res.json() as Invoice;
    expect(invoice).toMatchObject({
      bucketId: w.experts.bucketId,
      requestBucketId: w.clinic.bucketId,
      status: 'applied',
      amountFen: 15_050,
      currency: 'CNY',
      phone: '13812345678',
      invoiceNo: null,
    });
    expect(invoice.orderIds).toEqual([a.orderId, b.orderId].sort());
    expect([await invoiceStatus(a.orderId), await invoiceStatus(b.orderId)]).toEqual(['applied', 'applied']);
    // The experts find it on their payments list.
    const listed = await w.t
      .as(w.admin.token)
      .post(`payments/page-query?bucketId=${w.experts.bucketId}&side=expert`, { filters: { no: a.paymentNo } });
    expect(listed.json().data[0]).toMatchObject({ invoiceStatus: 'applied', invoiceId: invoice.id });
    const twice = await apply([a.orderId]);
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'InvoiceAlreadyApplied']);

    expect(
      (await w.t.as(w.orderer.token).post('payments/issue-invoice', { invoiceId: invoice.id, invoiceNo: 'FP1' }))
        .statusCode,
    ).toBe(404);
    const plain = await makeMember(w.t, w.experts.bucketId, { actions: ['payment_refund'] });
    expect(
      (await w.t.as(plain.token).post('payments/issue-invoice', { invoiceId: invoice.id, invoiceNo: 'FP1' }))
        .statusCode,
    ).toBe(403);
    const issued = await w.t
      .as(w.admin.token)
      .post('payments/issue-invoice', { invoiceId: invoice.id, invoiceNo: 'FP0001' });
    expect(issued.statusCode).toBe(200);
    expect(issued.json()).toMatchObject({
      status: 'issued',
      invoiceNo: 'FP0001',
      orderIds: [a.orderId, b.orderId].sort(),
    });
    expect(await invoiceStatus(a.orderId)).toBe('issued');
    const again = await w.t
      .as(w.admin.token)
      .post('payments/issue-invoice', { invoiceId: invoice.id, invoiceNo: 'FP0002' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'InvoiceAlreadyIssued']);
    const reapply = await apply([a.orderId]);
    expect([reapply.statusCode, reapply.json().code]).toEqual([409, 'InvoiceAlreadyIssued']);
    const trail = await w.db.select().from(auditLogs).where(eq(auditLogs.targetId, invoice.id));
    expect(trail.map((r) => r.action).sort()).toEqual(['invoice.applied', 'invoice.issued']);
  });

  it('refuses each rule with its own code and changes nothing', async () => {
    await supportInvoices(w.experts.bucketId, true);
    const paid = await paidByWeixin(w);
    const unpaid = await makeOrder(w);
    const byCredit = await paidByCredit(w);
    const other = await makeOrganization(w.t, { groupId: w.experts.groupId, name: '第二专家中心' });
    await makeMember(w.t, other.bucketId, { level: 'admin' }).then((m) =>
      w.t.as(m.token).put(`buckets/${other.bucketId}/invoice-config`, { supportsInvoice: true, version: 0 }),
    );
    const elsewhere = await paidByWeixin(w, { targetBucketId: other.bucketId });
    const cases: [string[], string][] = [
      [[paid.orderId, unpaid.id], 'InvoiceOrderUnpaid'],
      [[paid.orderId, byCredit.orderId], 'InvoiceWrongChannel'],
      [[paid.orderId, elsewhere.orderId], 'InvoiceMixedExperts'],
    ];
    for (const [ids, code] of cases) {
      const res = await apply(ids);
      expect([res.statusCode, res.json().code], code).toEqual([409, code]);
    }
    await supportInvoices(w.experts.bucketId, false);
    const unsupported = await apply([paid.orderId]);
    expect([unsupported.statusCode, unsupported.json().code]).toEqual([409, 'InvoiceNotSupported']);
    await supportInvoices(w.experts.bucketId, true);
    for (const phone of ['123', '', '+86 138']) {
      expect((await apply([paid.orderId], w.orderer.token, phone)).statusCode, phone).toBe(400);
    }
    expect((await w.t.as(w.orderer.token).post('payments/apply-invoice', applyBody([]))).statusCode).toBe(400);
    expect((await apply(['no-such-order'])).statusCode).toBe(404);
    expect((await apply([paid.orderId], w.bystander.token)).statusCode).toBe(403);
    expect((await apply([paid.orderId], expertAdmin.token)).statusCode).toBe(404);
    expect(await invoiceStatus(paid.orderId)).toBe('none');
  });

  it('two applications for one order at once: one is applied, the other refused', async () => {
    await supportInvoices(w.experts.bucketId, true);
    const paid = await paidByWeixin(w);
    const post = () =>
      fetch(`${w.base}/yyp/api/v1/payments/apply-invoice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.orderer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(applyBody([paid.orderId])),
      }).then((r) => r.status);
    expect((await Promise.all([post(), post()])).sort()).toEqual([201, 409]);
    expect(await invoiceStatus(paid.orderId)).toBe('applied');
  });
});
