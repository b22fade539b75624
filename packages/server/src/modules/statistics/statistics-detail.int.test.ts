import {
  ACTION_CATALOGUE,
  statReportDetailQuerySchema,
  XLSX_CONTENT_TYPE,
  type AllowedStatistics,
  type GroupQuality,
  type StatOverview,
  type StatTable,
} from '@yyp/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { accountByUsername } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { DetailStatistics } from './statistics-detail.service.js';
import { auditRowsOf, denialsOf, makeStatWorld, type StatWorld } from './statistics-detail.fixture.js';

/**
 * The statistics calls beyond the tables (statistics-detail.service.ts): report-detail and its
 * export, the overview, the organizations the caller may count, a group's quality summary, and the
 * quality table. The world: statistics-detail.fixture.ts.
 */
let t: TestApp;
let w: StatWorld;
const NOV = 'from=2026-11-01&to=2026-11-30';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeStatWorld(t);
});
afterAll(async () => {
  await t.close();
});

const get = (token: string, url: string) => t.as(token).get(url);
type Detail = { items: { examId: string; patientName: string; approvedAt: string }[]; total: number } & Record<
  string,
  unknown
>;

describe('statistics/report-detail', () => {
  it("lists a doctor's approved reports of the period, newest approval first, and audits the read", async () => {
    const url = `statistics/report-detail?${NOV}&doctorId=${w.writer.accountId}&role=written`;
    const res = await get(w.admin.token, url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Detail;
    // r4 is only submitted: not listed. u1 is ultrasound's: the admin counts both organizations.
    expect(body.items.map((i) => i.examId)).toEqual([w.exams.r3, w.exams.u1, w.exams.r2, w.exams.r1]);
    expect(body.total).toBe(4);
    const first = (res.json() as { items: Record<string, unknown>[] }).items[3]!;
    expect(first).toMatchObject({
      bucketName: '统计放射科',
      patientName: 'Zhang^San',
      modality: 'CT',
      writer: { id: w.writer.accountId, name: '王书写' },
      approver: { id: w.approver.accountId, name: '李审核' },
      noteTaker: null,
      positive: true,
      bodyPartCount: 1,
    });
    expect((res.json() as { items: Record<string, unknown>[] }).items[2]).toMatchObject({
      positive: false,
      bodyPartCount: 2,
    });
    const audits = await auditRowsOf(t, w.admin.accountId, 'statistics.report_detail.list');
    expect(audits.map((a) => a.bucketId).sort()).toEqual([w.radiology, w.ultrasound].sort());
    expect(audits.find((a) => a.bucketId === w.ultrasound)!.details).toEqual({ examIds: [w.exams.u1] });
  });

  it('pages with skip and limit, filters by modality and role, answers the same to POST', async () => {
    const page = (await get(w.admin.token, `statistics/report-detail?${NOV}&skip=1&limit=2`)).json() as Detail;
    expect(page.items.map((i) => i.examId)).toEqual([w.exams.u1, w.exams.r2]);
    expect(page.total).toBe(4);
    const us = (await get(w.admin.token, `statistics/report-detail?${NOV}&modality=US`)).json() as Detail;
    expect(us.items.map((i) => i.examId)).toEqual([w.exams.u1]);
    // The writer approved nothing; the approver approved all four.
    const asApprover = `doctorId=${w.writer.accountId}&role=approved`;
    expect(((await get(w.admin.token, `statistics/report-detail?${NOV}&${asApprover}`)).json() as Detail).total).toBe(
      0,
    );
    const post = await t.as(w.admin.token).post('statistics/report-detail', {
      from: '2026-11-23',
      to: '2026-11-23',
      doctorId: w.approver.accountId,
    });
    expect(post.statusCode).toBe(200);
    expect((post.json() as Detail).items.map((i) => i.examId)).toEqual([w.exams.r3]);
  });

  it("lists as many reports as the doctor workload table counts for the doctor (the drill-down's promise)", async () => {
    const table = (await get(w.admin.token, `statistics/report?${NOV}&by=doctor`)).json() as StatTable;
    const row = (id: string) => table.rows.find((r) => r.key === id)!.values;
    for (const [id, role, column] of [
      [w.writer.accountId, 'written', 'written'],
      [w.approver.accountId, 'approved', 'approved'],
    ] as const) {
      const detail = (await get(w.admin.token, `statistics/report-detail?${NOV}&doctorId=${id}&role=${role}`)).json();
      expect((detail as Detail).total, role).toBe(row(id)[column]);
      expect((detail as Detail).total).toBe(4);
    }
  });

  it('counts only the organizations where the caller holds physician_workload_stats', async () => {
    const head = (await get(w.head.token, `statistics/report-detail?${NOV}`)).json() as Detail;
    expect(head.total).toBe(3);
    expect(head.items.map((i) => i.examId)).not.toContain(w.exams.u1);
    expect((await get(w.head.token, `statistics/report-detail?${NOV}&bucketIds=${w.ultrasound}`)).statusCode).toBe(403);
    expect((await get(w.otherAdmin.token, `statistics/report-detail?${NOV}&groupId=${w.groupId}`)).statusCode).toBe(
      404,
    );
    expect((await get(w.head.token, 'statistics/report-detail?from=2026-11-30&to=2026-11-01')).json().code).toBe(
      'StatisticsRangeInvalid',
    );
  });

  it('masks patient names where the caller may not see them (group privacy on, no view_privacy)', async () => {
    await t.db.database.db.execute(
      sql`update groups set settings = settings || '{"enablePrivacy": true}'::jsonb where id = ${w.groupId}`,
    );
    try {
      const head = (await get(w.head.token, `statistics/report-detail?${NOV}`)).json() as Detail;
      expect(head.items.map((i) => i.patientName)).toEqual(['W*u', 'L*i', 'Z*n']);
    } finally {
      await t.db.database.db.execute(
        sql`update groups set settings = settings || '{"enablePrivacy": false}'::jsonb where id = ${w.groupId}`,
      );
    }
  });

  it('exports the list as .xlsx, audited, and refuses more reports than its limit (ExportLimitExceeded)', async () => {
    const res = await get(w.admin.token, `statistics/report-detail/export-excel?${NOV}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    expect(res.headers['x-export-count']).toBe('4');
    expect(await auditRowsOf(t, w.admin.accountId, 'statistics.report_detail.exported')).toHaveLength(2);
    // The limit (STAT_EXPORT_MAX, given small here as credits.int.test.ts does: thousands of
    // approved reports take half a minute to write on PGlite): one report more is refused.
    const account = (await accountByUsername(t, w.admin.username))!;
    const caller = { account, ctx: { ip: null, userAgent: null } };
    const q = statReportDetailQuerySchema.parse({ from: '2026-11-01', to: '2026-11-30' });
    const small = (max: number) => new DetailStatistics(t.db.database.db, t.clock, t.services.statistics, max);
    const err = await small(3)
      .exportReportDetail(caller, q)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ExportLimitExceeded');
    expect((await small(4).exportReportDetail(caller, q)).count).toBe(4);
    expect((await small(3).exportReportDetail(caller, { ...q, bucketIds: [w.ultrasound] })).count).toBe(1);
  });
});

describe('statistics/overview', () => {
  it('answers a group admin the totals and rows by period, user and organization', async () => {
    const q = `${NOV}&groupId=${w.groupId}&interval=month`;
    const total = (await get(w.admin.token, `statistics/overview/total?${q}`)).json() as StatOverview;
    expect(total.totals).toEqual({ exams: 5, reports: 4, buckets: 2, users: 2 });
    expect(total.rows).toEqual([{ key: '2026-11', label: '2026-11', values: { exams: 5, reports: 4 } }]);
    const users = (await get(w.admin.token, `statistics/overview/user?${q}`)).json() as StatOverview;
    expect(users.rows.map((r) => [r.label, r.values])).toEqual([
      ['李审核', { written: 0, approved: 4 }],
      ['王书写', { written: 4, approved: 0 }],
    ]);
    const buckets = await t.as(w.admin.token).post('statistics/overview/bucket', {
      from: '2026-11-01',
      to: '2026-11-30',
      groupId: w.groupId,
    });
    expect(buckets.statusCode).toBe(200);
    expect((buckets.json() as StatOverview).rows.map((r) => [r.label, r.values])).toEqual([
      ['统计放射科', { exams: 4, reports: 3 }],
      ['统计超声科', { exams: 1, reports: 1 }],
    ]);
  });

  it("refuses a member unless the group's allowOverview is on (403 StatisticsDisabled, audited)", async () => {
    const res = await get(w.head.token, `statistics/overview/total?${NOV}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('StatisticsDisabled');
    expect((await denialsOf(t, w.head.accountId)).map((d) => d.action)).toContain('allowOverview');
    const db = t.db.database.db;
    await db.execute(
      sql`update groups set settings = settings || '{"allowOverview": true}'::jsonb where id = ${w.groupId}`,
    );
    try {
      const on = (await get(w.head.token, `statistics/overview/total?${NOV}`)).json() as StatOverview;
      expect(on.totals).toEqual({ exams: 4, reports: 3, buckets: 1, users: 2 });
    } finally {
      await db.execute(sql`update groups set settings = settings - 'allowOverview' where id = ${w.groupId}`);
    }
    expect((await get(w.plain.token, `statistics/overview/total?${NOV}`)).statusCode).toBe(403);
  });
});

describe('buckets/allowed-statistics and buckets/allowed', () => {
  it('lists per organization the statistics actions held, and the groups', async () => {
    const head = (await get(w.head.token, 'buckets/allowed-statistics')).json() as AllowedStatistics;
    expect(head.items).toEqual([
      {
        bucketId: w.radiology,
        name: '统计放射科',
        groupId: w.groupId,
        actions: [
          'device_workload_stats',
          'note_taker_stats',
          'org_workload_stats',
          'physician_workload_stats',
          'quality_stats',
          'remote_report_stats',
        ],
      },
    ]);
    expect(head.groups).toEqual([{ id: w.groupId, name: expect.any(String), enableStat: true, isAdmin: false }]);
    const admin = (await get(w.admin.token, 'buckets/allowed-statistics')).json() as AllowedStatistics;
    expect(admin.items.map((i) => i.name).sort()).toEqual(['统计放射科', '统计超声科']);
    for (const item of admin.items) expect(item.actions).toEqual([...ACTION_CATALOGUE.statistics].sort());
    expect(admin.groups[0]!.isAdmin).toBe(true);
    const off = (await get(w.offAdmin.token, 'buckets/allowed-statistics')).json() as AllowedStatistics;
    expect(off.groups).toEqual([{ id: w.offGroupId, name: expect.any(String), enableStat: false, isAdmin: true }]);
    const plain = (await get(w.plain.token, 'buckets/allowed-statistics')).json() as AllowedStatistics;
    expect(plain.items).toEqual([]);
  });

  it('lists the organizations holding any action of the catalogue; 400 for an unknown one', async () => {
    const ids = async (token: string, action: string) =>
      ((await get(token, `buckets/allowed?action=${action}`)).json() as { items: { id: string }[] }).items
        .map((i) => i.id)
        .sort();
    expect(await ids(w.head.token, 'quality_stats')).toEqual([w.radiology]);
    // exam_get: only ultrasound's role gives it to the head (radiology's holds statistics only).
    expect(await ids(w.head.token, 'exam_get')).toEqual([w.ultrasound]);
    expect(await ids(w.writer.token, 'report_upsert')).toEqual([w.radiology, w.ultrasound].sort());
    expect(await ids(w.writer.token, 'quality_stats')).toEqual([]);
    expect(await ids(w.otherAdmin.token, 'quality_stats')).toEqual([w.otherBucket]);
    const bad = await get(w.head.token, 'buckets/allowed?action=no_such_action');
    expect(bad.statusCode).toBe(400);
    expect((await get(w.head.token, 'buckets/allowed')).statusCode).toBe(400);
  });
});

describe('quality', () => {
  it('counts grades by level, writer, item and organization, basis the grading time', async () => {
    const table = async (by: string, extra = '') =>
      (await get(w.admin.token, `statistics/quality?${NOV}&by=${by}${extra}`)).json() as StatTable;
    const levels = await table('level', '&interval=day');
    expect(levels.columns).toEqual(['graded', 'levelA', 'levelB', 'levelC', 'levelD', 'unsatisfactory']);
    expect(levels.rows.map((r) => [r.key, r.values.graded])).toEqual([
      ['A', 1],
      ['B', 1],
      ['C', 1],
      ['D', 1],
    ]);
    expect(levels.totals).toEqual({ graded: 4, levelA: 1, levelB: 1, levelC: 1, levelD: 1, unsatisfactory: 4 });
    const day = (d: string) => levels.periods.find((p) => p.period === d)!.values;
    expect(day('2026-11-22')).toMatchObject({ graded: 3, levelD: 0, unsatisfactory: 3 });
    expect(day('2026-11-23')).toMatchObject({ graded: 1, levelD: 1, unsatisfactory: 1 });
    const items = await table('item');
    expect(items.rows.map((r) => [r.label, r.values.graded, r.values.levelC])).toEqual([
      ['描述不全', 2, 1],
      ['结论不明', 2, 1],
    ]);
    const doctors = await table('doctor', `&modality=CT`);
    expect(doctors.rows.map((r) => [r.label, r.values.graded])).toEqual([['王书写', 3]]);
    const buckets = await table('bucket', `&doctorId=${w.approver.accountId}`);
    expect(buckets.totals.graded).toBe(0);
  });

  it("summarises a group's grades for groups/{id}/quality", async () => {
    const res = await get(w.admin.token, `groups/${w.groupId}/quality?${NOV}`);
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json() as GroupQuality;
    expect(q).toMatchObject({ graded: 4, levels: { A: 1, B: 1, C: 1, D: 1 } });
    expect(q.items).toEqual([
      { item: '描述不全', count: 2 },
      { item: '结论不明', count: 2 },
    ]);
    const rate = Object.fromEntries(q.buckets.map((b) => [b.name, [b.graded, b.goodRate]]));
    expect(rate).toEqual({ 统计放射科: [3, 1 / 3], 统计超声科: [1, 1] });
    const head = (await get(w.head.token, `groups/${w.groupId}/quality?${NOV}`)).json() as GroupQuality;
    expect(head.buckets.map((b) => b.id)).toEqual([w.radiology]);
    expect(head.graded).toBe(3);
  });

  it('refuses groups/{id}/quality to another group (404), a member without quality_stats (403), a group with statistics off', async () => {
    const other = await get(w.otherAdmin.token, `groups/${w.groupId}/quality?${NOV}`);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('统计放射科');
    expect((await get(w.plain.token, `groups/${w.groupId}/quality?${NOV}`)).statusCode).toBe(403);
    const off = await get(w.offAdmin.token, `groups/${w.offGroupId}/quality?${NOV}`);
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe('StatisticsDisabled');
    expect((await get(w.admin.token, `groups/${w.groupId}/quality?from=2026-11-02`)).statusCode).toBe(400);
  });
});
