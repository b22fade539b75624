import type { Action } from '@yyp/contracts';
import { sql } from 'drizzle-orm';
import {
  joinOrganization,
  makeExam,
  makeGroupMember,
  makeMember,
  makeOrganization,
  makeReport,
  signIn,
  unique,
  type BuiltAccount,
} from '../../test/factories.js';
import { APPROVING, REPORTING } from '../../test/factories-reports.js';
import type { TestApp } from '../../test/harness.js';

/**
 * The world of the statistics detail and scope tests: group A (statistics on) with radiology (CT)
 * and ultrasound (US); a writer and an approver reporting in both; a department head holding the
 * statistics actions in radiology only; a plain member of radiology; A's group admin. Group B with
 * its admin; group C with statistics off (enableStat false) and its admin.
 *
 * Reports approved: on 2026-11-22 (hospital day) radiology's r1 (CT, positive, graded A), r2
 * (CT, graded C with two unsatisfactory items), ultrasound's u1 (US, graded B, one item); on
 * 2026-11-23 radiology's r3 (CT, graded D, one item); r4 in radiology is written but not approved.
 * Grades are given when the report is approved (same instant).
 */
export const HEAD_ACTIONS: Action[] = [
  'physician_workload_stats',
  'org_workload_stats',
  'quality_stats',
  'device_workload_stats',
  'note_taker_stats',
  'remote_report_stats',
];

export interface StatWorld {
  groupId: string;
  radiology: string;
  ultrasound: string;
  otherGroupId: string;
  otherBucket: string;
  offGroupId: string;
  writer: BuiltAccount;
  approver: BuiltAccount;
  head: BuiltAccount;
  plain: BuiltAccount;
  admin: BuiltAccount;
  otherAdmin: BuiltAccount;
  offAdmin: BuiltAccount;
  /** exam ids: r1..r4 in radiology, u1 in ultrasound */
  exams: Record<'r1' | 'r2' | 'r3' | 'r4' | 'u1', string>;
}

export async function makeStatWorld(t: TestApp): Promise<StatWorld> {
  const rad = await makeOrganization(t, { name: '统计放射科', group: { displayName: unique('统计医院') } });
  const { groupId } = rad;
  const us = await makeOrganization(t, { groupId, name: '统计超声科' });
  const writer = await makeMember(t, rad.bucketId, { actions: REPORTING, name: '王书写' });
  await joinOrganization(t, us.bucketId, writer.accountId, { actions: REPORTING });
  const approver = await makeMember(t, rad.bucketId, { actions: APPROVING, name: '李审核' });
  await joinOrganization(t, us.bucketId, approver.accountId, { actions: APPROVING });
  const head = await makeMember(t, rad.bucketId, { actions: HEAD_ACTIONS, name: '赵主任' });
  await joinOrganization(t, us.bucketId, head.accountId, { actions: ['exam_get'] });
  const plain = await makeMember(t, rad.bucketId, { name: '孙成员' });
  const admin = await makeGroupMember(t, groupId, 1, { name: '周管理' });
  const other = await makeOrganization(t, { name: '他院科室', group: { displayName: unique('他院') } });
  const otherAdmin = await makeMember(t, other.bucketId, { level: 'admin', groupLevel: 1 });
  const off = await makeOrganization(t, {
    name: '停用科室',
    group: { displayName: unique('停用统计'), settings: { enableStat: false } },
  });
  const offAdmin = await makeMember(t, off.bucketId, { level: 'admin', groupLevel: 1 });

  const exam = async (bucketId: string, modality: 'CT' | 'US', patientName: string) =>
    (await makeExam(t, bucketId, { modality, patientName, bodyPartExamined: 'CHEST' })).examId;
  const approve = async (examId: string, content: Record<string, unknown> = {}) =>
    makeReport(t, examId, { writer: writer.token, approver: approver.token, state: 'approved', content });
  const grade = async (examId: string, level: string, unsatisfactoryItems: string[] = []) => {
    const res = await t.as(approver.token).post(`reports/${examId}/quality`, { level, unsatisfactoryItems });
    if (res.statusCode !== 200) throw new Error(`grade ${examId}: ${res.statusCode} ${res.body}`);
  };
  const exams = {
    r1: await exam(rad.bucketId, 'CT', 'Zhang^San'),
    r2: await exam(rad.bucketId, 'CT', 'Li^Si'),
    r3: await exam(rad.bucketId, 'CT', 'Wang^Wu'),
    r4: await exam(rad.bucketId, 'CT', 'Zhao^Liu'),
    u1: await exam(us.bucketId, 'US', 'Qian^Qi'),
  };
  await approve(exams.r1, { positive: true });
  await grade(exams.r1, 'A');
  t.clock.advance(60_000);
  await approve(exams.r2, { positive: false, bodyPartCount: 2 });
  await grade(exams.r2, 'C', ['描述不全', '结论不明']);
  t.clock.advance(60_000);
  await approve(exams.u1);
  await grade(exams.u1, 'B', ['描述不全']);
  // The next day: every token has expired (an hour's life), so everyone signs in again.
  t.clock.advance(86_400_000);
  for (const a of [writer, approver, head, plain, admin, otherAdmin, offAdmin]) a.token = await signIn(t, a);
  await approve(exams.r3);
  await grade(exams.r3, 'D', ['结论不明']);
  await makeReport(t, exams.r4, { writer: writer.token, state: 'submitted' });
  return {
    groupId,
    radiology: rad.bucketId,
    ultrasound: us.bucketId,
    otherGroupId: other.groupId,
    otherBucket: other.bucketId,
    offGroupId: off.groupId,
    writer,
    approver,
    head,
    plain,
    admin,
    otherAdmin,
    offAdmin,
    exams,
  };
}

/** The permission.denied audit rows of an account. */
export async function denialsOf(t: TestApp, accountId: string): Promise<{ action: string; bucketId: string | null }[]> {
  const result = await t.db.database.db.execute(sql`
    select details->>'action' as action, bucket_id as "bucketId" from audit_logs
    where actor_id = ${accountId} and action = 'permission.denied' order by id`);
  return (result as unknown as { rows: { action: string; bucketId: string | null }[] }).rows;
}

/** The audit rows of an account with this action. */
export async function auditRowsOf(
  t: TestApp,
  accountId: string,
  action: string,
): Promise<{ bucketId: string | null; details: Record<string, unknown> | null }[]> {
  const result = await t.db.database.db.execute(sql`
    select bucket_id as "bucketId", details from audit_logs
    where actor_id = ${accountId} and action = ${action} order by id`);
  return (result as unknown as { rows: { bucketId: string | null; details: never }[] }).rows;
}
