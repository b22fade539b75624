import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';

/**
 * Issue 20 item 13: includefield=all answers the attributes of the level searched; an Accept the
 * server cannot produce is 406; a STOW-RS JSON body is 415; the STOW-RS answer carries the
 * study's Retrieve URL, and each instance's.
 */
const run = promisify(execFile);
let t: TestApp;
let tech: string;
let doctor: string;
let study: GeneratedStudy;
let stowBody: Record<string, { vr: string; Value?: unknown[] }>;

type Json = Record<string, { vr: string; Value?: unknown[] }>[];

function get(url: string, accept?: string) {
  return t.app.inject({
    method: 'GET',
    url: `/dicom-web/${url}`,
    headers: { authorization: `Bearer ${doctor}`, ...(accept ? { accept } : {}) },
  });
}

beforeAll(async () => {
  const { t: app, rad } = await startArchiveApp();
  t = app;
  tech = rad.tech.token;
  doctor = rad.doctor.token;
  study = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 2,
    rows: 16,
    columns: 16,
    patientId: 'ANS-1',
  });
  // With PatientAge (a patient study attribute the generator does not write), added by DCMTK.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-answers-'));
  const files: Buffer[] = [];
  for (const [n, i] of study.instances.entries()) {
    const file = path.join(dir, `${n}.dcm`);
    fs.writeFileSync(file, i.bytes);
    await run('dcmodify', ['-nb', '-i', '(0010,1010)=054Y', file]);
    files.push(fs.readFileSync(file));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const res = await injectStow(t, tech, files, { accept: 'application/dicom+json' });
  expect(res.statusCode).toBe(200);
  stowBody = res.json();
});
afterAll(async () => {
  await t.close();
});

describe('STOW-RS answer', () => {
  it("carries the study's Retrieve URL at the top and each instance's own in Referenced SOP Sequence", () => {
    const base = `http://localhost:80/dicom-web`;
    expect(stowBody['00081190']!.Value).toEqual([`${base}/studies/${study.studyInstanceUid}`]);
    const items = stowBody['00081199']!.Value as Json;
    expect(items).toHaveLength(4);
    for (const item of items) {
      const sop = item['00081155']!.Value![0];
      const inst = study.instances.find((i) => i.sopInstanceUid === sop)!;
      expect(item['00081190']!.Value).toEqual([
        `${base}/studies/${study.studyInstanceUid}/series/${inst.seriesInstanceUid}/instances/${sop}`,
      ]);
    }
  });

  it('refuses a JSON (metadata) body with 415', async () => {
    for (const type of ['application/dicom+json', 'multipart/related; type="application/dicom+json"; boundary=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/dicom-web/studies',
        headers: { authorization: `Bearer ${tech}`, 'content-type': type },
        payload: '[{"00100020":{"vr":"LO","Value":["X"]}}]',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UnsupportedMediaType' });
    }
  });
});

describe('includefield=all', () => {
  it("answers the attributes of the level searched: the study's, the series', the instance's", async () => {
    const [s] = (await get('studies?PatientID=ANS-1&includefield=all')).json() as Json;
    expect(s!['00101010']!.Value).toEqual(['054Y']); // PatientAge: patient study module
    expect(s!['00200052']).toBeUndefined(); // FrameOfReferenceUID: series
    expect(s!['00280004']).toBeUndefined(); // PhotometricInterpretation: instance
    expect(s!['00080018']).toBeUndefined(); // SOPInstanceUID: instance

    const series = (await get(`studies/${study.studyInstanceUid}/series?includefield=all`)).json() as Json;
    expect(series[0]!['00200052']).toBeDefined();
    expect(series[0]!['00080070']).toBeDefined(); // Manufacturer: general equipment
    expect(series[0]!['00100010']).toBeUndefined(); // PatientName: the study's
    expect(series[0]!['00280004']).toBeUndefined();

    const [inst] = (
      await get(`instances?SOPInstanceUID=${study.instances[0]!.sopInstanceUid}&includefield=all`)
    ).json() as Json;
    expect(inst!['00280004']!.Value).toEqual(['MONOCHROME2']);
    expect(inst!['00200052']).toBeDefined();
    expect(inst!['7FE00010']).toBeUndefined();
  });
});

describe('Accept', () => {
  const i = () => study.instances[0]!;
  const instanceUrl = () =>
    `studies/${study.studyInstanceUid}/series/${i().seriesInstanceUid}/instances/${i().sopInstanceUid}`;

  it('answers 406 when it names only types the resource cannot be given in', async () => {
    const cases: [string, string][] = [
      ['studies?PatientID=ANS-1', 'multipart/related; type="application/dicom+xml"'],
      [`${instanceUrl()}/metadata`, 'multipart/related; type="application/dicom+xml"'],
      [instanceUrl(), 'application/json'],
      [`${instanceUrl()}/frames/1`, 'multipart/related; type="image/jpeg"'],
      [`${instanceUrl()}/bulkdata/7FE00010`, 'image/png'],
    ];
    for (const [url, accept] of cases) {
      const res = await get(url, accept);
      expect(res.statusCode, `${url} ${accept}`).toBe(406);
      expect(res.json()).toMatchObject({ code: 'NotAcceptable' });
    }
  });

  it('answers the types it produces, and */*', async () => {
    const cases: [string, string][] = [
      ['studies?PatientID=ANS-1', 'application/dicom+json'],
      ['studies?PatientID=ANS-1', 'application/json'],
      [`${instanceUrl()}/metadata`, '*/*'],
      [instanceUrl(), 'multipart/related; type="application/dicom"; transfer-syntax=*'],
      [`${instanceUrl()}/frames/1`, 'multipart/related; type=application/octet-stream; transfer-syntax=*'],
    ];
    for (const [url, accept] of cases) {
      expect((await get(url, accept)).statusCode, `${url} ${accept}`).toBe(200);
    }
  });
});
