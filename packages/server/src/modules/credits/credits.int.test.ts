import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, orders } from '../../db/schema.js';
import { accountByUsername, unique } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { updateDomainConfig } from '../domain/index.js';
import { consumeCreditToken } from '../ledger/index.js';
import { CreditsService } from './credits.service.js';
import { makeCreditsWorld, makeUnpaidOrder, postCreditPayment, type CreditsWorld } from './credits.fixture.js';

/** Group credits (issue 24: credits/*, buckets/{id}/credit) on PGlite and PostgreSQL. */
let t: TestApp;
let w: CreditsWorld;
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeCreditsWorld(t);
});
afterAll(async () => {
  await t.close();
});

const topUp = (
  groupId: string,
  amountFen: number,
  key: string | null = unique('key-'),
  token = w.platformAdmin.token,
) =>
  t.call('POST', 'credits/top-up', {
    token,
    body: { groupId, amountFen, currency: 'CNY', memo: '银行转账 0042' },
    headers: key ? { 'idempotency-key': key } : {},
  });
const credit = (groupId: string, token: string) => t.as(token).get(`credits/group-credit?groupId=${groupId}`);

describe('credits/top-up', () => {
  it('adds an offline transfer once per Idempotency-Key, audited', async () => {
    const key = unique('key-');
    const first = await topUp(w.clinic.groupId, 10_000, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ groupId: w.clinic.groupId, amountFen: 10_000, balanceFen: 10_000 });
    const again = await topUp(w.clinic.groupId, 10_000, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const reused = await topUp(w.clinic.groupId, 20_000, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('IdempotencyKeyReused');
    expect((await credit(w.clinic.groupId, w.admin.token)).json()).toMatchObject({ amountFen: 10_000, enabled: true });
    const audits = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'credit.topup'), eq(auditLogs.targetId, w.clinic.groupId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: w.platformAdmin.accountId, outcome: 'success' });
  });

  it('adds the money once when the same top-up arrives five times at once', async () => {
    const other = await makeCreditsWorld(t);
    const g = other.clinic.groupId;
    const key = unique('key-');
    const answers = await Promise.all(Array.from({ length: 5 }, () => topUp(g, 4_200, key)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.json().txnId)).size).toBe(1);
    expect((await credit(g, other.admin.token)).json().amountFen).toBe(4_200);
    const rows = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'credit.topup'), eq(auditLogs.targetId, g)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ amountFen: 4_200, balanceFen: 4_200 });
  });

  it('refuses without a key, for non-admins, bad amounts, a group with credit off or none', async () => {
    expect((await topUp(w.clinic.groupId, 100, null)).statusCode).toBe(400);
    expect((await topUp(w.clinic.groupId, 100, 'bad key')).statusCode).toBe(400);
    expect((await topUp(w.clinic.groupId, 100, unique('key-'), w.admin.token)).statusCode).toBe(403);
    for (const amountFen of [0, -5, 1.5, 2_000_000_000]) {
      expect((await topUp(w.clinic.groupId, amountFen)).statusCode).toBe(400);
    }
    const off = await topUp(w.offClinic.groupId, 100);
    expect(off.statusCode).toBe(403);
    expect(off.json().details).toEqual({ action: 'enableCredit' });
    expect((await topUp('no-such-group', 100)).statusCode).toBe(404);
    expect((await credit(w.clinic.groupId, w.admin.token)).json().amountFen).toBe(10_000);
  });
});

describe('balances', () => {
  it('shows the group balance to its admins and members with an order action only', async () => {
    expect((await credit(w.clinic.groupId, w.doctor.token)).json()).toMatchObject({
      groupId: w.clinic.groupId,
      currency: 'CNY',
      amountFen: 10_000,
      balances: [
        { currency: 'CNY', amountFen: 10_000 },
        { currency: 'USD', amountFen: 0 },
      ],
    });
    expect((await credit(w.clinic.groupId, w.clerk.token)).statusCode).toBe(403);
    expect((await credit(w.clinic.groupId, w.outsider.token)).statusCode).toBe(404);
    expect((await credit(w.offClinic.groupId, w.offAdmin.token)).statusCode).toBe(403);
    // no group named: authorization (before validation) finds no group
    expect((await t.as(w.admin.token).get('credits/group-credit')).statusCode).toBe(404);
  });

  it("answers an organization's credit for its applicants, and enabled false when its group turned credit off", async () => {
    const on = await t.as(w.doctor.token).get(`buckets/${w.clinic.bucketId}/credit`);
    expect(on.json()).toMatchObject({ bucketId: w.clinic.bucketId, enabled: true, amountFen: 10_000 });
    const off = await t.as(w.offDoctor.token).get(`buckets/${w.offClinic.bucketId}/credit`);
    expect(off.json()).toMatchObject({ enabled: false, amountFen: 0 });
    expect((await t.as(w.clerk.token).get(`buckets/${w.clinic.bucketId}/credit`)).statusCode).toBe(403);
    expect((await t.as(w.outsider.token).get(`buckets/${w.clinic.bucketId}/credit`)).statusCode).toBe(404);
  });
});

describe('credits/create-token', () => {
  it("issues a single-use bearer for an unpaid order's price", async () => {
    const orderId = await makeUnpaidOrder(t, w, 3_000);
    const res = await t.as(w.doctor.token).post('credits/create-token', { orderId });
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json();
    expect(issued).toMatchObject({ amountFen: 3_000, currency: 'CNY', balanceFen: 10_000 });
    expect(Date.parse(issued.expiresAt) - t.clock.now().getTime()).toBe(300_000);
    const grant = await consumeCreditToken(db(), issued.token, t.clock.now());
    expect(grant).toMatchObject({
      orderId,
      groupId: w.clinic.groupId,
      amountFen: 3_000,
      accountId: w.doctor.accountId,
    });
    expect(await consumeCreditToken(db(), issued.token, t.clock.now())).toBeNull();
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'credit.token'), eq(auditLogs.targetId, orderId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: w.doctor.accountId, bucketId: w.clinic.bucketId });
    expect(JSON.stringify(audit[0])).not.toContain(issued.token);
  });

  it('issues one for an amount of an organization of the group', async () => {
    const res = await t
      .as(w.doctor.token)
      .post('credits/create-token', { bucketId: w.clinic.bucketId, amountFen: 500 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await consumeCreditToken(db(), res.json().token, t.clock.now()))?.orderId).toBeNull();
  });

  it('refuses a paid order, too little credit, no payment service, credit off and strangers', async () => {
    const paid = await makeUnpaidOrder(t, w, 3_000);
    await db().update(orders).set({ paymentStatus: 1, channel: 'weixin', paidFen: 3_000 }).where(eq(orders.id, paid));
    const refusal = async (token: string, body: object) => {
      const res = await t.as(token).post('credits/create-token', body);
      return [res.statusCode, res.json().code];
    };
    expect(await refusal(w.doctor.token, { orderId: paid })).toEqual([409, 'OrderAlreadyPaid']);
    const dear = await makeUnpaidOrder(t, w, 10_001);
    expect(await refusal(w.doctor.token, { orderId: dear })).toEqual([409, 'InsufficientCredit']);
    const orderId = await makeUnpaidOrder(t, w, 100);
    expect(await refusal(w.clerk.token, { orderId })).toEqual([403, 'InsufficientPermissions']);
    expect(await refusal(w.outsider.token, { orderId })).toEqual([404, 'NotFound']);
    expect(await refusal(w.outsider.token, { bucketId: w.clinic.bucketId, amountFen: 100 })).toEqual([404, 'NotFound']);
    expect(await refusal(w.clerk.token, { bucketId: w.clinic.bucketId, amountFen: 100 })).toEqual([
      403,
      'InsufficientPermissions',
    ]);
    expect(await refusal(w.doctor.token, { orderId: 'no-such-order' })).toEqual([404, 'NotFound']);
    expect(await refusal(w.doctor.token, { orderId, amountFen: 5 })).toEqual([400, 'ValidationError']);
    const offOrder = await makeUnpaidOrder(t, w, 100, w.offClinic);
    expect(await refusal(w.offDoctor.token, { orderId: offOrder })).toEqual([403, 'InsufficientPermissions']);
    await updateDomainConfig(db(), { enablePaymentService: false }, t.clock.now());
    try {
      expect(await refusal(w.doctor.token, { orderId })).toEqual([403, 'PaymentServiceDisabled']);
    } finally {
      await updateDomainConfig(db(), { enablePaymentService: true }, t.clock.now());
    }
  });
});

describe('the statement', () => {
  it('pages the group credit lines with filters, sums them per kind and exports both', async () => {
    const orderId = await makeUnpaidOrder(t, w, 2_500);
    t.clock.advance(60_000);
    await postCreditPayment(t, w, 2_500, orderId);
    const page = async (body: object, token = w.admin.token) =>
      t.as(token).post(`credits/page-query?groupId=${w.clinic.groupId}`, body);
    const all = await page({ limit: 10 });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().count).toBe(2);
    expect(all.json().data.map((l: { kind: string; amountFen: number }) => [l.kind, l.amountFen])).toEqual([
      ['payment', -2_500],
      ['topup', 10_000],
    ]);
    expect(all.json().data[0].orderId).toBe(orderId);
    expect((await page({ filters: { kinds: ['topup'] } })).json().count).toBe(1);
    const later = new Date(t.clock.now().getTime() + 1000).toISOString();
    expect((await page({ filters: { from: later } })).json().count).toBe(0);
    expect((await page({ filters: { to: later } })).json().count).toBe(2);
    expect((await page({ limit: 1, skip: 1 })).json().data).toHaveLength(1);
    expect((await page({ filters: { from: later, to: '2020-01-01T00:00:00Z' } })).statusCode).toBe(400);
    expect((await page({ filters: { kinds: ['bonus'] } })).statusCode).toBe(400);
    expect((await page({}, w.clerk.token)).statusCode).toBe(403);
    const sumOf = (token: string) => t.as(token).post(`credits/page-query-sum?groupId=${w.clinic.groupId}`, {});
    expect((await sumOf(w.clerk.token)).statusCode).toBe(403);
    expect((await sumOf(w.outsider.token)).statusCode).toBe(404);
    expect((await page({}, w.outsider.token)).statusCode).toBe(404);

    const sums = await t.as(w.doctor.token).post(`credits/page-query-sum?groupId=${w.clinic.groupId}`, {});
    expect(sums.json()).toEqual({
      data: [
        { kind: 'payment', currency: 'CNY', amountFen: -2_500, count: 1 },
        { kind: 'topup', currency: 'CNY', amountFen: 10_000, count: 1 },
      ],
      totals: [{ currency: 'CNY', amountFen: 7_500 }],
    });
    expect((await credit(w.clinic.groupId, w.admin.token)).json().amountFen).toBe(7_500);

    const { default: ExcelJS } = await import('exceljs');
    for (const [path, rows, header] of [
      ['credits/export-excel', 3, 'Amount (yuan)'],
      ['credits/export-excel-sum', 3, 'Count'],
    ] as const) {
      const res = await t.as(w.admin.token).post(`${path}?groupId=${w.clinic.groupId}`, { language: 'en' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      expect(sheet.rowCount).toBe(rows);
      expect(sheet.getRow(1).values).toContain(header);
      expect((await t.as(w.clerk.token).post(`${path}?groupId=${w.clinic.groupId}`, {})).statusCode).toBe(403);
    }
    const lines = await t.as(w.admin.token).post(`credits/export-excel?groupId=${w.clinic.groupId}`, {});
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(lines.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.getRow(1).values).toContain('金额（元）');
    expect(book.worksheets[0]!.getRow(2).values).toContain('-25.00');
  });
});

describe('the statement export limit', () => {
  it('refuses an export of more lines than the limit, and makes none', async () => {
    const account = await accountByUsername(t, w.admin.username);
    const caller = { account: account!, ctx: { ip: null, userAgent: null } };
    const small = new CreditsService(db(), t.clock, 1);
    const refused = await small.exportLines(caller, w.clinic.groupId, { filters: {} }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'ExportLimitExceeded', status: 400, details: { limit: 1 } });
    const one = await small.exportLines(caller, w.clinic.groupId, { filters: { kinds: ['topup'] } });
    expect(one.count).toBe(1);
  });
});
