import fs from 'node:fs';
import path from 'node:path';
import { MAX_STUDY_PACKAGE_EXAMS, mediaCalls } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { makeStaffed, type Staffed } from '../../test/factories-archive.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { checkMedia, filesUnder, mediaTempDir, unzipTo } from './package-media.fixture.js';

/**
 * Issue 28 item 9: several studies exported as one DICOM media zip (POST exams/study-packages):
 * one DICOMDIR for all of them, each exam authorized as its own study package is.
 */
let t: TestApp;
let rad: Staffed<'doctor' | 'registrar' | 'tech'>;
let other: Staffed<'doctor'>;
const studies: { study: GeneratedStudy; examId: string }[] = [];
let confidential = '';
const dir = mediaTempDir();

async function ingest(bucketId: string, study: GeneratedStudy): Promise<string> {
  let examId = '';
  for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, 'web')).examId;
  return examId;
}

const small = { modality: 'CT' as const, rows: 16, columns: 16, instancesPerSeries: 2 };
const link = (token: string, body: unknown) => t.call('POST', mediaCalls.studyPackages.path, { token, body });
const denials = (username: string) =>
  t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.actorUsername, username), eq(auditLogs.action, 'permission.denied')));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The technician holds study_package here but not view_privacy: a confidential exam is masked to it.
  rad = await makeStaffed(
    t,
    ['doctor', 'registrar', 'tech'],
    {},
    { tech: { role: 'technician', plus: ['study_package'] } },
  );
  other = await makeStaffed(t, ['doctor']);
  for (const [patientId, patientName, series] of [
    ['MULTI-1', 'LI^LEI', 2],
    ['MULTI-2', 'ZHAO^MIN', 1],
  ] as const) {
    const study = generateStudy({ ...small, patientId, patientName, series });
    studies.push({ study, examId: await ingest(rad.org.bucketId, study) });
  }
  // A second study of the first patient.
  const again = generateStudy({ ...small, patientId: 'MULTI-1', patientName: 'LI^LEI', series: 1 });
  studies.push({ study: again, examId: await ingest(rad.org.bucketId, again) });
  confidential = await ingest(rad.org.bucketId, generateStudy({ ...small, patientId: 'MULTI-3' }));
  await t.db.database.db.update(exams).set({ isPrivacy: true }).where(eq(exams.id, confidential));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('POST exams/study-packages', () => {
  it('answers a 10-minute link to one DICOM media zip of every study, one DICOMDIR for all', async () => {
    const ids = studies.map((s) => s.examId);
    const res = await link(rad.doctor.token, { examIds: [...ids, ids[0]], language: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      count: 3,
      url: expect.stringMatching(/^\/yyp\/api\/v1\/exams\/study-packages\/download\?token=/),
    });
    const zip = await t.app.inject({ method: 'GET', url: res.json().url });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="studies-\d{8}\.zip"$/);
    const out = await unzipTo(dir, zip.rawPayload);
    const [root] = fs.readdirSync(out);
    const media = path.join(out, root!);
    const tree = await checkMedia(
      media,
      studies.flatMap((s) => s.study.instances.map((i) => i.sopInstanceUid)),
    );
    // Two patients, the first with two studies; each study with its series.
    const shape = tree.map((p) => [p.elements.get('0010,0020'), p.children.map((s) => s.children.length).sort()]);
    expect(shape.sort()).toEqual([
      ['MULTI-1', [1, 2]],
      ['MULTI-2', [1]],
    ]);
    const html = fs.readFileSync(path.join(media, 'INDEX.HTM'), 'utf8');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Total: 2 patients, 3 studies, 8 files');
    expect(filesUnder(media).filter((f) => !f.startsWith('DICOM/'))).toEqual(['DICOMDIR', 'INDEX.HTM', 'README.TXT']);
    // Each exam audited as downloaded through the link.
    const rows = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.download'));
    expect(new Set(rows.map((r) => r.targetId))).toEqual(new Set(ids));
    // The link works for ten minutes and only as signed.
    expect((await t.app.inject({ method: 'GET', url: `${res.json().url}x` })).statusCode).toBe(404);
    t.clock.advance(11 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: res.json().url })).statusCode).toBe(404);
  });

  it("writes the index in the caller's language when none is asked", async () => {
    const res = await link(rad.doctor.token, { examIds: [studies[1]!.examId] });
    const zip = await t.app.inject({ method: 'GET', url: res.json().url });
    const out = await unzipTo(dir, zip.rawPayload);
    const html = fs.readFileSync(path.join(out, fs.readdirSync(out)[0]!, 'INDEX.HTM'), 'utf8');
    expect(html).toMatch(/<html lang="(zh-Hans|en|bo)">/);
    const tib = await link(rad.doctor.token, { examIds: [studies[1]!.examId], language: 'tib' });
    const tibOut = await unzipTo(dir, (await t.app.inject({ method: 'GET', url: tib.json().url })).rawPayload);
    expect(fs.readFileSync(path.join(tibOut, fs.readdirSync(tibOut)[0]!, 'INDEX.HTM'), 'utf8')).toContain('lang="bo"');
  });

  it('refuses the whole export for one exam the caller may not have, audited, and bad requests', async () => {
    const mine = studies[0]!.examId;
    // Another group's doctor: the exam is not found.
    const foreign = await link(other.doctor.token, { examIds: [mine] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('MULTI');
    expect((await denials(other.doctor.username)).at(-1)?.details).toMatchObject({ decision: 'notFound' });
    // A registrar without study_package: 403, even with other exams it could not download either.
    const registrar = await link(rad.registrar.token, { examIds: [mine] });
    expect(registrar.statusCode).toBe(403);
    expect((await denials(rad.registrar.username)).at(-1)?.details).toMatchObject({ action: 'study_package' });
    // The technician sees the confidential exam masked: refused as its own study package is.
    const masked = await link(rad.tech.token, { examIds: [mine, confidential] });
    expect(masked.statusCode).toBe(403);
    expect(masked.json()).toMatchObject({ details: { action: 'view_privacy' } });
    expect((await t.call('GET', `exams/${confidential}/study-package`, { token: rad.tech.token })).statusCode).toBe(
      403,
    );
    expect((await link(rad.tech.token, { examIds: [mine] })).statusCode).toBe(200);
    // A deleted or unknown exam, too many or none.
    expect((await link(rad.doctor.token, { examIds: ['no-such-exam'] })).statusCode).toBe(404);
    const many = Array.from({ length: MAX_STUDY_PACKAGE_EXAMS + 1 }, (_, i) => `e${i}`);
    expect((await link(rad.doctor.token, { examIds: many })).statusCode).toBe(400);
    expect((await link(rad.doctor.token, { examIds: [] })).statusCode).toBe(400);
    expect((await link(rad.doctor.token, { examIds: [mine], extra: 1 })).statusCode).toBe(400);
    expect((await t.call('POST', mediaCalls.studyPackages.path, { body: { examIds: [mine] } })).statusCode).toBe(401);
    expect((await t.call('GET', mediaCalls.studyPackagesDownload.path)).statusCode).toBe(400);
  });
});
