import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { makeStaffed, startArchiveApp } from '../../test/factories-archive.js';
import type { BuiltMember } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';
import { READ_AUDIT_WINDOW_MS } from './dicomweb.audit.js';

/** Issue 19 §8: DICOMweb reads and writes leave PHI audit rows, at a rate the log can bear. */
let t: TestApp;
let tech: string;
let doctor: string;
let techId: string;
let doctorId: string;
let techAccount: BuiltMember;
let teleadmin: string;
let study: GeneratedStudy;
let examId: string;

function stow(token: string, files: Buffer[], url = '/dicom-web/studies') {
  return injectStow(t, token, files, { url, boundary: 'audittest' });
}

const get = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** The audit rows of `action` by `actorId` written after row `after`. */
async function rows(action: string, actorId: string, after = 0) {
  return t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.actorId, actorId), gt(auditLogs.id, after)))
    .orderBy(auditLogs.id);
}

async function lastId(): Promise<number> {
  const all = await t.db.database.db.select({ id: auditLogs.id }).from(auditLogs);
  return Math.max(0, ...all.map((r) => r.id));
}

beforeAll(async () => {
  const { t: app, rad } = await startArchiveApp();
  t = app;
  techAccount = rad.tech;
  tech = rad.tech.token;
  doctor = rad.doctor.token;
  techId = rad.tech.accountId;
  doctorId = rad.doctor.accountId;
  // The group admin of another group.
  teleadmin = (await makeStaffed(t, ['teleadmin'])).teleadmin.token;
  study = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 3,
    rows: 16,
    columns: 16,
    patientName: 'Audit^Secret',
    patientId: 'AUDIT-PID-1',
    accessionNumber: 'ACC-AUDIT-1',
  });
});
afterAll(async () => {
  await t.close();
});

describe('STOW-RS audit', () => {
  it('writes one PHI row per request, naming the study, its exam and the counts', async () => {
    const res = await stow(
      tech,
      study.instances.map((i) => i.bytes),
    );
    expect(res.statusCode).toBe(200);
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    examId = exam!.id;
    const written = await rows('dicomweb.stow', techId);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      outcome: 'success',
      actorUsername: techAccount.username,
      bucketId: exam!.bucketId,
      targetType: 'exam',
      targetId: examId,
      details: {
        status: 200,
        stored: 6,
        duplicates: 0,
        failed: 0,
        studies: [{ studyUid: study.studyInstanceUid, examId }],
      },
    });
  });

  it('records a re-sent instance as a duplicate and a refused part as failed, still one row', async () => {
    const before = await lastId();
    const res = await stow(tech, [study.instances[0]!.bytes, Buffer.from('not dicom at all')]);
    expect(res.statusCode).toBe(202);
    const written = await rows('dicomweb.stow', techId, before);
    expect(written).toHaveLength(1);
    expect(written[0]!.details).toMatchObject({ status: 202, stored: 0, duplicates: 1, failed: 1 });
    expect(written[0]!.outcome).toBe('success');
  });

  it('records a request that stored nothing as a failure', async () => {
    const before = await lastId();
    const res = await stow(tech, [Buffer.from('garbage one'), Buffer.from('garbage two')]);
    expect(res.statusCode).toBe(409);
    const written = await rows('dicomweb.stow', techId, before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ outcome: 'failure', details: { status: 409, stored: 0, failed: 2 } });
  });
});

describe('QIDO-RS audit', () => {
  it('writes one row per search: the query with patient values withheld, the result count, the exams', async () => {
    const before = await lastId();
    const res = await get(doctor, '/dicom-web/studies?PatientName=Audit*&StudyDate=20000101-&limit=5');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
    const written = await rows('dicomweb.search', doctorId, before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      outcome: 'success',
      targetType: 'exam',
      targetId: examId,
      patientId: 'AUDIT-PID-1',
      details: {
        level: 'studies',
        results: 1,
        examIds: [examId],
        query: { PatientName: '(withheld)', StudyDate: '20000101-', limit: '5' },
      },
    });
    // The searched name is not in the log (the API's study list records none of its filters).
    expect(JSON.stringify(written[0])).not.toContain('Audit*');
  });

  it('audits a search without results too, and the series and instance levels by their study', async () => {
    const before = await lastId();
    expect((await get(doctor, '/dicom-web/studies?PatientID=NOBODY')).statusCode).toBe(204);
    const inst = study.instances[0]!;
    const series = await get(doctor, `/dicom-web/studies/${study.studyInstanceUid}/series`);
    expect(series.json()).toHaveLength(2);
    const instances = await get(
      doctor,
      `/dicom-web/studies/${study.studyInstanceUid}/series/${inst.seriesInstanceUid}/instances`,
    );
    expect(instances.json()).toHaveLength(3);
    const written = await rows('dicomweb.search', doctorId, before);
    expect(written.map((r) => r.details)).toEqual([
      expect.objectContaining({ level: 'studies', results: 0, examIds: [], query: { PatientID: '(withheld)' } }),
      expect.objectContaining({ level: 'series', results: 2, examIds: [examId], studyUid: study.studyInstanceUid }),
      expect.objectContaining({
        level: 'instances',
        results: 3,
        examIds: [examId],
        studyUid: study.studyInstanceUid,
        seriesUid: inst.seriesInstanceUid,
      }),
    ]);
  });
});

describe('WADO-RS audit', () => {
  const frameUrl = (n: number) => {
    const i = study.instances[n]!;
    return `/dicom-web/studies/${study.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1`;
  };

  it("writes one row per caller and study per window for a viewer's reads, and a new one after it", async () => {
    const before = await lastId();
    // A viewer's burst: frames of every instance, metadata, one instance, some of them at once.
    const burst = await Promise.all(study.instances.map((_, n) => get(doctor, frameUrl(n))));
    expect(burst.every((r) => r.statusCode === 200)).toBe(true);
    const i = study.instances[1]!;
    const base = `/dicom-web/studies/${study.studyInstanceUid}`;
    expect((await get(doctor, `${base}/metadata`)).statusCode).toBe(200);
    expect((await get(doctor, `${base}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`)).statusCode).toBe(
      200,
    );
    let written = await rows('dicomweb.read', doctorId, before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      outcome: 'success',
      targetType: 'exam',
      targetId: examId,
      patientId: 'AUDIT-PID-1',
      details: { studyUid: study.studyInstanceUid, examIds: [examId], windowMinutes: 10 },
    });
    expect((written[0]!.details as { first: { kind: string } }).first.kind).toBe('frames');

    // Another caller reading the same study has a row of its own.
    expect((await get(tech, frameUrl(0))).statusCode).toBe(200);
    expect(await rows('dicomweb.read', techId, before)).toHaveLength(1);

    // Within the window: nothing more; once it has passed, the next read writes a row again.
    t.clock.advance(READ_AUDIT_WINDOW_MS - 1000);
    expect((await get(doctor, frameUrl(2))).statusCode).toBe(200);
    expect(await rows('dicomweb.read', doctorId, before)).toHaveLength(1);
    t.clock.advance(2000);
    expect((await get(doctor, `${base}/metadata`)).statusCode).toBe(200);
    written = await rows('dicomweb.read', doctorId, before);
    expect(written).toHaveLength(2);
    expect((written[1]!.details as { first: { kind: string } }).first.kind).toBe('metadata');
  });

  it('writes one row per retrieval of a whole study or series', async () => {
    const before = await lastId();
    const base = `/dicom-web/studies/${study.studyInstanceUid}`;
    for (const url of [base, base, `${base}/series/${study.instances[0]!.seriesInstanceUid}`]) {
      const res = await get(doctor, url);
      expect(res.statusCode).toBe(200);
    }
    const written = await rows('dicomweb.retrieve', doctorId, before);
    expect(written.map((r) => r.details)).toEqual([
      expect.objectContaining({ studyUid: study.studyInstanceUid, examIds: [examId] }),
      expect.objectContaining({ studyUid: study.studyInstanceUid, examIds: [examId] }),
      expect.objectContaining({
        studyUid: study.studyInstanceUid,
        seriesUid: study.instances[0]!.seriesInstanceUid,
      }),
    ]);
    expect(written.every((r) => r.targetId === examId && r.patientId === 'AUDIT-PID-1')).toBe(true);
  });

  it('writes nothing for a study the caller cannot read (nothing was disclosed)', async () => {
    const before = await lastId();
    const res = await get(teleadmin, `/dicom-web/studies/${study.studyInstanceUid}/metadata`);
    expect(res.statusCode).toBe(404);
    const written = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'dicomweb.read'), gt(auditLogs.id, before)));
    expect(written).toHaveLength(0);
  });
});
