import { and, eq } from 'drizzle-orm';
import type { DownloadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import type { GeneratedStudy } from '../../dicom/testdata/generate.js';
import { joinOrganization, makeExam, makeGroupMember, makeMember, makeOrganization } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';

/** GET policies/download-token (spec 001 §7 Exams): a blob-store URL per stored file of a study. */
let t: TestApp;
let study: GeneratedStudy;
let bucketId: string;
let examId: string;
let doctor: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The accounts the cases sign in as (t.login's default password): a radiology's doctor
  // (study_package) and technician (without); another group's admin. A CT of 2 × 2 slices.
  const pw = { password: DEMO_PW, signIn: false };
  const rad = await makeOrganization(t);
  bucketId = rad.bucketId;
  ({ examId, study } = await makeExam(t, bucketId, { modality: 'CT', series: 2, instancesPerSeries: 2 }));
  await makeMember(t, bucketId, { username: 'doctor', actions: ['exam_get', 'study_package', 'report_upsert'], ...pw });
  await makeMember(t, bucketId, { username: 'tech', actions: ['exam_get', 'exam_upload'], ...pw });
  const tele = await makeOrganization(t);
  const teleadmin = await makeGroupMember(t, tele.groupId, 1, { username: 'teleadmin', ...pw });
  await joinOrganization(t, tele.bucketId, teleadmin.accountId, { level: 'admin', groupLevel: 1 });
  doctor = await t.login('doctor');
});
afterAll(async () => {
  await t.close();
});

const url = (storeUid: string, bucket = bucketId) =>
  `policies/download-token?bucketId=${encodeURIComponent(bucket)}&storeUid=${encodeURIComponent(storeUid)}`;

describe('GET policies/download-token', () => {
  it('answers a short-lived URL per instance that downloads the stored file, and audits it', async () => {
    const res = await t.as(doctor).get(url(study.studyInstanceUid));
    expect(res.statusCode, res.body).toBe(200);
    const policy = res.json() as DownloadPolicy;
    expect(policy.storeUid).toBe(study.studyInstanceUid);
    expect(policy.expiresAt).toBe(Math.floor(t.clock.now().getTime() / 1000) + 600);
    expect(policy.files.map((f) => f.sopInstanceUid).sort()).toEqual(
      study.instances.map((i) => i.sopInstanceUid).sort(),
    );
    for (const file of policy.files) {
      const sent = study.instances.find((i) => i.sopInstanceUid === file.sopInstanceUid)!;
      const got = await t.app.inject({ method: 'GET', url: file.url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('application/dicom');
      expect(file.size).toBe(sent.bytes.length);
      // Stored as received after the 128-byte preamble (the ingest zeroes the preamble).
      expect(Buffer.compare(got.rawPayload.subarray(128), Buffer.from(sent.bytes).subarray(128))).toBe(0);
    }
    const rows = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.download-policy'), eq(auditLogs.targetId, examId)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ bucketId, outcome: 'success', patientId: study.patientId });
  });

  it('stops working when the URLs expire', async () => {
    const policy = (await t.as(doctor).get(url(study.studyInstanceUid))).json() as DownloadPolicy;
    t.clock.advance(11 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: policy.files[0]!.url })).statusCode).not.toBe(200);
    doctor = await t.login('doctor');
  });

  it('answers 404 for a study the organization does not hold, 400 without a study, 403 without study_package', async () => {
    expect((await t.as(doctor).get(url('1.2.3.4.5'))).statusCode).toBe(404);
    expect((await t.as(doctor).get(`policies/download-token?bucketId=${bucketId}`)).statusCode).toBe(400);
    const tech = await t.login('tech');
    const refused = await t.as(tech).get(url(study.studyInstanceUid));
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('/blobs/download');
    const other = await t.login('teleadmin');
    expect([403, 404]).toContain((await t.as(other).get(url(study.studyInstanceUid))).statusCode);
  });
});
