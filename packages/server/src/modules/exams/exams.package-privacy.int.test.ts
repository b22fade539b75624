import type { DownloadPolicy } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, examPackages, exams } from '../../db/schema.js';
import { maskedFilesRefused } from '../../platform/authz.js';
import { makePrivacyWorld, privacyStudy, type PrivacyWorld } from '../../test/factories-privacy.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 20 item 1: the raw stored files of a study (its zip package, the zip's download link, the
 * blob-store URL per file) carry the patient's private fields unmasked, so a caller who sees the
 * exam masked (authz examMasked) is refused them with 403 view_privacy, audited, and nothing is
 * built. The teleradiology group has privacy on; 仁和医院 keeps it off, where only a confidential
 * exam is masked to a caller without view_privacy.
 *
 * As the demo's roles have it, neither 远程阅片医生 nor 技师 holds study_package: the test grants it
 * to both, so the route lets them through and only the privacy rule can refuse them.
 */
let t: TestApp;
let world: PrivacyWorld;
const tok: Record<string, string> = {};
let rad = '';
let tele = '';
const exam = { tele: { id: '', uid: '' }, confidential: { id: '', uid: '' }, plain: { id: '', uid: '' } };

async function ingest(bucketId: string, patientName: string, patientId: string) {
  const study = privacyStudy(patientName, patientId, { instancesPerSeries: 2 });
  let examId = '';
  for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, 'web')).examId;
  return { id: examId, uid: study.studyInstanceUid };
}

const packageUrl = (examId: string) => `exams/${examId}/study-package`;
const tokenUrl = (bucketId: string, storeUid: string) =>
  `studies/download-token?bucketId=${encodeURIComponent(bucketId)}&storeUid=${encodeURIComponent(storeUid)}`;
const policyUrl = (bucketId: string, storeUid: string) =>
  `policies/download-token?bucketId=${encodeURIComponent(bucketId)}&storeUid=${encodeURIComponent(storeUid)}`;

/** The three calls that hand out a study's stored files, as `who`. */
async function fileCalls(who: string, bucketId: string, target: { id: string; uid: string }) {
  const as = t.as(tok[who]!);
  return {
    zip: await as.get(packageUrl(target.id)),
    link: await as.get(tokenUrl(bucketId, target.uid)),
    urls: await as.get(policyUrl(bucketId, target.uid)),
  };
}

async function packageBuilt(examId: string, bucketId: string): Promise<boolean> {
  const rows = await t.db.database.db.select().from(examPackages).where(eq(examPackages.examId, examId));
  return rows.length > 0 || (await t.blobs.size(`packages/${bucketId}/${examId}.v3.zip`)) !== null;
}

/** The username built for a reader. */
const username = (who: 'teledoctor' | 'expert' | 'tech' | 'doctor') =>
  who === 'teledoctor' || who === 'expert' ? world.tele[who].username : world.hospital[who].username;

const refusals = (who: 'teledoctor' | 'expert' | 'tech', examId: string) =>
  t.db.database.db
    .select()
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.actorUsername, username(who)),
        eq(auditLogs.action, 'permission.denied'),
        eq(auditLogs.targetId, examId),
      ),
    );

function expectMaskedRefusal(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({
    code: 'InsufficientPermissions',
    message: expect.stringContaining('view_privacy') as unknown,
    details: { action: 'view_privacy' },
  });
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const db = t.db.database.db;
  world = await makePrivacyWorld(t, ['teledoctor', 'expert', 'tech', 'doctor'], {
    teledoctor: { role: 'remoteReading', plus: ['study_package'] },
    tech: { role: 'technician', plus: ['study_package'] },
  });
  [rad, tele] = [world.hospital.org.bucketId, world.tele.org.bucketId];
  exam.tele = await ingest(tele, '赵^磊', 'PKG-0001');
  exam.plain = await ingest(rad, '张^伟', 'PKG-0002');
  exam.confidential = await ingest(rad, '李^秘', 'PKG-0003');
  await db.update(exams).set({ isPrivacy: true }).where(eq(exams.id, exam.confidential.id));
  Object.assign(tok, world.tok);
});
afterAll(async () => {
  await t.close();
});

describe('stored study files and the privacy rule (issue 20 item 1)', () => {
  it('refuses a member who sees the exam masked (远程阅片医生, privacy on): 403, audited, no file built', async () => {
    const listed = await t.as(tok.teledoctor!).get(`exams/${exam.tele.id}`);
    expect(listed.json()).toMatchObject({ masked: true });
    const { zip, link, urls } = await fileCalls('teledoctor', tele, exam.tele);
    expectMaskedRefusal(zip);
    expectMaskedRefusal(link);
    expectMaskedRefusal(urls);
    // One message for every stored-file refusal, DICOMweb retrieval's included.
    for (const res of [zip, link, urls]) expect(res.json()).toMatchObject({ message: maskedFilesRefused().message });
    expect(await packageBuilt(exam.tele.id, tele)).toBe(false);
    const denied = await refusals('teledoctor', exam.tele.id);
    expect(denied).toHaveLength(3);
    for (const row of denied) {
      expect(row).toMatchObject({ outcome: 'denied', bucketId: tele });
      expect(row.details).toMatchObject({ action: 'view_privacy', decision: 'forbidden' });
    }
    const disclosed = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.actorUsername, username('teledoctor')), eq(auditLogs.outcome, 'success')));
    expect(disclosed.filter((r) => r.action === 'exam.download' || r.action === 'exam.download-policy')).toEqual([]);
  });

  it('serves them to a member holding view_privacy (审核医生) in the same group', async () => {
    const { zip, link, urls } = await fileCalls('expert', tele, exam.tele);
    expect(zip.statusCode, zip.body).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(link.statusCode, link.body).toBe(200);
    const downloaded = await t.app.inject({ method: 'GET', url: (link.json() as { url: string }).url });
    expect(downloaded.statusCode).toBe(200);
    expect(urls.statusCode, urls.body).toBe(200);
    expect((urls.json() as DownloadPolicy).files).toHaveLength(2);
    expect(await packageBuilt(exam.tele.id, tele)).toBe(true);
    expect(await refusals('expert', exam.tele.id)).toEqual([]);
  });

  it('in a hospital with privacy off, refuses a confidential exam to a caller without view_privacy (技师)', async () => {
    const { zip, link, urls } = await fileCalls('tech', rad, exam.confidential);
    expectMaskedRefusal(zip);
    expectMaskedRefusal(link);
    expectMaskedRefusal(urls);
    expect(await packageBuilt(exam.confidential.id, rad)).toBe(false);
    expect(await refusals('tech', exam.confidential.id)).toHaveLength(3);
    // The same caller gets the files of an exam it sees unmasked.
    const plain = await fileCalls('tech', rad, exam.plain);
    expect([plain.zip.statusCode, plain.link.statusCode, plain.urls.statusCode]).toEqual([200, 200, 200]);
  });

  it('serves the confidential exam to 报告医生 (view_privacy)', async () => {
    const { zip, link, urls } = await fileCalls('doctor', rad, exam.confidential);
    expect([zip.statusCode, link.statusCode, urls.statusCode]).toEqual([200, 200, 200]);
    expect(await packageBuilt(exam.confidential.id, rad)).toBe(true);
  });
});
