import { EMPTY_REPORT_CONTENT, type Report, type ReportContent } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeStaffed } from '../../test/factories-archive.js';
import { makeMaskingHospital } from '../../test/factories-privacy.js';
import { signIn, type BuiltMember } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** The shared fixture of the reports integration tests: the app, callers' tokens and helpers. */
export let t: TestApp;
export const tok: Record<string, string> = {};
/** The callers by name, as built (for signing in again). */
const staff: Record<string, BuiltMember> = {};
export let radiology = '';
/** The hospital's group, and another group's organization (with its own staff). */
export const groups = { hospital: '', tele: '', teleOrg: '' };
let patientSeq = 0;

/** A patient ID no other test uses. */
export function nextPatientId(prefix = 'RPT'): string {
  return `${prefix}-${++patientSeq}`;
}

export async function newExam(bucketId = radiology, patientId = nextPatientId()): Promise<string> {
  const study = generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName: '张^三',
    charset: 'GB18030',
    patientId,
  });
  return (await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web')).examId;
}

export const content = (findings: string, conclusion: string, over: Partial<ReportContent> = {}): ReportContent => ({
  ...EMPTY_REPORT_CONTENT,
  findings,
  conclusion,
  ...over,
});

export const as = (who: string) => t.as(tok[who]!);
export async function detail(who: string, id: string): Promise<Report> {
  const res = await as(who).get(`reports/${id}/detail`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}
export async function act(who: string, id: string, action: string, body: unknown = {}) {
  return as(who).post(`reports/${id}/${action}`, body);
}
export async function ok<T = Report>(who: string, id: string, action: string, body: unknown = {}): Promise<T> {
  const res = await act(who, id, action, body);
  expect(res.statusCode, `${who} ${action}: ${res.body}`).toBe(200);
  return res.json() as T;
}
export const examStatus = async (id: string) =>
  (await t.db.database.db.select({ s: exams.reportStatus }).from(exams).where(eq(exams.id, id)))[0]!.s;

/** A caller's name, as built (what answers name it by). */
export function nameOf(who: string): string {
  return staff[who]!.name;
}

/** A new token of a caller (another session, or after the clock moved past the old one's life). */
export function signInAgain(who: string): Promise<string> {
  return signIn(t, staff[who]!);
}

export function useReportsFixture(): void {
  beforeAll(async () => {
    t = await startTestApp({ seed: false });
    // A hospital's radiology with privacy on whose reporting doctors lack view_privacy (masking as
    // they see it), and the admin of another group.
    const { org, ...hospital } = await makeMaskingHospital(t, ['doctor', 'senior', 'tech', 'groupadmin', 'notetaker']);
    const { org: teleOrg, ...tele } = await makeStaffed(t, ['teleadmin', 'teledoctor'], {
      group: { enablePrivacy: true },
    });
    radiology = org.bucketId;
    Object.assign(groups, { hospital: org.groupId, tele: teleOrg.groupId, teleOrg: teleOrg.bucketId });
    Object.assign(staff, hospital, tele);
    for (const [u, member] of Object.entries(staff)) tok[u] = member.token;
  });
  afterAll(async () => {
    await t.close();
  });
}
