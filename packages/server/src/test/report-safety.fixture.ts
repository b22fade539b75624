import { EMPTY_REPORT_CONTENT } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { buckets } from '../db/schema.js';
import { generateStudy } from '../dicom/testdata/generate.js';
import type { TestApp } from './harness.js';

/** Test data for the report-safety tests (CONVENTIONS 12: factories build test data). */

let patientSeq = 0;

export async function bucketByCode(t: TestApp, code: string): Promise<string> {
  const [b] = await t.db.database.db.select().from(buckets).where(eq(buckets.code, code));
  return b!.id;
}

/** A one-slice CT exam in the organization; its id is its report's id. */
export async function newExam(t: TestApp, bucketId: string): Promise<string> {
  const study = generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName: '危^急',
    charset: 'GB18030',
    patientId: `SAFE-${++patientSeq}-${Date.now()}`,
  });
  return (await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web')).examId;
}

/** The writer submits the report and the approver approves it (status corrected). */
export async function approvedReport(t: TestApp, bucketId: string, writer: string, approver: string): Promise<string> {
  const id = await newExam(t, bucketId);
  const content = { ...EMPTY_REPORT_CONTENT, findings: '右侧气胸。', conclusion: '右侧气胸' };
  const submitted = await t.as(writer).post(`reports/${id}/submit`, { version: 0, content });
  if (submitted.statusCode !== 200) throw new Error(`submit: ${submitted.statusCode} ${submitted.body}`);
  const approved = await t.as(approver).post(`reports/${id}/approve`, {});
  if (approved.statusCode !== 200) throw new Error(`approve: ${approved.statusCode} ${approved.body}`);
  return id;
}
