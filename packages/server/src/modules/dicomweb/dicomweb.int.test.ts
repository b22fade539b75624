import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances } from '../../db/schema.js';
import { boundaryOf, closing, parseMultipart, partHeader } from '../../dicom/multipart.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { dicomMultipart, injectStow } from '../../test/stow.js';

const run = promisify(execFile);
const STOW_LIMIT = 2 * 1024 * 1024;
let t: TestApp;
let tech: string;
let doctor: string;
let tele: string;
let study: GeneratedStudy;

function stow(token: string, files: Buffer[], url = '/dicom-web/studies') {
  return injectStow(t, token, files, { url, accept: 'application/dicom+json' });
}

function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
}

beforeAll(async () => {
  const world = await startArchiveApp({ stowLimitBytes: STOW_LIMIT });
  t = world.t;
  tech = world.rad.tech.token;
  doctor = world.rad.doctor.token;
  tele = world.outsider.token;
  study = generateStudy({
    modality: 'MR',
    series: 2,
    instancesPerSeries: 3,
    rows: 32,
    columns: 32,
    patientName: '王^小东',
    charset: 'GB18030',
    patientId: 'STOW-001',
    studyDate: '20261115',
    accessionNumber: 'ACC-STOW-1',
  });
});
afterAll(async () => {
  await t.close();
});

describe('STOW-RS', () => {
  it("stores a multi-series study into the caller's upload organization; re-sending is idempotent", async () => {
    const res = await stow(
      tech,
      study.instances.map((i) => i.bytes),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/dicom+json');
    expect(res.json()['00081199'].Value).toHaveLength(6);
    const again = await stow(
      tech,
      study.instances.slice(0, 2).map((i) => i.bytes),
    );
    expect(again.statusCode).toBe(200);
    const rows = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patientName: '王^小东',
      patientId: 'STOW-001',
      seriesCount: 2,
      instanceCount: 6,
      modality: 'MR',
      source: 'stow',
    });
  });

  it('refuses callers without exam_upload, and reports unreadable parts without storing them', async () => {
    expect((await stow(doctor, [study.instances[0]!.bytes])).statusCode).toBe(403);
    const bad = await stow(tech, [Buffer.from('not dicom at all'), study.instances[0]!.bytes.subarray(0, 300)]);
    expect(bad.statusCode).toBe(409);
    expect(bad.json()['00081198'].Value).toHaveLength(2);
    const mixed = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 });
    const partial = await stow(tech, [mixed.instances[0]!.bytes, Buffer.from('junk')]);
    expect(partial.statusCode).toBe(202);
  });

  it('refuses a body without instances', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dicom-web/studies',
      headers: { authorization: `Bearer ${tech}`, 'content-type': 'multipart/related; boundary=x' },
      payload: Buffer.from('--x--'),
    });
    expect(res.statusCode).toBe(400);
  });

  const storedSop = async (sop: string) =>
    (await t.db.database.db.select().from(instances).where(eq(instances.sopInstanceUid, sop))).length;

  it('refuses a request declared over the STOW-RS limit with 413 before storing anything', async () => {
    const one = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 });
    const body = dicomMultipart([one.instances[0]!.bytes, Buffer.alloc(STOW_LIMIT, 1)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dicom-web/studies',
      headers: { authorization: `Bearer ${tech}`, 'content-type': body.type },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PayloadTooLarge', details: { maxBytes: STOW_LIMIT } });
    expect(await storedSop(one.instances[0]!.sopInstanceUid)).toBe(0);
  });

  describe('over HTTP, streamed', () => {
    let base: string;
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address() as { port: number };
      base = `http://127.0.0.1:${address.port}`;
    });

    /** A chunked STOW-RS request whose body is written by `send`. */
    function streamed(send: (req: http.ClientRequest) => Promise<void>) {
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${base}/dicom-web/studies`, {
          method: 'POST',
          agent: false,
          headers: {
            connection: 'close',
            authorization: `Bearer ${tech}`,
            'content-type': 'multipart/related; type="application/dicom"; boundary=stowtest',
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        send(req).catch(reject);
      });
    }

    it('stores each part once its delimiter has arrived, before the body ends', async () => {
      const two = generateStudy({ modality: 'CT', instancesPerSeries: 2, rows: 16, columns: 16 });
      const [a, b] = two.instances;
      const answer = await streamed(async (req) => {
        req.write(Buffer.concat([partHeader('stowtest', 'application/dicom'), a!.bytes, Buffer.from('\r\n')]));
        req.write(partHeader('stowtest', 'application/dicom'));
        // The first instance is stored while the request is still open.
        for (let i = 0; i < 200 && (await storedSop(a!.sopInstanceUid)) === 0; i++) {
          await new Promise((r) => setTimeout(r, 25));
        }
        expect(await storedSop(a!.sopInstanceUid)).toBe(1);
        expect(await storedSop(b!.sopInstanceUid)).toBe(0);
        req.end(Buffer.concat([b!.bytes, closing('stowtest')]));
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)['00081199'].Value).toHaveLength(2);
      expect(await storedSop(b!.sopInstanceUid)).toBe(1);
    });

    it('answers 413 when a chunked body passes the limit; the instances before it stay stored whole', async () => {
      const one = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 });
      const first = one.instances[0]!;
      const answer = await streamed(async (req) => {
        req.write(Buffer.concat([partHeader('stowtest', 'application/dicom'), first.bytes, Buffer.from('\r\n')]));
        req.write(partHeader('stowtest', 'application/dicom'));
        for (let sent = 0; sent <= STOW_LIMIT && !req.destroyed; sent += 256 * 1024) {
          const ok = req.write(Buffer.alloc(256 * 1024, 7));
          if (!ok) await new Promise((r) => req.once('drain', r).once('close', r));
        }
        req.end();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'PayloadTooLarge' });
      expect(await storedSop(first.sopInstanceUid)).toBe(1);
    });
  });
});

describe('QIDO-RS', () => {
  const uids = (res: { statusCode: number; json(): unknown }) =>
    res.statusCode === 204
      ? []
      : (res.json() as Record<string, { Value: string[] }>[]).map((s) => s['0020000D']!.Value[0]);

  it('matches by PatientID, name wildcard, date range, accession and modality', async () => {
    const base = '/dicom-web/studies';
    expect(uids(await get(doctor, `${base}?PatientID=STOW-001`))).toEqual([study.studyInstanceUid]);
    expect(uids(await get(doctor, `${base}?PatientName=${encodeURIComponent('王*')}`))).toContain(
      study.studyInstanceUid,
    );
    expect(uids(await get(doctor, `${base}?StudyDate=20261101-20261130`))).toContain(study.studyInstanceUid);
    expect(uids(await get(doctor, `${base}?StudyDate=20261201-`))).not.toContain(study.studyInstanceUid);
    expect(uids(await get(doctor, `${base}?AccessionNumber=ACC-STOW-1`))).toEqual([study.studyInstanceUid]);
    expect(uids(await get(doctor, `${base}?ModalitiesInStudy=MR&PatientID=STOW-001`))).toEqual([
      study.studyInstanceUid,
    ]);
    expect((await get(doctor, `${base}?ModalitiesInStudy=CT&PatientID=STOW-001`)).statusCode).toBe(204);
  });

  it('answers the study attributes in UTF-8 with the Chinese name intact', async () => {
    const [s] = (await get(doctor, '/dicom-web/studies?PatientID=STOW-001')).json() as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(s!['00100010']!.Value).toEqual([{ Alphabetic: '王^小东' }]);
    expect(s!['00080005']!.Value).toEqual(['ISO_IR 192']);
    expect(s!['00201206']!.Value).toEqual([2]);
    expect(s!['00201208']!.Value).toEqual([6]);
  });

  it('pages with limit and offset, and warns when more results exist', async () => {
    const seriesUid = study.instances[0]!.seriesInstanceUid;
    const url = `/dicom-web/studies/${study.studyInstanceUid}/series/${seriesUid}/instances`;
    const first = await get(doctor, `${url}?limit=2`);
    expect(first.json()).toHaveLength(2);
    expect(first.headers.warning).toContain('additional results');
    const rest = await get(doctor, `${url}?limit=2&offset=2`);
    expect(rest.json()).toHaveLength(1);
    expect(rest.headers.warning).toBeUndefined();
  });

  it('lists series and instances of the study', async () => {
    const series = (await get(doctor, `/dicom-web/studies/${study.studyInstanceUid}/series`)).json() as unknown[];
    expect(series).toHaveLength(2);
    const seriesUid = study.instances[0]!.seriesInstanceUid;
    const inst = (
      await get(doctor, `/dicom-web/studies/${study.studyInstanceUid}/series/${seriesUid}/instances`)
    ).json() as unknown[];
    expect(inst).toHaveLength(3);
    expect((await get(doctor, `/dicom-web/studies/1.2.3.4.5/series`)).statusCode).toBe(404);
  });

  it('includefield reads attributes the archive does not keep from the stored headers', async () => {
    type J = Record<string, { vr: string; Value?: unknown[] }>[];
    const studyUid = study.studyInstanceUid;
    const [st] = (
      await get(doctor, `/dicom-web/studies?PatientID=STOW-001&includefield=LossyImageCompression,PatientWeight`)
    ).json() as J;
    expect(st!['00282110']).toEqual({ vr: 'CS', Value: ['00'] });
    expect(st!['00101030']).toEqual({ vr: 'DS' }); // asked for, absent: answered empty
    expect(st!['00201208']!.Value).toEqual([6]); // kept attributes unchanged

    const series = (await get(doctor, `/dicom-web/studies/${studyUid}/series?includefield=00200052`)).json() as J;
    const frames = series.map((s) => s['00200052']!.Value![0]);
    expect(frames.every((f) => typeof f === 'string' && /^[0-9.]+$/.test(f))).toBe(true);

    const seriesUid = study.instances[0]!.seriesInstanceUid;
    const [inst] = (
      await get(doctor, `/dicom-web/studies/${studyUid}/series/${seriesUid}/instances?limit=1&includefield=all`)
    ).json() as J;
    expect(inst!['00280004']!.Value).toEqual(['MONOCHROME2']);
    expect(inst!['00200052']!.Value).toEqual([
      series.find((s) => s['0020000E']!.Value![0] === seriesUid)!['00200052']!.Value![0],
    ]);
    expect(inst!['7FE00010']).toBeUndefined();
    expect(inst!['00100010']!.Value).toEqual([{ Alphabetic: '王^小东' }]);

    const bad = await get(doctor, `/dicom-web/studies?includefield=NoSuchAttribute`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'ValidationError' });
  });

  it('shows another group nothing', async () => {
    expect((await get(tele, '/dicom-web/studies?PatientID=STOW-001')).statusCode).toBe(204);
    expect((await get(tele, `/dicom-web/studies/${study.studyInstanceUid}/series`)).statusCode).toBe(404);
    expect((await get(tele, `/dicom-web/studies/${study.studyInstanceUid}`)).statusCode).toBe(404);
  });
});

describe('WADO-RS', () => {
  it('retrieves an instance byte for byte, and DCMTK reads the same patient from it', async () => {
    const inst = study.instances[0]!;
    const res = await get(
      doctor,
      `/dicom-web/studies/${study.studyInstanceUid}/series/${inst.seriesInstanceUid}/instances/${inst.sopInstanceUid}`,
    );
    expect(res.statusCode).toBe(200);
    const boundary = boundaryOf(res.headers['content-type'] as string)!;
    expect(res.headers['content-type']).toContain('type="application/dicom"');
    const parts = parseMultipart(res.rawPayload, boundary);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.body.equals(inst.bytes)).toBe(true);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-wado-')), 'i.dcm');
    fs.writeFileSync(file, parts[0]!.body);
    const { stdout } = await run('dcmdump', ['+U8', '+P', 'PatientName', '+P', 'PatientID', file]);
    expect(stdout).toContain('王^小东');
    expect(stdout).toContain('STOW-001');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('retrieves a whole study and a series as multipart', async () => {
    const all = await get(doctor, `/dicom-web/studies/${study.studyInstanceUid}`);
    expect(parseMultipart(all.rawPayload, boundaryOf(all.headers['content-type'] as string)!)).toHaveLength(6);
    const one = await get(
      doctor,
      `/dicom-web/studies/${study.studyInstanceUid}/series/${study.instances[0]!.seriesInstanceUid}`,
    );
    expect(parseMultipart(one.rawPayload, boundaryOf(one.headers['content-type'] as string)!)).toHaveLength(3);
  });
});

describe('WADO-RS metadata and frames', () => {
  it('answers instance metadata as DICOM JSON in UTF-8, matching what DCMTK reads', async () => {
    const inst = study.instances[1]!;
    const url = `/dicom-web/studies/${study.studyInstanceUid}/series/${inst.seriesInstanceUid}/instances/${inst.sopInstanceUid}/metadata`;
    const res = await get(doctor, url);
    expect(res.statusCode).toBe(200);
    const [m] = res.json() as Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>[];
    expect(m!['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: '王^小东' }] });
    expect(m!['00080005']!.Value).toEqual(['ISO_IR 192']);
    expect(m!['00080018']!.Value).toEqual([inst.sopInstanceUid]);
    expect(m!['00280010']).toEqual({ vr: 'US', Value: [32] });
    expect(m!['7FE00010']!.BulkDataURI).toContain(`/instances/${inst.sopInstanceUid}/bulkdata/7FE00010`);
    const series = await get(
      doctor,
      `/dicom-web/studies/${study.studyInstanceUid}/series/${inst.seriesInstanceUid}/metadata`,
    );
    expect(series.json()).toHaveLength(3);
  });

  it("answers frames of a CT with the phantom's known values", async () => {
    const ct = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 64, columns: 64, patientId: 'FRAMES-1' });
    expect((await stow(tech, [ct.instances[0]!.bytes])).statusCode).toBe(200);
    const i = ct.instances[0]!;
    const res = await get(
      doctor,
      `/dicom-web/studies/${ct.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/1`,
    );
    expect(res.statusCode).toBe(200);
    const [part] = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
    expect(part!.body.length).toBe(64 * 64 * 2);
    const at = (x: number, y: number) => part!.body.readUInt16LE((y * 64 + x) * 2) - 1024;
    expect(at(Math.round(0.7 * 64), 32)).toBe(400);
    expect(at(32, 32)).toBe(0);
    expect(
      (
        await get(
          doctor,
          `/dicom-web/studies/${ct.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/2`,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('answers each frame of an ultrasound clip', async () => {
    const us = generateStudy({ modality: 'US', rows: 24, columns: 32, frames: 5, patientId: 'US-CLIP' });
    expect((await stow(tech, [us.instances[0]!.bytes])).statusCode).toBe(200);
    const i = us.instances[0]!;
    const res = await get(
      doctor,
      `/dicom-web/studies/${us.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/frames/2,5`,
    );
    const parts = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
    expect(parts).toHaveLength(2);
    const meta = (
      await get(
        doctor,
        `/dicom-web/studies/${us.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}/metadata`,
      )
    ).json() as Record<string, { Value?: number[] }>[];
    const spp = meta[0]!['00280002']!.Value![0]!;
    expect(parts[0]!.body.length).toBe(24 * 32 * spp);
    expect(parts[0]!.body.equals(parts[1]!.body)).toBe(false);
  });
});
