import { EMPTY_REPORT_CONTENT, type Report, type ReportContent } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { buckets, exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { hospitalWithPrivacyOn } from '../../test/privacy.js';

/** The shared fixture of the reports integration tests: the app, callers' tokens and helpers. */
export let t: TestApp;
export const tok: Record<string, string> = {};
export let radiology = '';
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

export function useReportsFixture(): void {
  beforeAll(async () => {
    t = await startTestApp();
    // Masking as a caller without view_privacy in a privacy-on group sees it (test/privacy.ts).
    await hospitalWithPrivacyOn(t.db.database.db);
    const [b] = await t.db.database.db.select().from(buckets).where(eq(buckets.code, 'RH-RAD'));
    radiology = b!.id;
    for (const u of ['doctor', 'senior', 'tech', 'teleadmin', 'groupadmin', 'notetaker']) tok[u] = await t.login(u);
  });
  afterAll(async () => {
    await t.close();
  });
}
