import {
  EMPTY_REPORT_CONTENT,
  type ReportContent,
  type ReportSampleGraph,
  type SampleGraph,
  type SamplePoint,
  type UploadPolicy,
} from '@yyp/contracts';
import { expect } from 'vitest';
import { generateStudy } from '../../dicom/testdata/generate.js';
import type { TestApp } from '../../test/harness.js';

/** Exams, uploads and reports for the print tests, through the API as the demo users would. */
export function printFixture(t: TestApp, tok: Record<string, string>) {
  let seq = 0;
  const as = (who: string) => t.as(tok[who]!);

  async function newExam(bucketId: string, over: { studyDate?: string; patientName?: string } = {}): Promise<string> {
    const study = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      patientName: over.patientName ?? '张^三',
      charset: 'GB18030',
      patientId: `PRN-${++seq}`,
      ...(over.studyDate ? { studyDate: over.studyDate } : {}),
    });
    return (await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web')).examId;
  }

  /** An upload of the caller's from policies/images. */
  async function upload(who: string, bytes: Buffer, type = 'image/png'): Promise<string> {
    const res = await as(who).get(`policies/images?contentType=${type}&size=${bytes.length}`);
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json() as UploadPolicy;
    const put = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: bytes });
    expect(put.statusCode, put.body).toBeLessThan(300);
    return p.key;
  }

  async function ok(who: string, url: string, body: unknown = {}) {
    const res = await as(who).post(url, body);
    expect(res.statusCode, `${who} ${url}: ${res.body}`).toBe(200);
    return res.json() as { version: number; status: string };
  }

  const content = (findings: string, conclusion: string, over: Partial<ReportContent> = {}): ReportContent => ({
    ...EMPTY_REPORT_CONTENT,
    findings,
    conclusion,
    ...over,
  });

  /** doctor writes and submits; senior approves (or approves and prints). */
  async function approved(
    examId: string,
    text: ReportContent,
    how: 'approve' | 'approve-and-print' | 'submit' = 'approve',
  ): Promise<void> {
    await ok('doctor', `reports/${examId}/submit`, { version: 0, content: text });
    if (how !== 'submit') await ok('senior', `reports/${examId}/${how}`, {});
  }

  async function keyImage(examId: string, bytes: Buffer, desc: string): Promise<string> {
    const res = await t.call('POST', `reports/${examId}/images?desc=${encodeURIComponent(desc)}`, {
      token: tok.doctor!,
      headers: { 'content-type': 'image/png' },
      body: bytes,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  }

  /** tech adds the diagram to the organization's sample graphs; doctor places it on the report with marks. */
  async function sampleGraph(
    bucketId: string,
    examId: string,
    image: Buffer,
    title: string,
    points: SamplePoint[],
    isPrinted = true,
  ): Promise<ReportSampleGraph> {
    const added = await t.call('POST', `sample-graphs/new?bucketId=${bucketId}&title=${encodeURIComponent(title)}`, {
      token: tok.tech!,
      headers: { 'content-type': 'image/png' },
      body: image,
    });
    expect(added.statusCode, added.body).toBe(201);
    const res = await as('doctor').post(`reports/${examId}/sample-graphs`, {
      sampleGraphId: (added.json() as SampleGraph).id,
      points,
      isPrinted,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { graphs: ReportSampleGraph[] }).graphs.at(-1)!;
  }

  return { as, newExam, upload, ok, content, approved, keyImage, sampleGraph };
}
