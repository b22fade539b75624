import crypto from 'node:crypto';
import { CONSULTATION_STATUS_VALUES, LANGUAGES } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, consultations } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { sheetOf } from '../../test/sheets.js';
import { clinicExam, makeConsultation, makeConsultWorld, type ConsultWorld } from './consultation-exams.fixture.js';
import { MAX_CONSULTATIONS_EXPORT } from './consultation-export.js';

/**
 * The conclusion's PDF in each language under the printing organization's template header, and the
 * caller's list as .xlsx (at most 1,000), both audited.
 */
let t: TestApp;
let w: ConsultWorld;
let done = '';
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultWorld(t);
  done = await makeConsultation(t, w, { title: '肺结节 MDT', patientName: 'Zhang^Wei' });
  const examId = await clinicExam(t, w, 'Zhang^Wei');
  expect(
    (await t.as(w.clinic.doctor.token).post(`consultations/${done}/exams`, { examIds: [examId] })).statusCode,
  ).toBe(200);
  const kase = await t
    .as(w.clinic.doctor.token)
    .post(`consultations/${done}/cases`, { name: '病理报告', type: 'pathology' });
  expect(kase.statusCode, kase.body).toBe(201);
  const now = t.clock.now();
  await db()
    .update(consultations)
    .set({
      status: CONSULTATION_STATUS_VALUES.completed,
      suggestion: '建议穿刺活检 བསམ་འཆར།',
      treatmentPlan: '胸外科手术评估\nFollow-up CT in 3 months',
      result: '考虑早期肺腺癌可能',
      resultBy: w.experts.expert.accountId,
      resultAt: now,
      ratingScore: 5,
      ratingComment: '非常专业',
      ratedBy: w.clinic.doctor.accountId,
      ratedAt: now,
    })
    .where(eq(consultations.id, done));
  const template = await t.as(w.clinic.admin.token).put(`buckets/${w.clinic.org.bucketId}/print-template`, {
    hospitalName: 'Xian People Hospital',
    footerHtml: '<p>地址：健康路 1 号</p>',
  });
  expect(template.statusCode, template.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('GET consultations/{id}/print', () => {
  it('answers a PDF in chs, en and tib to either side, audited', async () => {
    for (const token of [w.clinic.doctor.token, w.experts.expert.token]) {
      for (const language of LANGUAGES) {
        const res = await t.as(token).get(`consultations/${done}/print?language=${language}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(res.rawPayload.length).toBeGreaterThan(2000);
      }
    }
    const printed = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.targetId, done), eq(auditLogs.action, 'consultation.print')));
    expect(printed).toHaveLength(2 * LANGUAGES.length);
    expect(new Set(printed.map((a) => a.bucketId))).toEqual(new Set([w.clinic.org.bucketId, w.experts.org.bucketId]));
    // The requester prints under its organization's template header (the document's title names it).
    const en = await t.as(w.clinic.doctor.token).get(`consultations/${done}/print?language=en`);
    expect(en.rawPayload.toString('latin1')).toContain('(Xian People Hospital Consultation report)');
  }, 90_000);

  it('prints a pending one too, with nothing written yet; refuses strangers and unknown languages', async () => {
    const pending = await makeConsultation(t, w);
    const res = await t.as(w.clinic.doctor.token).get(`consultations/${pending}/print`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    for (const token of [w.outsider.doctor.token, w.experts.bystander.token]) {
      expect((await t.as(token).get(`consultations/${pending}/print`)).statusCode).toBe(404);
    }
    expect((await t.as(w.clinic.doctor.token).get(`consultations/${pending}/print?language=fr`)).statusCode).toBe(400);
    expect((await t.as(w.clinic.doctor.token).get(`consultations/no-such/print`)).statusCode).toBe(404);
  });
});

describe('POST consultations/export', () => {
  it("writes the caller's list with its filters in the language asked, audited", async () => {
    const res = await t.as(w.clinic.doctor.token).post('consultations/export', { language: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="consultations-\d{8}\.xlsx"$/);
    const count = Number(res.headers['x-export-count']);
    expect(count).toBeGreaterThanOrEqual(2);
    const sheet = await sheetOf(res.rawPayload);
    expect(sheet[0]!.slice(0, 3)).toEqual(['Title', 'Name', 'Status']);
    expect(sheet).toHaveLength(count + 1);
    const row = sheet.find((r) => r[0] === '肺结节 MDT')!;
    expect(row.slice(1, 5)).toEqual(['Zhang Wei', 'Completed', w.clinic.org.name, w.experts.org.name]);

    const completed = await t
      .as(w.experts.expert.token)
      .post('consultations/export', { filter: { status: { equal: CONSULTATION_STATUS_VALUES.completed } } });
    expect(completed.statusCode, completed.body).toBe(200);
    const chs = await sheetOf(completed.rawPayload);
    expect(chs[0]![0]).toBe('会诊标题');
    expect(chs.slice(1).map((r) => [r[0], r[2]])).toEqual([['肺结节 MDT', '已完成']]);

    // Another tenant's caller exports only its own (none).
    const theirs = await t.as(w.outsider.doctor.token).post('consultations/export', {});
    expect(theirs.headers['x-export-count']).toBe('0');
    const audited = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.actorId, w.clinic.doctor.accountId), eq(auditLogs.action, 'consultation.exported')));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ count });
  });

  it(`refuses more than ${MAX_CONSULTATIONS_EXPORT} rows (ExportLimitExceeded); a narrower filter exports`, async () => {
    const now = t.clock.now();
    const rows = Array.from({ length: MAX_CONSULTATIONS_EXPORT + 1 }, (_, i) => ({
      id: crypto.randomUUID(),
      groupId: w.clinic.org.groupId,
      sourceBucketId: w.clinic.org.bucketId,
      targetBucketId: w.experts.org.bucketId,
      title: `批量 ${i}`,
      status: CONSULTATION_STATUS_VALUES.canceled,
      scheduledAt: now,
      patientName: `Bulk^${i}`,
      creatorId: w.clinic.doctor.accountId,
      created: now,
      updated: now,
    }));
    await db().insert(consultations).values(rows);
    const res = await t.as(w.clinic.doctor.token).post('consultations/export', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'ExportLimitExceeded',
      details: { limit: MAX_CONSULTATIONS_EXPORT },
    });
    const narrow = await t.as(w.clinic.doctor.token).post('consultations/export', { filter: { keyword: '批量 100' } });
    expect(narrow.statusCode, narrow.body).toBe(200);
    // 批量 100 and 批量 1000
    expect(narrow.headers['x-export-count']).toBe('2');
  });
});
