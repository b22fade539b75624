import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_TOKEN_HEADER } from '@yyp/contracts';
import { auditLogs, exams, reportImages } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { Signer } from '../../platform/signed.js';
import { signIn } from '../../test/factories.js';
import { makeHospital, type Hospital } from '../../test/factories-reports.js';
import { startTestApp, TEST_SECRET, type TestApp } from '../../test/harness.js';

/**
 * The viewer's calls (issue 6): everything authorized by the signed viewer or share path alone,
 * scoped to its one study, masked as the issuing account's rights say, and key images into the
 * report with the spec's limits.
 */
let t: TestApp;
let ct: GeneratedStudy;
let prior: GeneratedStudy;
let other: GeneratedStudy;
let examId: string;
let priorId: string;
let otherId: string;
let senior: string;
let doctor: string;
let tech: string;
let radId: string;
let h: Hospital;

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

async function path(token: string, id: string, kind: 'path' | 'share-path' = 'path', reportId: string | null = id) {
  const res = await t.call('POST', `viewers/${id}/${kind}`, { token, body: reportId ? { reportId } : {} });
  expect(res.statusCode).toBe(200);
  return res.json() as { openpath: string; url: string; rsuid: string };
}

const asViewer = (openpath: string, method: 'GET' | 'POST', url: string, body?: Buffer, type = 'image/png') =>
  t.call(method, url, {
    headers: { [VIEWER_TOKEN_HEADER]: openpath, ...(body ? { 'content-type': type } : {}) },
    ...(body ? { body } : {}),
  });

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Masking as a caller without view_privacy in a privacy-on group sees it (doctor masked, senior not).
  h = await makeHospital(t, ['senior', 'doctor', 'tech', 'teledoctor'], { privacy: true });
  radId = h.radiology;
  const patient = { patientName: 'Viewer^Test', patientId: 'VW-0001', patientBirthDate: '19700101' };
  ct = generateStudy({ modality: 'CT', series: 2, instancesPerSeries: 3, rows: 32, columns: 32, ...patient });
  prior = generateStudy({
    modality: 'CT',
    instancesPerSeries: 2,
    rows: 32,
    columns: 32,
    studyDate: '20250101',
    ...patient,
  });
  other = generateStudy({ modality: 'MR', instancesPerSeries: 2, rows: 16, columns: 16, patientId: 'VW-OTHER' });
  for (const i of prior.instances) priorId = (await t.services.archive.ingest(radId, i.bytes, 'web')).examId;
  for (const i of other.instances) otherId = (await t.services.archive.ingest(radId, i.bytes, 'web')).examId;
  for (const i of ct.instances) examId = (await t.services.archive.ingest(radId, i.bytes, 'web')).examId;
  [senior, doctor, tech] = [h.tok.senior!, h.tok.doctor!, h.tok.tech!];
});
afterAll(async () => {
  await t.close();
});

describe('viewer context', () => {
  it('shows the study to a viewer path, with private fields for an account holding view_privacy', async () => {
    const p = await path(senior, examId);
    const res = await asViewer(p.openpath, 'GET', 'viewer/context');
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      kind: 'viewer',
      examId,
      studyUid: ct.studyInstanceUid,
      masked: false,
      patientName: 'Viewer^Test',
      patientId: 'VW-0001',
      modality: 'CT',
      reportId: examId,
      canCapture: true,
      canCompare: true,
    });
    expect(c.series).toHaveLength(2);
    expect(c.series.map((s: { instanceCount: number }) => s.instanceCount)).toEqual([3, 3]);
    const audit = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.view_images'));
    expect(audit.some((a) => a.targetId === examId && a.patientId === 'VW-0001')).toBe(true);
  });

  it('masks private fields without view_privacy, on confidential exams and on share paths', async () => {
    const masked = (await asViewer((await path(doctor, examId)).openpath, 'GET', 'viewer/context')).json();
    expect(masked).toMatchObject({ masked: true, patientName: 'V*t', canCapture: true });
    expect(masked.patientId).not.toContain('0001');

    const share = (await asViewer((await path(senior, examId, 'share-path')).openpath, 'GET', 'viewer/context')).json();
    expect(share).toMatchObject({
      kind: 'share',
      masked: true,
      patientName: 'V*t',
      canCapture: false,
      canCompare: false,
    });

    // A technician has no report_upsert: no key images even with a report id.
    const techView = (await asViewer((await path(tech, examId)).openpath, 'GET', 'viewer/context')).json();
    expect(techView.canCapture).toBe(false);
  });

  it('refuses missing, forged, expired and other-purpose paths, and paths of an account that lost access', async () => {
    const p = await path(senior, examId);
    expect((await t.call('GET', 'viewer/context')).statusCode).toBe(401);
    const forged = await asViewer(`${p.openpath.slice(0, -3)}abc`, 'GET', 'viewer/context');
    // An invalid link is LinkInvalid (403 in the error catalogue).
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('LinkInvalid');
    const signer = new Signer(TEST_SECRET);
    const payload = { e: examId, b: radId, s: ct.studyInstanceUid, u: null, r: null };
    const download = signer.sign('download', payload, new Date(t.clock.now().getTime() + 60_000));
    expect((await asViewer(download.token, 'GET', 'viewer/context')).json().code).toBe('LinkInvalid');
    const expired = signer.sign('viewer', payload, new Date(t.clock.now().getTime() - 1000));
    expect((await asViewer(expired.token, 'GET', 'viewer/context')).json().code).toBe('LinkInvalid');
    // A viewer path of an account that is not a member of the exam's organization: 403.
    const teledoctor = await signIn(t, h.staff.teledoctor!);
    const me = (await t.call('GET', 'accounts/me', { token: teledoctor })).json() as { id: string };
    const stranger = signer.sign(
      'viewer',
      { e: examId, b: h.tele, s: ct.studyInstanceUid, u: me.id, r: null },
      new Date(t.clock.now().getTime() + 60_000),
    );
    expect((await asViewer(stranger.token, 'GET', 'viewer/context')).statusCode).toBe(404);
  });

  it('closes a viewer of a deleted exam', async () => {
    const p = await path(senior, otherId);
    await t.db.database.db.update(exams).set({ deletedTime: t.clock.now() }).where(eq(exams.id, otherId));
    expect((await asViewer(p.openpath, 'GET', 'viewer/context')).statusCode).toBe(404);
    await t.db.database.db.update(exams).set({ deletedTime: null }).where(eq(exams.id, otherId));
  });
});

describe('viewer WADO-RS', () => {
  const s0 = () => ct.instances[0]!;

  it('answers the frames of its study as the archive stored them', async () => {
    const p = await path(doctor, examId);
    const i = s0();
    const url = `studies/${ct.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1`;
    const viaViewer = await asViewer(p.openpath, 'GET', `viewer/${url}`);
    expect(viaViewer.statusCode).toBe(200);
    expect(viaViewer.headers['content-type']).toMatch(/^multipart\/related/);
    expect(viaViewer.headers['cache-control']).toBe('private, max-age=3600');
    const viaWado = await t.call('GET', `/dicom-web/${url}`, { token: doctor });
    expect(viaWado.statusCode).toBe(200);
    const body = (b: Buffer, ct: string) => {
      const boundary = /boundary=([^;]+)/.exec(ct)![1]!;
      const start = b.indexOf('\r\n\r\n') + 4;
      return b.subarray(start, b.lastIndexOf(`\r\n--${boundary}--`));
    };
    const frame = body(viaViewer.rawPayload, viaViewer.headers['content-type'] as string);
    expect(frame.length).toBe(32 * 32 * 2);
    expect(frame.equals(body(viaWado.rawPayload, viaWado.headers['content-type'] as string))).toBe(true);
  });

  it('reaches no other study, and checks frame numbers', async () => {
    const p = await path(senior, examId);
    const o = other.instances[0]!;
    const frames = `studies/${other.studyInstanceUid}/series/${o.seriesInstanceUid}/instances/${o.sopInstanceUid}/frames/1`;
    expect((await asViewer(p.openpath, 'GET', `viewer/${frames}`)).statusCode).toBe(404);
    expect(
      (
        await asViewer(
          p.openpath,
          'GET',
          `viewer/studies/${other.studyInstanceUid}/series/${o.seriesInstanceUid}/metadata`,
        )
      ).statusCode,
    ).toBe(404);
    // an instance of another study under this study's path
    const mixed = `studies/${ct.studyInstanceUid}/series/${o.seriesInstanceUid}/instances/${o.sopInstanceUid}/frames/1`;
    expect((await asViewer(p.openpath, 'GET', `viewer/${mixed}`)).statusCode).toBe(404);
    const i = s0();
    const bad = `studies/${ct.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/0`;
    expect((await asViewer(p.openpath, 'GET', `viewer/${bad}`)).statusCode).toBe(400);
  });

  it('answers series metadata, masked for a caller without view_privacy', async () => {
    const i = s0();
    const url = `viewer/studies/${ct.studyInstanceUid}/series/${i.seriesInstanceUid}/metadata`;
    const full = await asViewer((await path(senior, examId)).openpath, 'GET', url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toMatch(/^application\/dicom\+json/);
    const fullJson = full.json() as Record<string, { Value?: unknown[]; BulkDataURI?: string }>[];
    expect(fullJson).toHaveLength(3);
    expect(fullJson[0]!['00100020']!.Value).toEqual(['VW-0001']);
    expect(fullJson[0]!['7FE00010']!.BulkDataURI).toMatch(/^\/yyp\/api\/v1\/viewer\/studies\//);
    const masked = (await asViewer((await path(doctor, examId)).openpath, 'GET', url)).json() as typeof fullJson;
    expect(masked[0]!['00100010']!.Value).toEqual([{ Alphabetic: 'V*t' }]);
    expect(masked[0]!['00100020']!.Value![0]).not.toContain('0001');
    expect(masked[0]!['00100030']!.Value).toBeUndefined();
    // the image attributes are the same
    expect(masked[0]!['00280010']).toEqual(fullJson[0]!['00280010']);
  });
});

describe('priors', () => {
  it("lists the patient's other exams and opens one with a viewer path of its own", async () => {
    const p = await path(senior, examId);
    const res = await asViewer(p.openpath, 'GET', 'viewer/priors');
    expect(res.statusCode).toBe(200);
    const priors = res.json().priors as { examId: string; studyDate: string }[];
    expect(priors.map((x) => x.examId)).toEqual([priorId]);
    expect(priors[0]!.studyDate).toBe('20250101');
    const opened = await asViewer(p.openpath, 'POST', `viewer/priors/${priorId}`);
    expect(opened.statusCode).toBe(200);
    const context = (await asViewer(opened.json().openpath, 'GET', 'viewer/context')).json();
    expect(context).toMatchObject({ examId: priorId, studyUid: prior.studyInstanceUid, reportId: null });
    // an exam of another patient is not a prior
    expect((await asViewer(p.openpath, 'POST', `viewer/priors/${otherId}`)).statusCode).toBe(404);
  });

  it('are not reachable from a share path', async () => {
    const share = await path(senior, examId, 'share-path');
    expect((await asViewer(share.openpath, 'GET', 'viewer/priors')).statusCode).toBe(403);
    expect((await asViewer(share.openpath, 'POST', `viewer/priors/${priorId}`)).statusCode).toBe(403);
  });
});

describe('key images', () => {
  it('stores a capture in the report, lists it with a working link, and deletes it', async () => {
    const p = await path(senior, priorId);
    const res = await asViewer(p.openpath, 'POST', 'viewer/key-images?desc=nodule', PNG);
    expect(res.statusCode).toBe(201);
    const image = res.json();
    expect(image).toMatchObject({ index: 0, desc: 'nodule', contentType: 'image/png', size: PNG.length });
    const list = await t.call('GET', `reports/${priorId}/images`, { token: doctor });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ limit: 6, images: [{ id: image.id, index: 0 }] });
    const file = await t.call('GET', list.json().images[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const [row] = await t.db.database.db.select().from(reportImages).where(eq(reportImages.id, image.id));
    expect(await t.blobs.size(row!.blobKey)).toBe(PNG.length);
    // Someone without report_upsert cannot delete; a writer can.
    expect((await t.call('DELETE', `reports/${priorId}/images/${image.id}`, { token: tech })).statusCode).toBe(403);
    expect((await t.call('DELETE', `reports/${priorId}/images/${image.id}`, { token: doctor })).statusCode).toBe(204);
    expect((await t.call('GET', `reports/${priorId}/images`, { token: doctor })).json().images).toEqual([]);
    expect(await t.blobs.size(row!.blobKey)).toBeNull();
  });

  it('keeps at most six per report, numbered in order, and refuses the seventh with nothing stored', async () => {
    const p = await path(senior, examId);
    for (let n = 0; n < 6; n++) {
      const res = await asViewer(p.openpath, 'POST', 'viewer/key-images', PNG);
      expect(res.statusCode).toBe(201);
      expect(res.json().index).toBe(n);
    }
    const seventh = await asViewer(p.openpath, 'POST', 'viewer/key-images', PNG);
    expect(seventh.statusCode).toBe(400);
    expect(seventh.json()).toMatchObject({ code: 'ReportImageLimit', details: { limit: 6 } });
    const rows = await t.db.database.db.select().from(reportImages).where(eq(reportImages.reportId, examId));
    expect(rows).toHaveLength(6);
    // Deleting the second closes the gap.
    const list = (await t.call('GET', `reports/${examId}/images`, { token: senior })).json().images as { id: string }[];
    expect((await t.call('DELETE', `reports/${examId}/images/${list[1]!.id}`, { token: senior })).statusCode).toBe(204);
    const after = (await t.call('GET', `reports/${examId}/images`, { token: senior })).json().images as {
      id: string;
      index: number;
    }[];
    expect(after.map((i) => i.index)).toEqual([0, 1, 2, 3, 4]);
    expect(after.map((i) => i.id)).toEqual([list[0]!.id, ...list.slice(2).map((i) => i.id)]);
  });

  it('refuses what is not a PNG or JPEG, over 5 MB, from a share path, or without report_upsert', async () => {
    const p = await path(senior, otherId);
    const gif = await asViewer(p.openpath, 'POST', 'viewer/key-images', Buffer.from('GIF89a-not-an-image'));
    expect(gif.statusCode).toBe(400);
    expect(gif.json().code).toBe('ValidationError');
    const wrongType = await asViewer(p.openpath, 'POST', 'viewer/key-images', PNG, 'image/gif');
    expect(wrongType.statusCode).toBe(415);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await asViewer(p.openpath, 'POST', 'viewer/key-images', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('PayloadTooLarge');
    const share = await path(senior, otherId, 'share-path');
    expect((await asViewer(share.openpath, 'POST', 'viewer/key-images', PNG)).statusCode).toBe(403);
    const techPath = await path(tech, otherId);
    expect((await asViewer(techPath.openpath, 'POST', 'viewer/key-images', PNG)).statusCode).toBe(403);
    const noReport = await path(senior, otherId, 'path', null);
    expect((await asViewer(noReport.openpath, 'POST', 'viewer/key-images', PNG)).statusCode).toBe(403);
    const rows = await t.db.database.db.select().from(reportImages).where(eq(reportImages.reportId, otherId));
    expect(rows).toEqual([]);
  });
});
