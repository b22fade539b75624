import { EMPTY_REPORT_CONTENT, type ReportContent } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { ctExam } from '../../test/factories-reports.js';
import type { TestApp } from '../../test/harness.js';

/** Test data for the sharing tests: exams, approved reports, key images, audit rows. */

let seq = 0;

export function newExam(
  t: TestApp,
  bucketId: string,
  opts: { patientId?: string; accession?: string; patientName?: string } = {},
): Promise<string> {
  return ctExam(t, bucketId, {
    patientName: opts.patientName ?? '张^三丰',
    patientId: opts.patientId ?? `SHR-${++seq}`,
    ...(opts.accession ? { accessionNumber: opts.accession } : {}),
  });
}

export const content = (findings: string, conclusion: string): ReportContent => ({
  ...EMPTY_REPORT_CONTENT,
  findings,
  conclusion,
});

const png = (n: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, n)]);

export async function addKeyImage(t: TestApp, token: string, examId: string, desc: string): Promise<string> {
  const res = await t.call('POST', `reports/${examId}/images?desc=${encodeURIComponent(desc)}`, {
    token,
    headers: { 'content-type': 'image/png' },
    body: png(desc.length),
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

export async function act(t: TestApp, token: string, examId: string, action: string, body: unknown = {}) {
  const res = await t.as(token).post(`reports/${examId}/${action}`, body);
  expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
  return res.json() as { version: number; status: string };
}

/** The doctor writes and submits, the senior approves: an approved (corrected) report. */
export async function approvedReport(
  t: TestApp,
  tok: { doctor: string; senior: string },
  examId: string,
  text = content('双肺纹理清晰，未见实质性病变。', '胸部CT平扫未见异常。'),
): Promise<void> {
  await act(t, tok.doctor, examId, 'submit', { version: 0, content: text });
  await act(t, tok.senior, examId, 'approve', {});
}

export async function auditRows(t: TestApp, action: string, targetId: string) {
  return t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.targetId, targetId)));
}
