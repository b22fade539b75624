import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_TOKEN_HEADER, type SrDocument, type ViewerObjects } from '@yyp/contracts';
import { accounts, auditLogs, instances } from '../../db/schema.js';
import { generateStudy, type GeneratedInstance, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { generateGsps, generateKeyObject, generatePdf, generateSr, samplePdf } from '../../dicom/testdata/objects.js';
import { Signer } from '../../platform/signed.js';
import { signIn } from '../../test/factories.js';
import { makeHospital, type Hospital } from '../../test/factories-reports.js';
import { startTestApp, TEST_SECRET, type TestApp } from '../../test/harness.js';

/**
 * The viewer's objects other than images (issue 28 item 10): SR documents as text, encapsulated
 * PDF through a short-lived link, key images named by key object selections; authorized, scoped,
 * audited and masked as the viewer's other reads.
 */
let t: TestApp;
let h: Hospital;
let ct: GeneratedStudy;
let other: GeneratedStudy;
let examId: string;
let otherExamId: string;
let sr: GeneratedInstance;
let pdf: GeneratedInstance;
let ko: GeneratedInstance;
let pr: GeneratedInstance;
const PDF = samplePdf('Outside hospital report');

async function openpath(token: string, id: string, kind: 'path' | 'share-path' = 'path') {
  const res = await t.call('POST', `viewers/${id}/${kind}`, { token, body: { reportId: id } });
  expect(res.statusCode).toBe(200);
  return (res.json() as { openpath: string }).openpath;
}
const asViewer = (path: string, method: 'GET' | 'POST', url: string) =>
  t.call(method, url, { headers: { [VIEWER_TOKEN_HEADER]: path } });
const instanceUrl = (study: string, i: GeneratedInstance) =>
  `viewer/studies/${study}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;
const audits = (action: string) => t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, action));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  h = await makeHospital(t, ['senior', 'doctor', 'tech', 'teledoctor'], { privacy: true });
  const patient = { patientName: 'Objects^Patient', patientId: 'OB-0001' };
  ct = generateStudy({ modality: 'CT', instancesPerSeries: 3, rows: 16, columns: 16, ...patient });
  const s = { studyInstanceUid: ct.studyInstanceUid, ...patient };
  sr = generateSr({ ...s, seriesNumber: 90 }, [
    { type: 'PNAME', rel: 'HAS OBS CONTEXT', concept: ['121029', 'Subject Name'], value: 'Objects^Patient' },
    { type: 'TEXT', rel: 'CONTAINS', concept: ['121071', 'Finding'], text: 'Patient OB-0001: nodule 8 mm' },
  ]);
  pdf = generatePdf({ ...s, seriesNumber: 91 }, PDF);
  ko = generateKeyObject({ ...s, seriesNumber: 92 }, [ct.instances[1]!], 'Nodule');
  pr = generateGsps({ ...s, seriesNumber: 93 }, [ct.instances[0]!], [{ type: 'CIRCLE', points: [8, 8, 12, 8] }], {
    value: 'Nodule of OB-0001',
    anchor: [12, 8],
  });
  for (const i of [...ct.instances, sr, pdf, ko, pr]) {
    examId = (await t.services.archive.ingest(h.radiology, i.bytes, 'web')).examId;
  }
  // A study of another organization (the teleradiology group), with an SR of its own.
  other = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8, patientId: 'OB-OTHER' });
  const otherSr = generateSr({ studyInstanceUid: other.studyInstanceUid, patientId: 'OB-OTHER' });
  for (const i of [...other.instances, otherSr]) {
    otherExamId = (await t.services.archive.ingest(h.tele, i.bytes, 'web')).examId;
  }
  other.instances.push(otherSr);
});
afterAll(async () => {
  await t.close();
});

describe('viewer objects', () => {
  it('lists the SR, PDF and key object of the study, and the key image the selection names', async () => {
    const res = await asViewer(await openpath(h.tok.doctor!, examId), 'GET', 'viewer/objects');
    expect(res.statusCode).toBe(200);
    const body = res.json() as ViewerObjects;
    expect(body.objects.map((o) => [o.kind, o.sopUid])).toEqual([
      ['sr', sr.sopInstanceUid],
      ['pdf', pdf.sopInstanceUid],
      ['ko', ko.sopInstanceUid],
      ['pr', pr.sopInstanceUid],
    ]);
    expect(body.keyImages).toEqual([
      {
        seriesUid: ct.instances[1]!.seriesInstanceUid,
        sopUid: ct.instances[1]!.sopInstanceUid,
        frames: [],
        note: 'Nodule',
      },
    ]);
  });

  it("answers the presentation states' annotations by image, their text masked for a masked caller", async () => {
    const full = await asViewer(await openpath(h.tok.senior!, examId), 'GET', 'viewer/annotations');
    expect(full.statusCode).toBe(200);
    expect(full.json()).toEqual({
      annotations: [
        {
          stateUid: pr.sopInstanceUid,
          label: 'ANNOTATIONS',
          sopUid: ct.instances[0]!.sopInstanceUid,
          frames: [],
          graphics: [{ type: 'CIRCLE', points: [8, 8, 12, 8], filled: false }],
          texts: [{ text: 'Nodule of OB-0001', box: null, anchor: [12, 8] }],
        },
      ],
    });
    const masked = await asViewer(await openpath(h.tok.doctor!, examId), 'GET', 'viewer/annotations');
    expect(masked.json().annotations[0].texts[0].text).not.toContain('0001');
  });

  it('answers an SR as readable text, audited as a PHI read', async () => {
    const res = await asViewer(
      await openpath(h.tok.senior!, examId),
      'GET',
      `${instanceUrl(ct.studyInstanceUid, sr)}/sr`,
    );
    expect(res.statusCode).toBe(200);
    const doc = res.json() as SrDocument;
    expect(doc).toMatchObject({
      title: 'Diagnostic Imaging Report',
      completion: 'COMPLETE',
      verification: 'VERIFIED',
      seriesUid: sr.seriesInstanceUid,
      patientName: 'Objects^Patient',
      patientId: 'OB-0001',
      truncated: false,
    });
    expect(doc.items.map((i) => i.value)).toEqual(['', 'Objects^Patient', 'Patient OB-0001: nodule 8 mm']);
    const rows = await audits('exam.view_object');
    expect(rows.some((a) => a.targetId === examId && a.patientId === 'OB-0001')).toBe(true);
  });

  it("masks the patient's name and identifier for a caller without view_privacy and on share paths", async () => {
    for (const path of [await openpath(h.tok.doctor!, examId), await openpath(h.tok.senior!, examId, 'share-path')]) {
      const doc = (await asViewer(path, 'GET', `${instanceUrl(ct.studyInstanceUid, sr)}/sr`)).json() as SrDocument;
      expect(doc.patientName).toBe('O*t');
      expect(doc.patientId).not.toContain('0001');
      const text = JSON.stringify(doc.items);
      expect(text).not.toContain('Objects');
      expect(text).not.toContain('OB-0001');
      expect(text).toContain('nodule 8 mm');
    }
  });

  it('reads a key object selection as text too, and refuses images and other kinds as SR (404)', async () => {
    const path = await openpath(h.tok.senior!, examId);
    const koDoc = (await asViewer(path, 'GET', `${instanceUrl(ct.studyInstanceUid, ko)}/sr`)).json() as SrDocument;
    expect(koDoc.title).toBe('Of Interest');
    expect(koDoc.items.find((i) => i.valueType === 'IMAGE')?.reference?.sopUid).toBe(ct.instances[1]!.sopInstanceUid);
    for (const i of [ct.instances[0]!, pdf]) {
      expect((await asViewer(path, 'GET', `${instanceUrl(ct.studyInstanceUid, i)}/sr`)).statusCode).toBe(404);
    }
  });

  it("reaches nothing of another organization's study (404), and nothing without a valid path (401/403)", async () => {
    const path = await openpath(h.tok.senior!, examId);
    const theirs = other.instances[1]!;
    // Their study under its own UID, and their instance under this study's UID.
    expect((await asViewer(path, 'GET', `${instanceUrl(other.studyInstanceUid, theirs)}/sr`)).statusCode).toBe(404);
    expect((await asViewer(path, 'GET', `${instanceUrl(ct.studyInstanceUid, theirs)}/sr`)).statusCode).toBe(404);
    // A viewer path signed for our exam by an account of the other group: 403/404, never the SR.
    const teledoctor = await signIn(t, h.staff.teledoctor!);
    const me = (await t.call('GET', 'accounts/me', { token: teledoctor })).json() as { id: string };
    const signer = new Signer(TEST_SECRET);
    const expires = new Date(t.clock.now().getTime() + 60_000);
    for (const b of [h.radiology, h.tele]) {
      const stranger = signer.sign('viewer', { e: examId, b, s: ct.studyInstanceUid, u: me.id, r: null }, expires);
      for (const url of ['viewer/objects', `${instanceUrl(ct.studyInstanceUid, sr)}/sr`]) {
        const res = await asViewer(stranger.token, 'GET', url);
        expect([403, 404], url).toContain(res.statusCode);
        expect(res.body).not.toContain('Objects');
      }
    }
    // Their own path does not reach our study either.
    const theirPath = signer.sign(
      'viewer',
      { e: otherExamId, b: h.tele, s: other.studyInstanceUid, u: me.id, r: null },
      expires,
    );
    expect((await asViewer(theirPath.token, 'GET', `${instanceUrl(ct.studyInstanceUid, sr)}/sr`)).statusCode).toBe(404);
    expect((await t.call('GET', `${instanceUrl(ct.studyInstanceUid, sr)}/sr`)).statusCode).toBe(401);
    expect((await asViewer(`${path.slice(0, -3)}abc`, 'GET', 'viewer/objects')).statusCode).toBe(403);
  });

  it('answers a broken stored SR with a clear 406, never a 500', async () => {
    const path = await openpath(h.tok.senior!, examId);
    const [row] = await t.db.database.db
      .select()
      .from(instances)
      .where(and(eq(instances.sopInstanceUid, sr.sopInstanceUid), eq(instances.bucketId, h.radiology)));
    const saved = await t.blobs.get(row!.blobKey);
    await t.blobs.put(row!.blobKey, Buffer.concat([saved.subarray(0, 400), Buffer.alloc(64, 0xff)]));
    try {
      const res = await asViewer(path, 'GET', `${instanceUrl(ct.studyInstanceUid, sr)}/sr`);
      expect(res.statusCode).toBe(406);
      expect(res.json().message).toMatch(/cannot be shown/);
    } finally {
      await t.blobs.put(row!.blobKey, saved);
    }
  });
});

describe('encapsulated PDF', () => {
  const linkOf = async (path: string, i: GeneratedInstance = pdf) =>
    asViewer(path, 'POST', `${instanceUrl(ct.studyInstanceUid, i)}/document-link`);

  it('serves the PDF inline through a short-lived link, audited', async () => {
    const before = (await audits('exam.view_object')).length;
    const link = await linkOf(await openpath(h.tok.senior!, examId));
    expect(link.statusCode).toBe(200);
    const { url, expires } = link.json() as { url: string; expires: number };
    expect(expires - t.clock.now().getTime() / 1000).toBeLessThanOrEqual(300);
    const res = await t.call('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline/);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect((await audits('exam.view_object')).length).toBe(before + 1);
    // A tampered link is refused.
    const tampered = await t.call('GET', `${url.slice(0, -2)}xy`);
    expect(tampered.statusCode).toBe(403);
  });

  it('refuses the PDF to masked callers (it cannot be masked), and links for other kinds (404)', async () => {
    for (const path of [await openpath(h.tok.doctor!, examId), await openpath(h.tok.senior!, examId, 'share-path')]) {
      const res = await linkOf(path);
      expect(res.statusCode).toBe(403);
      expect(res.json().details).toMatchObject({ action: 'view_privacy' });
    }
    const path = await openpath(h.tok.senior!, examId);
    expect((await linkOf(path, sr)).statusCode).toBe(404);
    expect((await linkOf(path, ct.instances[0]!)).statusCode).toBe(404);
  });

  it('checks the viewer path again when the link is read: a disabled account reads nothing', async () => {
    const link = (await linkOf(await openpath(h.tok.senior!, examId))).json() as { url: string };
    const senior = h.staff.senior!;
    const db = t.db.database.db;
    await db.update(accounts).set({ disabled: 1 }).where(eq(accounts.id, senior.accountId));
    try {
      const res = await t.call('GET', link.url);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('AccountDisabled');
    } finally {
      await db.update(accounts).set({ disabled: 0 }).where(eq(accounts.id, senior.accountId));
    }
  });
});
