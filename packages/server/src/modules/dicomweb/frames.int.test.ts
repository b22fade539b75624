import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_TOKEN_HEADER } from '@yyp/contracts';
import { runCli } from '../../cli-commands.js';
import { accounts, exams } from '../../db/schema.js';
import { boundaryOf, parseMultipart } from '../../dicom/multipart.js';
import { frameBytes } from '../../dicom/json-model.js';
import { generateStudy, type GeneratedInstance, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { localKeys } from '../archive/index.js';
import type { DicomWebService } from './dicomweb.service.js';

/**
 * The frame path's layout cache (issue 20 item 16): a file's frames are read in place once its
 * layout is known, byte for byte what the file holds; what a caller may read is decided by the
 * instance's row at every request, so a remembered layout reaches nobody the row would refuse.
 */
let t: TestApp;
let ct: GeneratedStudy;
let us: GeneratedStudy;
let ctExam: string;
let usExam: string;
let doctor: string;
let radId: string;
let tele: string;

const layouts = () => (t.services.viewing as unknown as { web: DicomWebService }).web.frameSource.size;

const framesUrl = (s: GeneratedStudy, i: GeneratedInstance, frames: string) =>
  `studies/${s.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/${frames}`;

async function wado(token: string, url: string) {
  return t.call('GET', `/dicom-web/${url}`, { token });
}

async function viewerPath(token: string, examId: string) {
  const res = await t.call('POST', `viewers/${examId}/path`, { token, body: { reportId: examId } });
  expect(res.statusCode).toBe(200);
  return (res.json() as { openpath: string }).openpath;
}

const viewer = (openpath: string, url: string) =>
  t.call('GET', `viewer/${url}`, { headers: { [VIEWER_TOKEN_HEADER]: openpath } });

/** The frames of a multipart answer. */
function framesOf(res: { statusCode: number; rawPayload: Buffer; headers: Record<string, unknown> }): Buffer[] {
  expect(res.statusCode).toBe(200);
  return parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!).map((p) => p.body);
}

const expected = (i: GeneratedInstance, n: number) => Buffer.from(frameBytes(i.bytes, n).bytes);

beforeAll(async () => {
  const world = await startArchiveApp();
  t = world.t;
  radId = world.rad.org.bucketId;
  tele = world.outsider.token;
  ct = generateStudy({ modality: 'CT', instancesPerSeries: 3, rows: 32, columns: 24, patientId: 'FR-CT' });
  us = generateStudy({ modality: 'US', rows: 24, columns: 32, frames: 5, patientId: 'FR-US' });
  for (const i of ct.instances) ctExam = (await t.services.archive.ingest(radId, i.bytes, 'web')).examId;
  for (const i of us.instances) usExam = (await t.services.archive.ingest(radId, i.bytes, 'web')).examId;
  doctor = world.rad.doctor.token;
});
afterAll(() => t.close());

describe('WADO-RS frames from remembered layouts', () => {
  it('answers the same bytes the file holds, first from the whole file and then in place', async () => {
    const before = layouts();
    const clip = us.instances[0]!;
    const first = framesOf(await wado(doctor, framesUrl(us, clip, '2,5')));
    expect(layouts()).toBe(before + 1);
    const again = framesOf(await wado(doctor, framesUrl(us, clip, '5,1,2')));
    expect(layouts()).toBe(before + 1);
    expect(first.map((f) => f.length)).toEqual([24 * 32, 24 * 32]);
    expect(first[0]!.equals(expected(clip, 2))).toBe(true);
    expect(first[1]!.equals(expected(clip, 5))).toBe(true);
    expect(again.map((f, k) => f.equals(expected(clip, [5, 1, 2][k]!)))).toEqual([true, true, true]);

    const openpath = await viewerPath(doctor, ctExam);
    for (const i of ct.instances) {
      const fromFile = framesOf(await viewer(openpath, framesUrl(ct, i, '1')))[0]!;
      const inPlace = framesOf(await viewer(openpath, framesUrl(ct, i, '1')))[0]!;
      const viaWado = framesOf(await wado(doctor, framesUrl(ct, i, '1')))[0]!;
      expect(fromFile.length).toBe(32 * 24 * 2);
      expect([fromFile, inPlace, viaWado].every((f) => f.equals(expected(i, 1)))).toBe(true);
    }
    expect(layouts()).toBe(before + 1 + ct.instances.length);
  });

  it('answers 404 for a frame past the last, remembered or not', async () => {
    const clip = us.instances[0]!;
    expect((await wado(doctor, framesUrl(us, clip, '6'))).statusCode).toBe(404);
    expect((await wado(doctor, framesUrl(us, clip, '1,6'))).statusCode).toBe(404);
    const openpath = await viewerPath(doctor, usExam);
    expect((await viewer(openpath, framesUrl(us, clip, '6'))).statusCode).toBe(404);
  });

  it('gives a remembered frame to no caller outside the organization', async () => {
    const i = ct.instances[0]!;
    framesOf(await wado(doctor, framesUrl(ct, i, '1')));
    expect((await wado(tele, framesUrl(ct, i, '1'))).statusCode).toBe(404);
    // The study UID, series UID and instance must belong together.
    const wrongSeries = `studies/${ct.studyInstanceUid}/series/${us.instances[0]!.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1`;
    expect((await wado(doctor, wrongSeries)).statusCode).toBe(404);
    const wrongStudy = `studies/${us.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1`;
    expect((await wado(doctor, wrongStudy)).statusCode).toBe(404);
  });

  it('stops at a deleted exam and at a disabled account, and serves again once they are back', async () => {
    const db = t.db.database.db;
    const i = ct.instances[1]!;
    const openpath = await viewerPath(doctor, ctExam);
    framesOf(await wado(doctor, framesUrl(ct, i, '1')));
    await db.update(exams).set({ deletedTime: t.clock.now() }).where(eq(exams.id, ctExam));
    expect((await wado(doctor, framesUrl(ct, i, '1'))).statusCode).toBe(404);
    expect((await viewer(openpath, framesUrl(ct, i, '1'))).statusCode).toBe(404);
    await db.update(exams).set({ deletedTime: null }).where(eq(exams.id, ctExam));
    expect(framesOf(await viewer(openpath, framesUrl(ct, i, '1')))[0]!.equals(expected(i, 1))).toBe(true);

    const me = (await t.call('GET', 'accounts/me', { token: doctor })).json() as { id: string };
    await db.update(accounts).set({ disabled: 1 }).where(eq(accounts.id, me.id));
    const refused = await viewer(openpath, framesUrl(ct, i, '1'));
    await db.update(accounts).set({ disabled: 0 }).where(eq(accounts.id, me.id));
    expect(refused.json().code).toBe('AccountDisabled');
    expect(framesOf(await viewer(openpath, framesUrl(ct, i, '1')))[0]!.equals(expected(i, 1))).toBe(true);
  });

  it('answers the same bytes after the rows are lost and rebuilt by yyp reindex', async () => {
    const db = t.db.database.db;
    const i = ct.instances[2]!;
    framesOf(await wado(doctor, framesUrl(ct, i, '1')));
    await db.delete(exams).where(eq(exams.id, ctExam));
    expect((await wado(doctor, framesUrl(ct, i, '1'))).statusCode).toBe(404);
    const root = (t.blobs as unknown as { root: string }).root;
    await runCli(t.db.database, ['reindex'], () => undefined, { blobs: t.blobs, keys: (p) => localKeys(root, p) });
    expect(framesOf(await wado(doctor, framesUrl(ct, i, '1')))[0]!.equals(expected(i, 1))).toBe(true);
  });
});
