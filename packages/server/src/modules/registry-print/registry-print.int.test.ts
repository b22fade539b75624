import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoRoles, type OrderTemplate, type Registration } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, buckets } from '../../db/schema.js';
import { joinOrganization, makeMember, makeOrganization, type BuiltMember } from '../../test/factories.js';
import { dayFromNow, makeDesk, makeDevice, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { barcodesOnPage } from './code128.fixture.js';

/**
 * The front desk's labels and referral forms (issue 22; spec 000 §5 "printing sheets same day",
 * §9 "label 80x50 mm"): PDFs read back with poppler-utils as a reader sees them, the barcode
 * decoded from the rendered page's pixels.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let admin: BuiltMember;
let ct: string;
let reg: Registration;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-registry-print-'));
/** Set REGISTRY_PRINT_OUT to a folder to keep the PDFs for a look. */
const keep = process.env.REGISTRY_PRINT_OUT;

function save(name: string, pdf: Buffer): string {
  const file = path.join(work, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (keep) fs.copyFileSync(file, path.join(keep, `${name}.pdf`));
  return file;
}
const info = (file: string) => execFileSync('pdfinfo', [file], { encoding: 'utf8' });
const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(info(file))![1]);
const pageSize = (file: string) => /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info(file))!.slice(1).map(Number);
const text = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

const labels = (token: string, body: unknown) => t.as(token).post('orders/labels', body);
const forms = (token: string, body: unknown) => t.as(token).post('orders/referral-forms', body);
const audits = (action: string) =>
  t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.bucketId, desk.org.bucketId)));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科', group: { displayName: '仁和医院' } });
  other = await makeDesk(t);
  admin = await makeMember(t, desk.org.bucketId, { level: 'admin' });
  ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT', name: '胸部CT平扫', code: 'CT001' });
  const device = await makeDevice(t, desk.org.bucketId, { aeTitle: 'CT_ROOM1', modality: 'CT', name: 'CT 1 号机' });
  reg = await register(
    t,
    desk.registrar.token,
    desk.org.bucketId,
    [
      { procedureId: ct, deviceId: device, scheduledTime: '09:30' },
      { modality: 'MR', bodyPart: '头部' },
    ],
    { urgent: true, clinicImpression: '咳嗽两周', applyDept: '呼吸内科' },
  );
});
afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('POST orders/labels', () => {
  it('prints an 80×50 mm label whose barcode reads as the accession number', async () => {
    const exam = reg.exams[0]!;
    const before = (await audits('registry.print_labels')).length;
    const res = await labels(desk.registrar.token, { scheduledIds: [exam.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`label-${exam.accessionNumber}.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const file = save('label', res.rawPayload);
    expect(pages(file)).toBe(1);
    const [w = 0, h = 0] = pageSize(file);
    expect(w).toBeCloseTo(226.77, 1);
    expect(h).toBeCloseTo(141.73, 1);
    expect(barcodesOnPage(file)).toEqual([exam.accessionNumber]);
    const printed = text(file);
    for (const s of [
      '王小东',
      reg.patient.patientId,
      reg.passCode,
      exam.accessionNumber,
      '胸部CT平扫',
      'CT 1 号机',
      '09:30',
      '急',
    ]) {
      expect(printed).toContain(s);
    }
    expect(printed).toContain(exam.scheduledDate);
    const rows = await audits('registry.print_labels');
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ targetId: reg.id, patientId: reg.patient.patientId });
  });

  it('prints copies one label a page, and 10 labels to an A4 sheet, every barcode readable', async () => {
    const ids = reg.exams.map((e) => e.id);
    const copies = await labels(desk.tech.token, { scheduledIds: ids, copies: 3 });
    expect(copies.statusCode, copies.body).toBe(200);
    expect(pages(save('copies', copies.rawPayload))).toBe(6);
    const sheet = await labels(desk.registrar.token, { scheduledIds: ids, copies: 5, layout: 'sheet', lang: 'en' });
    expect(sheet.statusCode, sheet.body).toBe(200);
    const file = save('sheet', sheet.rawPayload);
    expect(pages(file)).toBe(1);
    const [w = 0, h = 0] = pageSize(file);
    expect([Math.round(w), Math.round(h)]).toEqual([595, 842]);
    expect(barcodesOnPage(file, 1, 200).sort()).toEqual(reg.exams.map((e) => e.accessionNumber).sort());
    expect(text(file)).toContain('Patient ID');
  });

  it('prints Tibetan captions', async () => {
    const res = await labels(desk.registrar.token, { scheduledIds: [reg.exams[1]!.id], lang: 'tib' });
    expect(res.statusCode, res.body).toBe(200);
    expect(text(save('tib', res.rawPayload))).toContain('ནད་པའི་ཨང་།');
  });

  it('refuses what is over the limits with 400', async () => {
    const id = reg.exams[0]!.id;
    const tooMany = Array.from({ length: 51 }, (_, i) => `${id}-${i}`);
    for (const body of [
      { scheduledIds: [] },
      { scheduledIds: tooMany },
      { scheduledIds: [id], copies: 6 },
      { scheduledIds: [id], copies: 0 },
      { scheduledIds: [id], layout: 'roll' },
      { scheduledIds: [id], lang: 'fr' },
      { scheduledIds: [id], extra: 1 },
    ]) {
      const res = await labels(desk.registrar.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationError' });
    }
  });

  it('answers 404 for another organization, an unknown exam, and 403 without a desk action', async () => {
    const id = reg.exams[0]!.id;
    expect((await labels(other.registrar.token, { scheduledIds: [id] })).statusCode).toBe(404);
    expect((await labels(desk.registrar.token, { scheduledIds: [id, 'no-such-exam'] })).statusCode).toBe(404);
    const res = await labels(desk.doctor.token, { scheduledIds: [id] });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(reg.patient.patientId);
  });

  it('refuses exams of two organizations and cancelled exams', async () => {
    // A second organization of the same group where the registrar works too: visible, but not mergeable.
    const ward = await makeOrganization(t, { groupId: desk.org.groupId, name: '超声科' });
    await joinOrganization(t, ward.bucketId, desk.registrar.accountId, {
      actions: demoRoles.registrar.actions as never,
    });
    const elsewhere = await register(t, desk.registrar.token, ward.bucketId, [{ modality: 'US' }]);
    const mixed = await labels(desk.registrar.token, { scheduledIds: [reg.exams[0]!.id, elsewhere.exams[0]!.id] });
    expect(mixed.statusCode, mixed.body).toBe(400);
    expect(mixed.json()).toMatchObject({ details: { problem: 'differentOrganizations' } });
    const foreign = await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }]);
    const hidden = await labels(desk.registrar.token, { scheduledIds: [reg.exams[0]!.id, foreign.exams[0]!.id] });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain(foreign.patient.patientId);
    const cancelled = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'DX' }]);
    const revoke = await t
      .as(desk.registrar.token)
      .post(`scheduled-exams/${cancelled.exams[0]!.id}/revoke`, { reason: '患者取消' });
    expect(revoke.statusCode, revoke.body).toBe(200);
    const res = await labels(desk.registrar.token, { scheduledIds: [cancelled.exams[0]!.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ details: { problem: 'cancelled' } });
  });
});

describe('buckets/{id}/order-template', () => {
  const url = () => `buckets/${desk.org.bucketId}/order-template`;

  it('answers the default until the admin saves one: the hospital and organization, the usual fields', async () => {
    const res = await t.as(desk.registrar.token).get(url());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      bucketId: desk.org.bucketId,
      title: '',
      headerLines: ['仁和医院', '放射科'],
      isDefault: true,
      updatedAt: null,
    });
    expect((res.json() as OrderTemplate).fields).toContain('barcode');
  });

  it('is saved by the organization admin only, within its limits, keeping the other settings', async () => {
    const db = t.db.database.db;
    await db
      .update(buckets)
      .set({ settings: { notifications: { uploadNotifyAccountIds: ['x'] } } })
      .where(eq(buckets.id, desk.org.bucketId));
    const template = {
      title: 'CT/MR 检查申请单',
      headerLines: ['仁和医院', '放射科 · 健康路1号'],
      fields: ['patientId', 'gender', 'age', 'outpatientId', 'applyDept', 'clinicImpression', 'barcode'],
      footerNote: '检查前请空腹四小时，携带本单到二楼登记台。',
    };
    expect((await t.as(desk.registrar.token).put(url(), template)).statusCode).toBe(403);
    for (const bad of [
      { ...template, title: 'x'.repeat(65) },
      { ...template, headerLines: ['a', 'b', 'c', 'd'] },
      { ...template, headerLines: ['x'.repeat(101)] },
      { ...template, fields: ['patientId', 'patientId'] },
      { ...template, fields: ['salary'] },
      { ...template, footerNote: 'x'.repeat(501) },
      { ...template, logo: 'x' },
    ]) {
      const res = await t.as(admin.token).put(url(), bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    expect((await t.as(admin.token).get(url())).json()).toMatchObject({ isDefault: true });
    const saved = await t.as(admin.token).put(url(), template);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ...template, isDefault: false, updatedBy: expect.any(String) });
    expect((await t.as(desk.tech.token).get(url())).json()).toMatchObject({ title: template.title });
    const [row] = await db.select().from(buckets).where(eq(buckets.id, desk.org.bucketId));
    expect(row!.settings).toMatchObject({ notifications: { uploadNotifyAccountIds: ['x'] } });
    expect((await t.as(other.registrar.token).get(url())).statusCode).toBe(404);
  });
});

describe('POST orders/referral-forms', () => {
  it('prints one form per registration on the template, exams of one day merged', async () => {
    const second = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }], {
      patient: { name: '李^四', gender: 'F', birthDate: '19900101' },
    });
    const ids = [reg.exams[0]!.id, reg.exams[1]!.id, second.exams[0]!.id];
    const before = (await audits('registry.print_referral_forms')).length;
    const res = await forms(desk.registrar.token, { scheduledIds: ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = save('forms', res.rawPayload);
    expect(pages(file)).toBe(2);
    expect(pageSize(file).map(Math.round)).toEqual([595, 842]);
    const first = text(file).split('\f')[0]!;
    for (const s of [
      'CT/MR 检查申请单',
      '放射科 · 健康路1号',
      '王小东',
      '咳嗽两周',
      '呼吸内科',
      '检查前请空腹四小时',
    ]) {
      expect(first).toContain(s);
    }
    expect(barcodesOnPage(file, 1).sort()).toEqual(reg.exams.map((e) => e.accessionNumber).sort());
    expect(barcodesOnPage(file, 2)).toEqual([second.exams[0]!.accessionNumber]);
    // A field the registration does not hold is left out: 李四 came without a department or diagnosis.
    expect(text(file).split('\f')[1]).toContain('李四');
    expect(text(file).split('\f')[1]).not.toContain('申请科室');
    expect(await audits('registry.print_referral_forms')).toHaveLength(before + 2);
  });

  it('refuses exams of different days (spec 000 §5), and answers 404/403 like the labels', async () => {
    const later = await register(t, desk.registrar.token, desk.org.bucketId, [
      { modality: 'CT', scheduledDate: dayFromNow(t, 3) },
    ]);
    const before = (await audits('registry.print_referral_forms')).length;
    const res = await forms(desk.registrar.token, { scheduledIds: [reg.exams[0]!.id, later.exams[0]!.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ValidationError', details: { problem: 'notSameDay' } });
    expect(await audits('registry.print_referral_forms')).toHaveLength(before);
    expect((await forms(other.registrar.token, { scheduledIds: [reg.exams[0]!.id] })).statusCode).toBe(404);
    expect((await forms(desk.doctor.token, { scheduledIds: [reg.exams[0]!.id] })).statusCode).toBe(403);
    expect((await forms(desk.registrar.token, { scheduledIds: [] })).statusCode).toBe(400);
  });
});
