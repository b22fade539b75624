import type { PrintTemplateAnswer, PrintTime, PrintView, ReportTraceItem } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeMember } from '../../test/factories.js';
import { makeHospital } from '../../test/factories-reports.js';
import { keyImagePng, logoPng, makePng, signaturePng, stampPng } from './png.fixture.js';
import { printFixture } from './report-print.fixture.js';

let t: TestApp;
let tok: Record<string, string> = {};
let radiology = '';
let ultrasound = '';
let renhe = '';
let f: ReturnType<typeof printFixture>;

const template = {
  hospitalName: '仁和医院',
  title: 'CT检查报告单',
  footerHtml: '<p>地址：<b>健康路1号</b></p>本报告仅供临床参考',
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Masking as a caller without view_privacy in a privacy-on group sees it (doctor masked, senior not).
  const staff = ['doctor', 'senior', 'tech', 'groupadmin', 'teleadmin'] as const;
  ({ tok, radiology, ultrasound, groupId: renhe } = await makeHospital(t, staff, { privacy: true }));
  // An admin of the organization who is a plain member of the group.
  tok.orgadmin = (await makeMember(t, radiology, { username: 'orgadmin', name: '孙科长', level: 'admin' })).token;
  f = printFixture(t, tok);
});
afterAll(() => t.close());

describe('print template', () => {
  it('is set by organization admins only, and read by those who print', async () => {
    // Until an admin saves one, the default: hospital and organization names, the standard layout.
    expect((await f.as('doctor').get(`buckets/${radiology}/print-template`)).json()).toMatchObject({
      template: {
        bucketId: radiology,
        hospitalName: '仁和医院 放射科',
        title: '',
        logo: null,
        stamp: null,
        footerText: '',
        imageColumns: 2,
        showSignatures: true,
        updatedBy: null,
        isDefault: true,
      },
      warnings: [],
    });
    expect((await f.as('tech').get(`buckets/${radiology}/print-template`)).statusCode).toBe(403);
    expect((await f.as('teleadmin').get(`buckets/${radiology}/print-template`)).statusCode).toBe(404);
    const byDoctor = await f.as('doctor').put(`buckets/${radiology}/print-template`, template);
    expect(byDoctor.statusCode).toBe(403);
    expect((await f.as('senior').put(`buckets/${radiology}/print-template`, template)).statusCode).toBe(403);
    expect((await f.as('teleadmin').put(`buckets/${radiology}/print-template`, template)).statusCode).toBe(404);

    const byOrgAdmin = await f.as('orgadmin').put(`buckets/${radiology}/print-template`, template);
    expect(byOrgAdmin.statusCode, byOrgAdmin.body).toBe(200);
    const saved = byOrgAdmin.json() as PrintTemplateAnswer;
    expect(saved.template).toMatchObject({
      hospitalName: '仁和医院',
      title: 'CT检查报告单',
      footerText: '地址：健康路1号\n本报告仅供临床参考',
      imageColumns: 2,
      showSignatures: true,
      logo: null,
      stamp: null,
      updatedBy: { name: '孙科长' },
      isDefault: false,
    });
    const byGroupAdmin = await f.as('groupadmin').put(`buckets/${radiology}/print-template`, {
      ...template,
      imageColumns: 3,
    });
    expect(byGroupAdmin.statusCode, byGroupAdmin.body).toBe(200);
    expect((await f.as('senior').get(`buckets/${radiology}/print-template`)).json()).toMatchObject({
      template: { imageColumns: 3, updatedBy: { name: '周管理' } },
    });
    // Limits are the contract's.
    for (const bad of [
      { ...template, hospitalName: '' },
      { ...template, hospitalName: 'x'.repeat(65) },
      { ...template, imageColumns: 5 },
      { ...template, footerHtml: 'x'.repeat(2001) },
      { ...template, extra: 1 },
    ]) {
      expect((await f.as('groupadmin').put(`buckets/${radiology}/print-template`, bad)).statusCode).toBe(400);
    }
    const audit = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'print_template.update'), eq(auditLogs.targetId, radiology)));
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('takes a PNG or JPEG logo (warning unless 128×128) and a PNG stamp, uploaded by the admin', async () => {
    const logoKey = await f.upload('groupadmin', logoPng(100));
    const stampKey = await f.upload('groupadmin', stampPng());
    const res = await f.as('groupadmin').put(`buckets/${radiology}/print-template`, { ...template, logoKey, stampKey });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as PrintTemplateAnswer;
    expect(answer.warnings).toEqual([expect.objectContaining({ field: 'logoKey', code: 'LogoSize' })]);
    expect(answer.template!.logo).toMatchObject({ key: logoKey, contentType: 'image/png', width: 100, height: 100 });
    expect(answer.template!.logo!.url).toMatch(/^\/yyp\/api\/v1\/blobs\/download/);
    expect(answer.template!.stamp).toMatchObject({ key: stampKey, width: 96, height: 96 });

    // Another admin keeps the pictures by sending their keys back; a 128×128 logo warns nothing.
    const kept = await f.as('orgadmin').put(`buckets/${radiology}/print-template`, { ...template, logoKey, stampKey });
    expect(kept.statusCode, kept.body).toBe(200);
    const logo128 = await f.upload('orgadmin', logoPng(128));
    const replaced = await f.as('orgadmin').put(`buckets/${radiology}/print-template`, {
      ...template,
      logoKey: logo128,
      stampKey,
    });
    expect((replaced.json() as PrintTemplateAnswer).warnings).toEqual([]);
    // The replaced logo is freed; the stamp stays.
    expect(await t.blobs.size(logoKey)).toBeNull();
    expect(await t.blobs.size(stampKey)).not.toBeNull();

    // Someone else's upload, a JPEG stamp, or bytes that are no image are refused.
    const doctorUpload = await f.upload('doctor', logoPng(128));
    const stolen = await f
      .as('groupadmin')
      .put(`buckets/${radiology}/print-template`, { ...template, logoKey: doctorUpload });
    expect(stolen.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    const jpeg = Buffer.concat([
      Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
      Buffer.from('ffc0001108008000800301220002110103110100', 'hex'),
      Buffer.from('ffd9', 'hex'),
    ]);
    const jpegStamp = await f.upload('groupadmin', jpeg, 'image/jpeg');
    const refused = await f
      .as('groupadmin')
      .put(`buckets/${radiology}/print-template`, { ...template, stampKey: jpegStamp });
    expect(refused.json()).toMatchObject({ code: 'FileTypeNotAllowed', details: { field: 'stampKey' } });
    const jpegLogo = await f.as('groupadmin').put(`buckets/${radiology}/print-template`, {
      ...template,
      logoKey: jpegStamp,
      stampKey,
    });
    expect(jpegLogo.statusCode, jpegLogo.body).toBe(200);
    expect((jpegLogo.json() as PrintTemplateAnswer).template!.logo).toMatchObject({ contentType: 'image/jpeg' });
    // Back to the PNG logo for the print views below.
    const again = await f.upload('groupadmin', logoPng(128));
    expect(
      (await f.as('groupadmin').put(`buckets/${radiology}/print-template`, { ...template, logoKey: again, stampKey }))
        .statusCode,
    ).toBe(200);
  });
});

describe('print view', () => {
  it('prints on the default template where the organization saved none', async () => {
    const id = await f.newExam(ultrasound);
    // Nothing written yet: there is no report to print, whatever the template.
    expect((await f.as('doctor').get(`reports/${id}/print-view`)).statusCode).toBe(404);
    await f.ok('doctor', `reports/${id}/submit`, { version: 0, content: f.content('所见', '结论') });
    const res = await f.as('doctor').get(`reports/${id}/print-view`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as PrintView).template).toEqual({
      hospitalName: '仁和医院 超声科',
      title: '',
      logoUrl: null,
      stampUrl: null,
      footerText: '',
      showSignatures: true,
    });
  });

  it('holds template, exam header, text, signatures and the printed key images in order', async () => {
    await f.as('senior').put('signature/mine', { url: await f.upload('senior', signaturePng()) });
    await f.as('doctor').put('signature/mine', { url: await f.upload('doctor', signaturePng()) });
    const id = await f.newExam(radiology);
    const first = await f.keyImage(id, keyImagePng(), '肺窗');
    const hidden = await f.keyImage(id, keyImagePng(), '不打印');
    const third = await f.keyImage(id, keyImagePng(), '纵隔窗');
    expect(
      (await t.call('PATCH', `reports/${id}/images/${hidden}`, { token: tok.doctor!, body: { isPrinted: false } }))
        .statusCode,
    ).toBe(200);
    await f.approved(id, f.content('双肺纹理清晰。<b>未见</b>实变。', '胸部CT未见异常', { positive: false }));

    expect((await f.as('tech').get(`reports/${id}/print-view`)).statusCode).toBe(403);
    expect((await f.as('teleadmin').get(`reports/${id}/print-view`)).statusCode).toBe(404);
    const res = await f.as('senior').get(`reports/${id}/print-view`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as PrintView;
    expect(view).toMatchObject({
      bucketId: radiology,
      imageColumns: 2,
      masked: false,
      template: { hospitalName: '仁和医院', title: 'CT检查报告单', footerText: '地址：健康路1号\n本报告仅供临床参考' },
    });
    expect(view.template.logoUrl).toBeTruthy();
    expect(view.template.stampUrl).toBeTruthy();
    const r = view.reports[0]!;
    expect(r).toMatchObject({
      reportId: id,
      examIds: [id],
      status: 'corrected',
      approved: true,
      isPrinted: false,
      findings: '双肺纹理清晰。<b>未见</b>实变。',
      conclusion: '胸部CT未见异常',
      positive: false,
      exam: { patientName: '张三', modality: 'CT', studyDate: '20240601' },
      writer: { name: '李医生' },
      approver: { name: '王主任' },
    });
    expect(r.writer!.signatureUrl).toBeTruthy();
    expect(r.approver!.signatureUrl).toBeTruthy();
    expect(r.images.map((i) => [i.id, i.desc, i.index])).toEqual([
      [first, '肺窗', 0],
      [third, '纵隔窗', 1],
    ]);
    // The image is served from its URL.
    const image = await t.app.inject({ method: 'GET', url: r.images[0]!.url });
    expect(image.statusCode).toBe(200);

    // The caller's image column preference wins over the template's; without view_privacy names are masked.
    expect(
      (await t.call('PATCH', 'accounts/me', { token: tok.doctor!, body: { preferences: { imageColumn: 1 } } }))
        .statusCode,
    ).toBe(200);
    const doctorView = (await f.as('doctor').get(`reports/${id}/print-view`)).json() as PrintView;
    expect(doctorView).toMatchObject({ imageColumns: 1, masked: true });
    expect(doctorView.reports[0]!.exam.patientName).not.toContain('三');
    const audit = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'report.print_view'), eq(auditLogs.targetId, id)));
    expect(audit.length).toBe(2);
  });

  it('holds the sample graphs placed with isPrinted, with their marks, and not the others', async () => {
    const id = await f.newExam(radiology);
    const diagram = makePng(300, 200, (x, y) =>
      Math.hypot(x - 150, y - 100) < 80 ? [90, 90, 90, 255] : [255, 255, 255, 255],
    );
    const points = [
      { x: 60, y: 50, color: '#f5222d', label: '1' },
      { x: 250, y: 150, color: '#1677ff', label: '2' },
    ];
    const printed = await f.sampleGraph(radiology, id, diagram, '肝脏分段', points);
    await f.sampleGraph(
      radiology,
      id,
      diagram,
      '不打印的示意图',
      [{ x: 10, y: 10, color: '#000000', label: '1' }],
      false,
    );
    await f.approved(id, f.content('所见', '结论'));

    const view = (await f.as('senior').get(`reports/${id}/print-view`)).json() as PrintView;
    const graphs = view.reports[0]!.sampleGraphs;
    expect(graphs).toEqual([
      { id: printed.id, title: '肝脏分段', url: expect.any(String), width: 300, height: 200, index: 0, points },
    ]);
    const image = await t.app.inject({ method: 'GET', url: graphs[0]!.url });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(diagram)).toBe(true);
    // A merged print carries them too; a report without any has none.
    const other = await f.newExam(radiology);
    await f.approved(other, f.content('所见', '结论'));
    const sheets = (await f.as('senior').post('reports/print-sheets', { examIds: [id, other] })).json() as PrintView;
    expect(sheets.reports.map((r) => r.sampleGraphs.map((g) => g.title))).toEqual([['肝脏分段'], []]);
  });

  it('shows the enabled group attributes that carry a value', async () => {
    const group = (await f.as('groupadmin').get(`groups/${renhe}/attributes`)).json() as Record<string, unknown>;
    const set = await f.as('groupadmin').post(`groups/${renhe}/update`, {
      attributes: {
        ...group,
        urgentNotes: { enabled: true, label: '急诊备注' },
        enReportFlag: { enabled: false, label: '' },
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    const id = await f.newExam(radiology);
    // Where an exam carries the attributes' values (an integration writes them with the exam).
    await t.db.database.db
      .update(exams)
      .set({ extensions: { urgentNotes: '请尽快复查', enReportFlag: '1' } })
      .where(eq(exams.id, id));
    await f.approved(id, f.content('所见', '结论'));
    const view = (await f.as('senior').get(`reports/${id}/print-view`)).json() as PrintView;
    expect(view.reports[0]!.attributes).toEqual([{ key: 'urgentNotes', label: '急诊备注', value: '请尽快复查' }]);
  });
});

describe('update-print-time', () => {
  const trail = async (id: string) =>
    ((await f.as('senior').get(`reports/${id}/report-trace`)).json() as { traces: ReportTraceItem[] }).traces.map(
      (s) => `${s.action}:${s.statusFrom}>${s.statusTo}`,
    );
  const examStatus = async (id: string) =>
    (await t.db.database.db.select({ s: exams.reportStatus }).from(exams).where(eq(exams.id, id)))[0]!.s;

  it('stamps printSubmittedAt before approval, printApprovedAt and printed after, traced and audited', async () => {
    const id = await f.newExam(radiology);
    expect((await f.as('doctor').post(`reports/${id}/update-print-time`)).statusCode).toBe(404);
    await f.approved(id, f.content('所见', '结论'), 'submit');
    expect((await f.as('tech').post(`reports/${id}/update-print-time`)).statusCode).toBe(403);

    const draft = await f.as('doctor').post(`reports/${id}/update-print-time`);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ status: 'final', isPrinted: false, printApprovedAt: null });
    expect((draft.json() as PrintTime).printSubmittedAt).toBe(t.clock.now().toISOString());
    expect(await examStatus(id)).toBe('final');

    await f.ok('senior', `reports/${id}/approve`);
    t.clock.advance(60_000);
    const printed = await f.as('senior').post(`reports/${id}/update-print-time`);
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.json()).toMatchObject({
      status: 'printed',
      isPrinted: true,
      printApprovedAt: t.clock.now().toISOString(),
    });
    expect(await examStatus(id)).toBe('printed');
    const detail = (await f.as('senior').get(`reports/${id}/detail`)).json() as {
      status: string;
      printApprovedAt: string;
      transitions: string[];
    };
    expect(detail).toMatchObject({
      status: 'printed',
      printApprovedAt: t.clock.now().toISOString(),
      transitions: ['recall'],
    });
    // A reprint is a step of its own.
    await f.as('doctor').post(`reports/${id}/update-print-time`);
    expect(await trail(id)).toEqual([
      'submit:none>final',
      'approve:final>corrected',
      'print:corrected>printed',
      'print:printed>printed',
    ]);
    const audit = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'report.print'), eq(auditLogs.targetId, id)));
    expect(audit.map((a) => (a.details as { statusTo: string }).statusTo).sort()).toEqual([
      'final',
      'printed',
      'printed',
    ]);
  });

  it('approve-and-print leaves a printed report the print view shows as printed', async () => {
    const id = await f.newExam(radiology);
    await f.approved(id, f.content('所见', '结论'), 'approve-and-print');
    const view = (await f.as('senior').get(`reports/${id}/print-view`)).json() as PrintView;
    expect(view.reports[0]).toMatchObject({ status: 'printed', approved: true, isPrinted: true });
    expect(view.reports[0]!.printApprovedAt).not.toBeNull();
  });
});

describe('printing sheets', () => {
  it('merges the chosen exams only when they are of the same day and organization', async () => {
    const a = await f.newExam(radiology, { studyDate: '20250301' });
    const b = await f.newExam(radiology, { studyDate: '20250301' });
    const c = await f.newExam(radiology, { studyDate: '20250302' });
    const other = await f.newExam(ultrasound, { studyDate: '20250301' });
    for (const id of [a, b, c]) await f.approved(id, f.content(`所见 ${id}`, '结论'));

    const merged = await f.as('senior').post('reports/print-sheets', { examIds: [b, a] });
    expect(merged.statusCode, merged.body).toBe(200);
    const view = merged.json() as PrintView;
    expect(view.reports.map((r) => r.reportId)).toEqual([b, a]);
    expect(view.template.hospitalName).toBe('仁和医院');

    const days = await f.as('senior').post('reports/print-sheets', { examIds: [a, c] });
    expect(days.statusCode).toBe(400);
    expect(days.json()).toMatchObject({
      code: 'ValidationError',
      details: { problem: 'notSameDay', days: { [a]: '20250301', [c]: '20250302' } },
    });
    const orgs = await f.as('doctor').post('reports/print-sheets', { examIds: [a, other] });
    expect(orgs.json()).toMatchObject({
      code: 'ValidationError',
      details: { problem: 'differentOrganizations', organizations: { [a]: radiology, [other]: ultrasound } },
    });
    // Exams the caller cannot print are not found, whoever owns them.
    expect((await f.as('tech').post('reports/print-sheets', { examIds: [a] })).statusCode).toBe(404);
    expect((await f.as('teleadmin').post('reports/print-sheets', { examIds: [a] })).statusCode).toBe(404);
    expect((await f.as('senior').post('reports/print-sheets', { examIds: [] })).statusCode).toBe(400);
  });
});
