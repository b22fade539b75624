import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import dicomParser from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from '../../dicom/multipart.js';
import { generateStudy, type GeneratedInstance, type StudyOptions } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';

const run = promisify(execFile);
let t: TestApp;
let tech: string;
let doctor: string;
let dir: string;

function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
}

/** The same instance rewritten by DCMTK in Explicit VR Big Endian. */
async function bigEndianCopy(bytes: Buffer): Promise<Buffer> {
  const le = path.join(dir, 'le.dcm');
  const be = path.join(dir, 'be.dcm');
  fs.writeFileSync(le, bytes);
  await run('dcmconv', ['+tb', le, be]);
  return fs.readFileSync(be);
}

const transferSyntaxOf = (file: Buffer) => dicomParser.parseDicom(file).string('x00020010');

/** Two studies generated alike (the generator's pixels are deterministic), the second in big endian. */
async function pair(options: StudyOptions): Promise<{ le: GeneratedInstance; be: GeneratedInstance; beBytes: Buffer }> {
  const le = generateStudy(options).instances[0]!;
  const be = generateStudy(options).instances[0]!;
  const beBytes = await bigEndianCopy(be.bytes);
  expect(transferSyntaxOf(beBytes)).toBe('1.2.840.10008.1.2.2');
  expect((await injectStow(t, tech, [le.bytes, beBytes])).statusCode).toBe(200);
  return { le, be, beBytes };
}

const instanceUrl = (i: GeneratedInstance, studyUid: string) =>
  `/dicom-web/studies/${studyUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;

async function studyUidOf(i: GeneratedInstance): Promise<string> {
  const res = await get(doctor, `/dicom-web/instances?SOPInstanceUID=${i.sopInstanceUid}`);
  return (res.json() as Record<string, { Value: string[] }>[])[0]!['0020000D']!.Value[0]!;
}

async function frames(i: GeneratedInstance, list: string) {
  const res = await get(doctor, `${instanceUrl(i, await studyUidOf(i))}/frames/${list}`);
  expect(res.statusCode).toBe(200);
  const contentType = res.headers['content-type'] as string;
  return { contentType, parts: parseMultipart(res.rawPayload, boundaryOf(contentType)!) };
}

beforeAll(async () => {
  const { t: app, rad } = await startArchiveApp();
  t = app;
  tech = rad.tech.token;
  doctor = rad.doctor.token;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-be-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The instance with a small OW value (a palette LUT's data, 0x0001 0x0203) added by DCMTK. */
async function withOwValue(bytes: Buffer): Promise<Buffer> {
  const file = path.join(dir, 'ow.dcm');
  fs.writeFileSync(file, bytes);
  await run('dcmodify', ['-nb', '-i', '(0028,1201)=0001\\0203', file]);
  return fs.readFileSync(file);
}

describe('Explicit VR Big Endian instances', () => {
  it('answer a small binary value (InlineBinary) in little endian, as their twin does', async () => {
    const options: StudyOptions = { modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8 };
    const le = generateStudy(options).instances[0]!;
    const be = generateStudy(options).instances[0]!;
    const beBytes = await bigEndianCopy(await withOwValue(be.bytes));
    expect((await injectStow(t, tech, [await withOwValue(le.bytes), beBytes])).statusCode).toBe(200);
    const inline = async (i: GeneratedInstance) => {
      const res = await get(doctor, `${instanceUrl(i, await studyUidOf(i))}/metadata`);
      return (res.json() as Record<string, { InlineBinary?: string }>[])[0]!['00281201']!.InlineBinary;
    };
    expect(await inline(le)).toBe(Buffer.from([0x01, 0x00, 0x03, 0x02]).toString('base64'));
    expect(await inline(be)).toBe(await inline(le));
  });

  it('serve the frames of a CT in little endian, byte for byte those of its little-endian twin', async () => {
    const { le, be } = await pair({ modality: 'CT', instancesPerSeries: 1, rows: 64, columns: 64 });
    const a = await frames(le, '1');
    const b = await frames(be, '1');
    expect(b.parts[0]!.body.length).toBe(64 * 64 * 2);
    expect(b.parts[0]!.body.equals(a.parts[0]!.body)).toBe(true);
    // The phantom's known values read as little endian (what a viewer does).
    const at = (x: number, y: number) => b.parts[0]!.body.readUInt16LE((y * 64 + x) * 2) - 1024;
    expect(at(Math.round(0.7 * 64), 32)).toBe(400);
    expect(at(32, 32)).toBe(0);
    // Labelled as what they are, in the part and in the multipart type.
    expect(b.parts[0]!.headers['content-type']).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1');
    expect(b.contentType).toContain('transfer-syntax=1.2.840.10008.1.2.1');
  });

  it('serve each frame of a multi-frame clip as its twin does', async () => {
    const { le, be } = await pair({ modality: 'US', rows: 24, columns: 32, frames: 4 });
    const a = await frames(le, '1,3');
    const b = await frames(be, '1,3');
    expect(b.parts).toHaveLength(2);
    b.parts.forEach((p, n) => expect(p.body.equals(a.parts[n]!.body)).toBe(true));
  });

  it('serve the pixel data bulk data in little endian and the WADO-RS instance as stored', async () => {
    const { le, be, beBytes } = await pair({ modality: 'MR', instancesPerSeries: 1, rows: 32, columns: 32 });
    const bulk = async (i: GeneratedInstance) => {
      const res = await get(doctor, `${instanceUrl(i, await studyUidOf(i))}/bulkdata/7FE00010`);
      expect(res.statusCode).toBe(200);
      return parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!)[0]!.body;
    };
    const a = await bulk(le);
    expect(a.length).toBe(32 * 32 * 2);
    expect((await bulk(be)).equals(a)).toBe(true);

    const meta = (await get(doctor, `${instanceUrl(be, await studyUidOf(be))}/metadata`)).json() as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(meta[0]!['00280010']!.Value).toEqual([32]); // numbers read in the file's byte order
    expect(meta[0]!['00020010']!.Value).toEqual(['1.2.840.10008.1.2.2']); // the stored file's

    const res = await get(doctor, instanceUrl(be, await studyUidOf(be)));
    const [part] = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
    expect(part!.body.equals(beBytes)).toBe(true);
  });
});
