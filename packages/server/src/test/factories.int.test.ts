import {
  DEMO_URGENT_COLOR_RULE,
  EMPTY_REPORT_CONTENT,
  type ExamPage,
  type Group,
  type Organization,
  type Report,
  type User,
} from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountByUsername,
  joinOrganization,
  makeAccount,
  makeColorRule,
  makeExam,
  makeGroup,
  makeGroupMember,
  makeMember,
  makeOrganization,
  makeReport,
  makeRole,
  signIn,
  TEST_PASSWORD,
} from './factories.js';
import { startTestApp, type TestApp } from './harness.js';

const WRITER = ['exam_get', 'report_upsert'] as const;
const APPROVER = ['exam_get', 'report_upsert', 'report_approval'] as const;

describe('test factories (issue 21 step 5): data a test builds in its own database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts from an empty database: no demo account signs in', async () => {
    expect(await accountByUsername(t, 'doctor')).toBeUndefined();
    const res = await t.call('POST', 'accounts/login-in', { body: { username: 'doctor', password: 'Yyp@2026' } });
    expect(res.statusCode).not.toBe(200);
  });

  it('makes a signed-in account with the default password; signIn: false answers no token', async () => {
    const a = await makeAccount(t, { name: '甲医生' });
    expect(a.password).toBe(TEST_PASSWORD);
    const me = await t.as(a.token).get('accounts/me');
    expect(me.statusCode, me.body).toBe(200);
    expect((me.json() as User).name).toBe('甲医生');
    const quiet = await makeAccount(t, { signIn: false, password: 'Other@2026x' });
    expect(quiet.token).toBe('');
    expect((await accountByUsername(t, quiet.username))?.id).toBe(quiet.accountId);
    expect(await signIn(t, quiet)).toMatch(/\./);
  });

  it('makes a group with its settings (privacy on) and an organization in it, seen by a group admin', async () => {
    const group = await makeGroup(t, { enablePrivacy: true, settings: { enableStat: false } });
    const org = await makeOrganization(t, { groupId: group.groupId, name: '放射科' });
    expect(org.groupId).toBe(group.groupId);
    const admin = await makeGroupMember(t, group.groupId, 1);
    const got = await t.as(admin.token).get(`groups/${group.groupId}`);
    expect(got.statusCode, got.body).toBe(200);
    expect((got.json() as Group).settings).toMatchObject({
      enablePrivacy: true,
      enableStat: false,
      enableRegistry: true,
    });
    const orgs = await t.as(admin.token).get(`groups/${group.groupId}/organizations`);
    expect(orgs.statusCode, orgs.body).toBe(200);
    expect((orgs.json() as Organization[]).map((o) => o.name)).toEqual(['放射科']);
  });

  it('an organization alone gets a new group with privacy off; codes never collide', async () => {
    const a = await makeOrganization(t);
    const b = await makeOrganization(t);
    expect(a.groupId).not.toBe(b.groupId);
    expect(a.code).not.toBe(b.code);
    const admin = await makeGroupMember(t, a.groupId, 1);
    const got = (await t.as(admin.token).get(`groups/${a.groupId}`)).json() as Group;
    expect(got.settings.enablePrivacy).toBe(false);
  });

  it('a member holds exactly the actions of its role, in its organization only', async () => {
    const org = await makeOrganization(t);
    const other = await makeOrganization(t, { groupId: org.groupId });
    const reader = await makeMember(t, org.bucketId, { actions: ['exam_get'] });
    expect(reader.roleId).toBeTruthy();
    const { examId } = await makeExam(t, org.bucketId);
    const { examId: elsewhere } = await makeExam(t, other.bucketId);
    const page = await t.as(reader.token).post('exams/page-query', {});
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json() as ExamPage).exams.map((e) => e.id)).toEqual([examId]);
    expect(elsewhere).not.toBe(examId);
    // exam_get without report_upsert: the report cannot be written.
    const content = { ...EMPTY_REPORT_CONTENT, conclusion: '无' };
    const write = await t.as(reader.token).post(`reports/${examId}/submit`, { version: 0, content });
    expect(write.statusCode).toBe(403);
  });

  it('joinOrganization and makeRole add an existing account to a second organization', async () => {
    const org = await makeOrganization(t);
    const second = await makeOrganization(t, { groupId: org.groupId });
    const doctor = await makeMember(t, org.bucketId, { actions: ['exam_get'] });
    const { roleId } = await joinOrganization(t, second.bucketId, doctor.accountId, { level: 'member' });
    expect(roleId).toBeNull();
    await makeRole(t, second.bucketId, ['exam_get'], { members: [doctor.accountId] });
    await makeExam(t, org.bucketId);
    await makeExam(t, second.bucketId);
    const page = (await t.as(doctor.token).post('exams/page-query', {})).json() as ExamPage;
    expect(page.exams).toHaveLength(2);
  });

  it('makes an exam through the ingest with the study options given', async () => {
    const org = await makeOrganization(t);
    const reader = await makeMember(t, org.bucketId, { actions: ['exam_get'] });
    const { examId, study } = await makeExam(t, org.bucketId, {
      modality: 'MR',
      series: 2,
      patientName: 'DOE^JANE',
      source: 'dimse',
    });
    expect(study.instances).toHaveLength(2);
    const page = (await t.as(reader.token).post('exams/page-query', {})).json() as ExamPage;
    expect(page.exams).toHaveLength(1);
    expect(page.exams[0]).toMatchObject({ id: examId, patientId: study.patientId });
  });

  it('makes reports: draft, submitted, and approved by an approver', async () => {
    const org = await makeOrganization(t);
    const writer = await makeMember(t, org.bucketId, { actions: WRITER });
    const approver = await makeMember(t, org.bucketId, { actions: APPROVER });
    const status = async (examId: string) =>
      ((await t.as(approver.token).get(`reports/${examId}/detail`)).json() as Report).status;
    const draft = (await makeExam(t, org.bucketId)).examId;
    await makeReport(t, draft, { writer: writer.token, state: 'draft' });
    const submitted = (await makeExam(t, org.bucketId)).examId;
    await makeReport(t, submitted, { writer: writer.token, content: { conclusion: '未见异常' } });
    const approved = (await makeExam(t, org.bucketId)).examId;
    const { reportId } = await makeReport(t, approved, {
      writer: writer.token,
      approver: approver.token,
      state: 'approved',
    });
    expect(reportId).toBe(approved);
    expect(await status(draft)).toBe('partial');
    expect(await status(submitted)).toBe('final');
    expect(await status(approved)).toBe('corrected');
    const content = await t.as(writer.token).get(`reports/${submitted}/content`);
    expect(content.json()).toMatchObject({ content: { conclusion: '未见异常' } });
  });

  it('makes a colour rule of a group and removes it', async () => {
    const group = await makeGroup(t);
    const rule = await makeColorRule(t, group.groupId, { ...DEMO_URGENT_COLOR_RULE });
    expect(await rule.remove()).toBe(true);
    expect(await rule.remove()).toBe(false);
  });
});
