import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, orders } from '../../db/schema.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { recordOrderPaid } from './index.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from './orders.fixture.js';

/**
 * orders/export-excel: the order list of either side with the list's filters as .xlsx, at most
 * 1,000 orders (spec 000 §5), audited as PHI; another organization's list is not exported.
 */
let t: TestApp;
let w: OrdersWorld;
const db = () => t.db.database.db;
let paidNo = '';
let unpaidNo = '';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
  const paid = await applyOk(t, w, await newExam(t, w, 'Li^Lei'));
  await recordOrderPaid(db(), paid.id, { channel: 'weixin', paidFen: 12_000, paidAt: t.clock.now() });
  const unpaid = await applyOk(t, w, await newExam(t, w, 'Han^Mei'));
  [paidNo, unpaidNo] = [paid.orderNo, unpaid.orderNo];
});
afterAll(async () => {
  await t.close();
});

async function sheetOf(payload: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  return book.getWorksheet('orders')!;
}
const column = (sheet: ExcelJS.Worksheet, n: number) =>
  Array.from({ length: sheet.rowCount - 1 }, (_, i) => String(sheet.getRow(i + 2).getCell(n).value));

describe('orders/export-excel', () => {
  it("writes the requester's orders with the list's filters, its columns in the language asked", async () => {
    const all = await t
      .as(w.clinic.doctor.token)
      .post(`orders/export-excel?requestBucketId=${w.clinic.org.bucketId}`, { language: 'en' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['content-type']).toContain('spreadsheetml');
    expect(all.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{8}\.xlsx"$/);
    expect(all.headers['x-export-count']).toBe('2');
    const sheet = await sheetOf(all.rawPayload);
    expect(sheet.getRow(1).getCell(1).value).toBe('Order no.');
    expect(column(sheet, 1).sort()).toEqual([paidNo, unpaidNo].sort());
    expect(column(sheet, 3).sort()).toEqual(['Han^Mei', 'Li^Lei']);
    expect(column(sheet, 5)).toEqual(['远程专家中心', '远程专家中心']);
    expect(column(sheet, 6)).toEqual(['120.00', '120.00']);
    expect(column(sheet, 9).sort()).toEqual(['Paid', 'Unpaid']);

    const paidOnly = await t
      .as(w.clinic.doctor.token)
      .post(`orders/export-excel?requestBucketId=${w.clinic.org.bucketId}`, { filters: { paymentStatus: [1] } });
    expect(paidOnly.statusCode).toBe(200);
    const chs = await sheetOf(paidOnly.rawPayload);
    expect(chs.getRow(1).getCell(1).value).toBe('申请单号');
    expect(column(chs, 1)).toEqual([paidNo]);
    expect(column(chs, 9)).toEqual(['已支付']);
    const audited = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'order.exported'), eq(auditLogs.bucketId, w.clinic.org.bucketId)));
    expect(audited.map((a) => [a.actorId, (a.details as { count: number }).count])).toEqual([
      [w.clinic.doctor.accountId, 2],
      [w.clinic.doctor.accountId, 1],
    ]);
  });

  it("writes the experts' received orders (paid only) with the requester's name", async () => {
    const res = await t
      .as(w.experts.teledoctor.token)
      .post(`orders/export-excel?targetBucketId=${w.experts.org.bucketId}`, { language: 'chs' });
    expect(res.statusCode, res.body).toBe(200);
    const sheet = await sheetOf(res.rawPayload);
    expect(column(sheet, 1)).toEqual([paidNo]);
    expect(sheet.getRow(1).getCell(5).value).toBe('申请机构');
    expect(column(sheet, 5)).toEqual(['县医院放射科']);
  });

  it("refuses another organization's list, bad input and more than 1,000 orders, writing nothing", async () => {
    const stranger = await makeMember(t, (await makeOrganization(t)).bucketId);
    const peek = await t.as(stranger.token).post(`orders/export-excel?requestBucketId=${w.clinic.org.bucketId}`, {});
    expect(peek.statusCode).toBe(404);
    const experts = await t
      .as(w.clinic.doctor.token)
      .post(`orders/export-excel?targetBucketId=${w.experts.org.bucketId}`, {});
    expect(experts.statusCode).toBe(404);
    for (const [query, body] of [
      ['', {}],
      [`requestBucketId=${w.clinic.org.bucketId}&targetBucketId=${w.experts.org.bucketId}`, {}],
      [`requestBucketId=${w.clinic.org.bucketId}`, { language: 'fr' }],
      [`requestBucketId=${w.clinic.org.bucketId}`, { filters: { status: ['paid'] } }],
      [`requestBucketId=${w.clinic.org.bucketId}`, { filters: { from: 'yesterday' } }],
      [`requestBucketId=${w.clinic.org.bucketId}`, { filters: {}, limit: 5 }],
    ] as const) {
      const res = await t.as(w.clinic.doctor.token).post(`orders/export-excel?${query}`, body);
      expect(res.statusCode, `${query} ${JSON.stringify(body)}`).toBe(400);
    }
    const before = await db()
      .select({ id: auditLogs.id })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'order.exported'));
    const [template] = await db().select().from(orders).where(eq(orders.orderNo, unpaidNo));
    await db()
      .insert(orders)
      .values(
        Array.from({ length: 999 }, (_, i) => ({
          ...template!,
          id: `bulk-order-${i}`,
          orderNo: `RBULK${String(i).padStart(8, '0')}`,
          examId: template!.examId,
          status: 'cancelled',
        })),
      );
    const tooMany = await t
      .as(w.clinic.doctor.token)
      .post(`orders/export-excel?requestBucketId=${w.clinic.org.bucketId}`, {});
    expect([tooMany.statusCode, tooMany.json().code, tooMany.json().details]).toEqual([
      400,
      'ExportLimitExceeded',
      { count: 1001, limit: 1000 },
    ]);
    const after = await db().select({ id: auditLogs.id }).from(auditLogs).where(eq(auditLogs.action, 'order.exported'));
    expect(after).toHaveLength(before.length);
    // the filters still narrow the list under the limit
    const cancelled = await t
      .as(w.clinic.doctor.token)
      .post(`orders/export-excel?requestBucketId=${w.clinic.org.bucketId}`, { filters: { status: ['applied'] } });
    expect([cancelled.statusCode, cancelled.headers['x-export-count']]).toEqual([200, '2']);
  });
});
