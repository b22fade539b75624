import { makeReport } from './factories.js';
import { ctExam } from './factories-reports.js';
import type { TestApp } from './harness.js';

/** Test data for the report-safety tests (CONVENTIONS 12: factories build test data). */

/** A one-slice CT exam in the organization; its id is its report's id. */
export function newExam(t: TestApp, bucketId: string): Promise<string> {
  return ctExam(t, bucketId, { patientName: '危^急' });
}

/** The writer submits the report and the approver approves it (status corrected). */
export async function approvedReport(t: TestApp, bucketId: string, writer: string, approver: string): Promise<string> {
  const id = await newExam(t, bucketId);
  const content = { findings: '右侧气胸。', conclusion: '右侧气胸' };
  return (await makeReport(t, id, { writer, approver, content, state: 'approved' })).reportId;
}
