import type { QualityPage, ReportComment, ReportComments, ReportQualityAnswer, ReportRatings } from '@yyp/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, groups, reportComments, reportQuality, reportRatings } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeHospital } from '../../test/factories-reports.js';
import { approvedReport, newExam } from '../../test/report-safety.fixture.js';

let t: TestApp;
let tok: Record<string, string> = {};
let radiology = '';
let checkup = '';
let renhe = '';
const as = (who: string) => t.as(tok[who]!);
const db = () => t.db.database.db;
const approved = () => approvedReport(t, radiology, tok.doctor!, tok.senior!);
const actions = async (id: string) =>
  (await db().select({ a: auditLogs.action }).from(auditLogs).where(eq(auditLogs.targetId, id))).map((r) => r.a);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Masking as a caller without view_privacy in a privacy-on group sees it (doctor masked, senior not).
  const staff = ['doctor', 'senior', 'tech', 'registrar', 'teleadmin', 'notetaker'] as const;
  ({ tok, radiology, checkup, groupId: renhe } = await makeHospital(t, staff, { privacy: true }));
});
afterAll(async () => {
  await t.close();
});

describe('report quality', () => {
  const grade = { level: 'B', suggestion: '结论应写明大小', unsatisfactoryItems: ['描述不完整', '未写测量值'] };

  it('grades only approved or printed reports, not by their writer, and needs quality_upsert', async () => {
    const draft = await newExam(t, radiology);
    const notYet = await as('senior').post(`reports/${draft}/quality`, grade);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json()).toMatchObject({ code: 'ReportNotApproved', details: { status: 'none' } });

    const id = await approved();
    expect((await as('doctor').post(`reports/${id}/quality`, grade)).statusCode).toBe(403);
    expect((await as('tech').post(`reports/${id}/quality`, grade)).statusCode).toBe(403);

    const bad = [
      { ...grade, level: 'E' },
      { ...grade, suggestion: 'x'.repeat(1001) },
      { ...grade, unsatisfactoryItems: Array.from({ length: 21 }, (_, i) => `item ${i}`) },
      { ...grade, unsatisfactoryItems: ['x'.repeat(65)] },
    ];
    for (const body of bad) expect((await as('senior').post(`reports/${id}/quality`, body)).statusCode).toBe(400);
    expect(await db().select().from(reportQuality).where(eq(reportQuality.reportId, id))).toEqual([]);

    const res = await as('senior').post(`reports/${id}/quality`, grade);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reportId: id, ...grade, creator: { name: '王主任' } });
    const regraded = await as('senior').post(`reports/${id}/quality`, { level: 'A' });
    expect(regraded.json()).toMatchObject({ level: 'A', suggestion: '', unsatisfactoryItems: [] });

    // Its writer sees the grade but may not change it.
    const seen = (await as('doctor').get(`reports/${id}/quality`)).json() as ReportQualityAnswer;
    expect(seen).toMatchObject({ quality: { level: 'A' }, canUpsert: false, canDelete: false, gradable: true });
    expect(((await as('senior').get(`reports/${id}/quality`)).json() as ReportQualityAnswer).canDelete).toBe(true);
    expect(await actions(id)).toEqual(expect.arrayContaining(['report_quality.upsert', 'report_quality.read']));
  });

  it('lists graded reports for review, masked without view_privacy, and deletes with quality_delete', async () => {
    const a = await approved();
    const b = await approved();
    await as('senior').post(`reports/${a}/quality`, { level: 'C', unsatisfactoryItems: ['错别字'] });
    await as('senior').post(`reports/${b}/quality`, { level: 'D' });

    const page = await as('senior').post(`quality/page-query?bucketId=${radiology}`, {
      level: 'C',
      skip: 0,
      limit: 10,
    });
    expect(page.statusCode, page.body).toBe(200);
    const seniorPage = page.json() as QualityPage;
    expect(seniorPage.data.map((d) => d.reportId)).toContain(a);
    expect(seniorPage.data.every((d) => d.level === 'C')).toBe(true);
    expect(seniorPage.data.find((d) => d.reportId === a)).toMatchObject({ patientName: '危^急', modality: 'CT' });
    // The writing doctor holds quality_upsert but not view_privacy.
    const doctorPage = (await as('doctor').post(`quality/page-query?bucketId=${radiology}`, {})).json() as QualityPage;
    expect(doctorPage.count).toBeGreaterThanOrEqual(2);
    expect(doctorPage.data.find((d) => d.reportId === b)?.patientName).toBe('危*');
    expect((await as('tech').post(`quality/page-query?bucketId=${radiology}`, {})).statusCode).toBe(403);

    expect((await as('doctor').del(`reports/${b}/quality`)).statusCode).toBe(403);
    expect((await as('senior').del(`reports/${b}/quality`)).statusCode).toBe(204);
    expect(((await as('senior').get(`reports/${b}/quality`)).json() as ReportQualityAnswer).quality).toBeNull();
    expect((await as('senior').del(`reports/${b}/quality`)).statusCode).toBe(404);
    expect(await actions(b)).toContain('report_quality.delete');
  });

  it('lists every organization where the caller reviews quality when none is named', async () => {
    const inRadiology = await approved();
    await as('senior').post(`reports/${inRadiology}/quality`, { level: 'A' });
    // 体检中心: the senior approves there, the doctor is no member; its grade is written directly.
    const inCheckup = await newExam(t, checkup);
    await db().insert(reportQuality).values({ reportId: inCheckup, bucketId: checkup, level: 'B' });

    const all = await as('senior').post('quality/page-query', { limit: 100 });
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json() as QualityPage;
    expect(page.data.find((d) => d.reportId === inRadiology)).toMatchObject({ bucketName: '放射科' });
    expect(page.data.find((d) => d.reportId === inCheckup)).toMatchObject({ bucketName: '体检中心', level: 'B' });
    const named = (await as('senior').post(`quality/page-query?bucketId=${checkup}`, {})).json() as QualityPage;
    expect(named.data.map((d) => d.reportId)).toEqual([inCheckup]);
    // The doctor reviews in radiology (and 超声科) only; naming 体检中心, which it cannot see, is not found.
    const doctors = (await as('doctor').post('quality/page-query', { limit: 100 })).json() as QualityPage;
    expect(doctors.data.some((d) => d.reportId === inRadiology)).toBe(true);
    expect(doctors.data.some((d) => d.reportId === inCheckup)).toBe(false);
    expect((await as('doctor').post(`quality/page-query?bucketId=${checkup}`, {})).statusCode).toBe(404);
    // Another group's admin sees none of it.
    const other = await as('teleadmin').post('quality/page-query', {});
    expect(other.statusCode).toBe(200);
    expect((other.json() as QualityPage).count).toBe(0);
    // The PHI audit names each organization shown.
    const audited = await db()
      .select({ bucketId: auditLogs.bucketId })
      .from(auditLogs)
      .where(eq(auditLogs.action, 'report_quality.list'));
    expect(audited.map((r) => r.bucketId)).toEqual(expect.arrayContaining([radiology, checkup]));
  });
});

describe('report ratings', () => {
  it('rates an approved report once; a second rating answers 409 and changes nothing', async () => {
    const draft = await newExam(t, radiology);
    expect((await as('senior').post(`reports/${draft}/rating`, { score: 4 })).statusCode).toBe(409);

    const id = await approved();
    expect((await as('doctor').post(`reports/${id}/rating`, { score: 5 })).statusCode).toBe(403);
    expect((await as('senior').post(`reports/${id}/rating`, { score: 6 })).statusCode).toBe(400);
    expect((await as('senior').post(`reports/${id}/rating`, { score: 4, comment: 'x'.repeat(501) })).statusCode).toBe(
      400,
    );

    const first = await as('senior').post(`reports/${id}/rating`, { score: 4, comment: '描述清楚' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ score: 4, comment: '描述清楚', rater: { name: '王主任' }, mine: true });
    const second = await as('senior').post(`reports/${id}/rating`, { score: 1, comment: '改主意了' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'RatingAlreadySubmitted' });
    const rows = await db().select().from(reportRatings).where(eq(reportRatings.reportId, id));
    expect(rows.map((r) => [r.score, r.comment])).toEqual([[4, '描述清楚']]);

    t.clock.advance(1000);
    expect((await as('tech').post(`reports/${id}/rating`, { score: 2 })).statusCode).toBe(201);
    const listed = (await as('senior').get(`reports/${id}/ratings`)).json() as ReportRatings;
    expect(listed).toMatchObject({ average: 3, canRate: false });
    expect(listed.items.map((r) => [r.score, r.mine])).toEqual([
      [4, true],
      [2, false],
    ]);
    expect(((await as('registrar').get(`reports/${id}/ratings`)).json() as ReportRatings).canRate).toBe(true);
    expect(await actions(id)).toEqual(expect.arrayContaining(['report_rating.create', 'report_rating.list']));
  });
});

describe('report comments', () => {
  it('adds, lists and deletes comments (its author only) where the group allows them', async () => {
    const id = await newExam(t, radiology);
    expect((await as('doctor').post(`reports/${id}/comment`, { text: ' ' })).statusCode).toBe(400);
    expect((await as('doctor').post(`reports/${id}/comment`, { text: 'x'.repeat(1001) })).statusCode).toBe(400);
    const made = await as('doctor').post(`reports/${id}/comment`, { text: '请结合临床' });
    expect(made.statusCode, made.body).toBe(201);
    const comment = made.json() as ReportComment;
    expect(comment).toMatchObject({ text: '请结合临床', author: { name: '李医生' }, mine: true });

    const seen = (await as('senior').get(`reports/${id}/comments`)).json() as ReportComments;
    expect(seen.items).toMatchObject([{ id: comment.id, mine: false }]);
    expect((await as('senior').del(`reports/${id}/comments/${comment.id}`)).statusCode).toBe(403);
    const other = await newExam(t, radiology);
    expect((await as('doctor').del(`reports/${other}/comments/${comment.id}`)).statusCode).toBe(404);
    expect((await as('doctor').del(`reports/${id}/comments/${comment.id}`)).statusCode).toBe(204);
    expect(((await as('senior').get(`reports/${id}/comments`)).json() as ReportComments).items).toEqual([]);
    expect((await as('doctor').del(`reports/${id}/comments/${comment.id}`)).statusCode).toBe(404);
    // The row stays, deleted, for the trail.
    const [row] = await db().select().from(reportComments).where(eq(reportComments.id, comment.id));
    expect(row!.deletedAt).not.toBeNull();
    expect(await actions(id)).toEqual(
      expect.arrayContaining(['report_comment.create', 'report_comment.list', 'report_comment.delete']),
    );
  });

  it('answers 403 ReportCommentsDisabled where the group turned comments off', async () => {
    const id = await newExam(t, radiology);
    const setFlag = (on: boolean) =>
      db()
        .update(groups)
        .set({ settings: sql`${groups.settings} || ${JSON.stringify({ allowReportComment: on })}::jsonb` })
        .where(eq(groups.id, renhe));
    await setFlag(false);
    try {
      for (const res of [
        await as('doctor').get(`reports/${id}/comments`),
        await as('doctor').post(`reports/${id}/comment`, { text: '请结合临床' }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'ReportCommentsDisabled' });
      }
      expect(await db().select().from(reportComments).where(eq(reportComments.reportId, id))).toEqual([]);
    } finally {
      await setFlag(true);
    }
  });
});

describe('another group', () => {
  it('gets 404 on every review call and none of the data', async () => {
    const id = await approved();
    await as('senior').post(`reports/${id}/quality`, { level: 'B', suggestion: '机密建议' });
    await as('senior').post(`reports/${id}/rating`, { score: 5, comment: '机密评价' });
    const c = (await as('doctor').post(`reports/${id}/comment`, { text: '机密评论' })).json() as ReportComment;
    const calls = [
      as('teleadmin').get(`reports/${id}/quality`),
      as('teleadmin').post(`reports/${id}/quality`, { level: 'A' }),
      as('teleadmin').del(`reports/${id}/quality`),
      as('teleadmin').post(`quality/page-query?bucketId=${radiology}`, {}),
      as('teleadmin').get(`reports/${id}/ratings`),
      as('teleadmin').post(`reports/${id}/rating`, { score: 1 }),
      as('teleadmin').get(`reports/${id}/comments`),
      as('teleadmin').post(`reports/${id}/comment`, { text: 'x' }),
      as('teleadmin').del(`reports/${id}/comments/${c.id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/机密/);
    }
    expect((await db().select().from(reportRatings).where(eq(reportRatings.reportId, id))).length).toBe(1);
  });
});
