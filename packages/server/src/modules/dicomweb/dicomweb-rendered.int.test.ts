import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import dicomParser from 'dicom-parser';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { decodeFrame, TS } from '../../dicom/codecs/index.js';
import { boundaryOf, parseMultipart } from '../../dicom/multipart.js';
import { readPng } from '../../dicom/render/read-png.js';
import { generateStudy, type GeneratedInstance, type StudyOptions } from '../../dicom/testdata/generate.js';
import { generateSr } from '../../dicom/testdata/objects.js';
import { CT_PHANTOM } from '../../dicom/testdata/pixels.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import { makeMaskingHospital } from '../../test/factories-privacy.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';

/**
 * Rendered resources and thumbnails (issue 28 item 6, PS3.18 8.3.5 and 9.5): the answers are
 * decoded (PNG by read-png.ts, JPEG by the codecs' libjpeg-turbo decoder) and compared with DCMTK's own
 * rendering of the stored instance (dcm2pnm with the same window), on PGlite and PostgreSQL.
 */
const run = promisify(execFile);
let t: TestApp;
let tech: string;
let doctor: string;
let outsider: string;
let dir: string;
let files = 0;

beforeAll(async () => {
  const world = await startArchiveApp();
  t = world.t;
  tech = world.rad.tech.token;
  doctor = world.rad.doctor.token;
  outsider = world.outsider.token;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-rendered-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tmp = (ext: string) => path.join(dir, `f${files++}.${ext}`);

function get(url: string, { token = doctor, accept }: { token?: string; accept?: string } = {}) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) },
  });
}

async function stow(...bytes: Buffer[]): Promise<void> {
  const res = await injectStow(t, tech, bytes);
  expect(res.statusCode, res.body).toBe(200);
}

async function studyUidOf(i: GeneratedInstance): Promise<string> {
  const res = await get(`/dicom-web/instances?SOPInstanceUID=${i.sopInstanceUid}`);
  return (res.json() as Record<string, { Value: string[] }>[])[0]!['0020000D']!.Value[0]!;
}

async function instanceUrl(i: GeneratedInstance): Promise<string> {
  return `/dicom-web/studies/${await studyUidOf(i)}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;
}

/** A binary PGM or PPM (P5, P6) as DCMTK writes it. */
function readPnm(file: string): { width: number; height: number; data: Buffer } {
  const bytes = fs.readFileSync(file);
  const header = /^P[56]\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.toString('latin1', 0, 200))!;
  return { width: Number(header[1]), height: Number(header[2]), data: bytes.subarray(header[0].length) };
}

/** DCMTK's rendering of a stored file: dcm2pnm with these options (e.g. +Ww c w). */
async function dcmtkRendering(bytes: Buffer, options: string[]) {
  const input = tmp('dcm');
  const output = tmp('pnm');
  fs.writeFileSync(input, bytes);
  await run('dcm2pnm', [...options, input, output]);
  return readPnm(output);
}

/** Where a JPEG's first marker segment of this kind starts (its 0xFF byte), if it has one. */
function jpegMarker(jpeg: Buffer, marker: number): number | undefined {
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    if (jpeg[at + 1] === marker) return at;
    if (jpeg[at + 1] === 0xda) return undefined; // scan data follows
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return undefined;
}

/** The size a JPEG's start-of-frame marker gives (ITU T.81 B.2.2). */
function jpegSize(jpeg: Buffer): { width: number; height: number; components: number } {
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7), components: jpeg[at + 9]! };
    }
    at += 2 + length;
  }
  throw new Error('no start of frame');
}

/** A JPEG answer decoded by libjpeg-turbo (the codecs' baseline decoder, not the encoder). */
async function decodeJpeg(jpeg: Buffer) {
  const { width, height, components } = jpegSize(jpeg);
  const frame = await decodeFrame(jpeg, TS.jpegBaseline, {
    rows: height,
    columns: width,
    bitsAllocated: 8,
    bitsStored: 8,
    pixelRepresentation: 0,
    samplesPerPixel: components,
    photometricInterpretation: components === 3 ? 'YBR_FULL_422' : 'MONOCHROME2',
    planarConfiguration: 0,
  });
  return { width, height, data: frame.pixels as Uint8Array };
}

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

function meanDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

async function png(url: string) {
  const res = await get(url, { accept: 'image/png' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  return readPng(res.rawPayload);
}

async function dcmtkCopy(tool: string, options: string[], bytes: Buffer): Promise<Buffer> {
  const input = tmp('dcm');
  const output = tmp('dcm');
  fs.writeFileSync(input, bytes);
  await run(tool, [...options, input, output]);
  return fs.readFileSync(output);
}

describe('rendered CT (512-style phantom at 64×64, 12 bits stored, rescale -1024)', () => {
  const options: StudyOptions = { modality: 'CT', instancesPerSeries: 2, rows: 64, columns: 64 };
  const study = generateStudy(options);
  const ct = study.instances[0]!;
  let url: string;

  beforeAll(async () => {
    await stow(...study.instances.map((i) => i.bytes));
    url = await instanceUrl(ct);
  });

  it("is the instance's window (40/400) as DCMTK renders it, within 1", async () => {
    const image = await png(`${url}/rendered`);
    expect([image.width, image.height, image.components]).toEqual([64, 64, 1]);
    const reference = await dcmtkRendering(ct.bytes, ['+Ww', '40', '400']);
    expect(maxDifference(image.data, reference.data)).toBeLessThanOrEqual(1);
    // The phantom's known values: bone (400 HU) is white, the exact water at the centre 0 HU.
    const at = (x: number, y: number) => image.data[y * 64 + x]!;
    expect(at(Math.round(CT_PHANTOM.boneCenterX * 64), 32)).toBe(255);
    expect(at(32, 32)).toBe(Math.round(((0 - 39.5) / 399 + 0.5) * 255));
  });

  it.each([
    ['-600,1500', ['+Ww', '-600', '1500']],
    ['300,1200,linear', ['+Ww', '300', '1200']],
    ['40,400,sigmoid', ['+Ww', '40', '400', '+Wfs']],
  ])('honours window=%s as DCMTK does', async (window, dcmtk) => {
    const image = await png(`${url}/frames/1/rendered?window=${window}`);
    const reference = await dcmtkRendering(ct.bytes, dcmtk);
    expect(maxDifference(image.data, reference.data)).toBeLessThanOrEqual(1);
  });

  it('answers JPEG by default (quality 90), close to the PNG; a lower quality is smaller', async () => {
    const res = await get(`${url}/rendered`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect([...res.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const decoded = await decodeJpeg(res.rawPayload);
    expect([decoded.width, decoded.height]).toEqual([64, 64]);
    const reference = await png(`${url}/rendered`);
    expect(meanDifference(decoded.data, reference.data)).toBeLessThan(2);
    const low = await get(`${url}/rendered?quality=10`, { accept: 'image/jpeg' });
    expect(low.rawPayload.length).toBeLessThan(res.rawPayload.length);
    // Baseline (SOF0), its luminance DC quantizer the IJG table's 16 scaled for the quality:
    // 16 × (200 − 2 × 90) / 100 → 3 at 90, 16 at 50 (ITU T.81 K.1, libjpeg's scaling).
    expect(jpegMarker(res.rawPayload, 0xc0)).toBeDefined();
    expect(res.rawPayload[jpegMarker(res.rawPayload, 0xdb)! + 5]).toBe(3);
    const fifty = (await get(`${url}/rendered?quality=50`)).rawPayload;
    expect(fifty[jpegMarker(fifty, 0xdb)! + 5]).toBe(16);
  });

  it('fits a viewport, aspect kept, by area averaging', async () => {
    const full = await png(`${url}/rendered`);
    const small = await png(`${url}/rendered?viewport=32,16`);
    expect([small.width, small.height]).toEqual([16, 16]);
    // Each output pixel is the mean of a 4×4 block of the full-size rendering (±1 for rounding).
    let worst = 0;
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) {
        let sum = 0;
        for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) sum += full.data[(4 * y + j) * 64 + 4 * x + i]!;
        worst = Math.max(worst, Math.abs(small.data[y * 16 + x]! - sum / 16));
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    // A source region: the right half, at its own size.
    const half = await png(`${url}/rendered?viewport=32,64,32,0,32,64`);
    expect([half.width, half.height]).toEqual([32, 64]);
    for (let y = 0; y < 64; y++) {
      expect(
        Buffer.from(half.data.subarray(y * 32, y * 32 + 32)).equals(
          Buffer.from(full.data.subarray(y * 64 + 32, y * 64 + 64)),
        ),
      ).toBe(true);
    }
  });

  it('answers thumbnails 128×128 by default, or the viewport asked', async () => {
    const base = url.slice(0, url.indexOf('/series/'));
    for (const u of [`${url}/thumbnail`, `${url}/frames/1/thumbnail`, `${base}/thumbnail`]) {
      const res = await get(u);
      expect(res.statusCode, u).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      const decoded = await decodeJpeg(res.rawPayload);
      expect([decoded.width, decoded.height]).toEqual([128, 128]);
    }
    const small = await png(`${url}/thumbnail?viewport=40,40`);
    expect([small.width, small.height]).toEqual([40, 40]);
  });

  it('renders a study and a series as their first image', async () => {
    const first = await png(`${url}/rendered`);
    const series = url.slice(0, url.indexOf('/instances/'));
    const studyUrl = url.slice(0, url.indexOf('/series/'));
    const second = await png(`${await instanceUrl(study.instances[1]!)}/rendered`);
    expect(Buffer.from(first.data).equals(Buffer.from(second.data))).toBe(false);
    for (const u of [`${series}/rendered`, `${studyUrl}/rendered`]) {
      expect(Buffer.from((await png(u)).data).equals(Buffer.from(first.data)), u).toBe(true);
    }
  });

  it('renders MONOCHROME1 inverted', async () => {
    const copy = generateStudy(options).instances[0]!;
    const file = tmp('dcm');
    fs.writeFileSync(file, copy.bytes);
    await run('dcmodify', ['-nb', '-m', '(0028,0004)=MONOCHROME1', file]);
    const mono1 = fs.readFileSync(file);
    await stow(mono1);
    const inverted = await png(`${await instanceUrl(copy)}/rendered`);
    const plain = await png(`${url}/rendered`);
    expect([...inverted.data.subarray(0, 64 * 64)].every((v, i) => v === 255 - plain.data[i]!)).toBe(true);
  });

  it.each([
    ['JPEG lossless SV1 (dcmcjpeg)', 'dcmcjpeg', [] as string[], '1.2.840.10008.1.2.4.70', 0],
    ['JPEG lossless (dcmcjpeg +el)', 'dcmcjpeg', ['+el'], '1.2.840.10008.1.2.4.57', 0],
    ['JPEG-LS lossless (dcmcjpls)', 'dcmcjpls', [] as string[], '1.2.840.10008.1.2.4.80', 0],
    // Near-lossless: each sample within 2 of the source (dcmcjpls's default), so within 2 here.
    ['JPEG-LS near-lossless (dcmcjpls +en)', 'dcmcjpls', ['+en'], '1.2.840.10008.1.2.4.81', 2],
    ['RLE (dcmcrle)', 'dcmcrle', [] as string[], '1.2.840.10008.1.2.5', 0],
    ['Explicit VR Big Endian (dcmconv +tb)', 'dcmconv', ['+tb'], '1.2.840.10008.1.2.2', 0],
    ['Deflated Explicit VR Little Endian (dcmconv +td)', 'dcmconv', ['+td'], '1.2.840.10008.1.2.1.99', 0],
  ])('decodes %s as the uncompressed instance renders', async (_name, tool, flags, syntax, tolerance) => {
    const copy = generateStudy(options).instances[0]!;
    const compressed = await dcmtkCopy(tool, flags, copy.bytes);
    expect(dicomParser.parseDicom(compressed, { untilTag: 'x00020010' }).string('x00020010')).toBe(syntax);
    await stow(compressed);
    // A lossy copy is a new instance (DCMTK gives it a new SOP Instance UID, PS3.3 C.12.1.1.1).
    const stored = { ...copy, sopInstanceUid: dicomParser.parseDicom(compressed).string('x00080018')! };
    const image = await png(`${await instanceUrl(stored)}/rendered`);
    const plain = await png(`${url}/rendered`);
    expect(maxDifference(image.data, plain.data)).toBeLessThanOrEqual(tolerance);
    // Asked again, its frame is read through the frame source (its pixel module remembered).
    const again = await png(`${await instanceUrl(stored)}/frames/1/rendered`);
    expect(Buffer.from(again.data).equals(Buffer.from(image.data))).toBe(true);
  });

  it('refuses what it cannot answer: 406, 400, 404', async () => {
    expect((await get(`${url}/rendered`, { accept: 'image/gif' })).statusCode).toBe(406);
    expect((await get(`${url}/rendered`, { accept: 'application/dicom' })).statusCode).toBe(406);
    for (const query of [
      'window=40',
      'window=40,0',
      'window=a,b',
      'window=40,400,cubic',
      'viewport=0,10',
      'viewport=10',
      'quality=0',
      'viewport=10,10,60,0,10,10',
    ]) {
      const res = await get(`${url}/rendered?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect((res.json() as { message: string }).message.length, query).toBeGreaterThan(10);
    }
    expect((await get(`${url}/frames/0/rendered`)).statusCode).toBe(400);
    expect((await get(`${url}/frames/1,2/rendered`)).statusCode).toBe(400);
    expect((await get(`${url}/frames/2/rendered`)).statusCode).toBe(404);
    const unknown = url.replace(ct.sopInstanceUid, '1.2.3.4.5');
    expect((await get(`${unknown}/rendered`)).statusCode).toBe(404);
    expect((await get(`/dicom-web/studies/1.2.3.4/rendered`)).statusCode).toBe(404);
  });

  it("gives another organization's caller 404 and no caller 401", async () => {
    const base = url.slice(0, url.indexOf('/series/'));
    for (const u of [`${url}/rendered`, `${url}/frames/1/thumbnail`, `${base}/rendered`, `${base}/thumbnail`]) {
      expect((await get(u, { token: outsider })).statusCode, u).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: u })).statusCode, u).toBe(401);
    }
  });
});

describe('rendered colour and multi-frame', () => {
  it('renders frame n of an RGB clip as its samples, exactly in PNG', async () => {
    const us = generateStudy({ modality: 'US', rows: 24, columns: 32, frames: 3, usPhotometric: 'RGB' }).instances[0]!;
    await stow(us.bytes);
    const url = await instanceUrl(us);
    const raw = await get(`${url}/frames/2`);
    const [frame] = parseMultipart(raw.rawPayload, boundaryOf(raw.headers['content-type'] as string)!);
    const image = await png(`${url}/frames/2/rendered`);
    expect([image.width, image.height, image.components]).toEqual([32, 24, 3]);
    expect(Buffer.from(image.data).equals(frame!.body)).toBe(true);
    // The instance rendered is its first frame.
    const first = await png(`${url}/rendered`);
    const frame1 = await png(`${url}/frames/1/rendered`);
    expect(Buffer.from(first.data).equals(Buffer.from(frame1.data))).toBe(true);
    expect(Buffer.from(first.data).equals(Buffer.from(image.data))).toBe(false);
    expect((await get(`${url}/frames/4/rendered`)).statusCode).toBe(404);
    // In colour JPEG too, close to the samples.
    const jpeg = await get(`${url}/frames/2/rendered?quality=95`);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    const decoded = await decodeJpeg(jpeg.rawPayload);
    expect([decoded.width, decoded.height]).toEqual([32, 24]);
    expect(meanDifference(decoded.data, image.data)).toBeLessThan(4);
  });

  it('renders a colour JPEG baseline instance (YBR_FULL_422 in the stream) as RGB close to its source', async () => {
    const us = generateStudy({ modality: 'US', rows: 48, columns: 64, frames: 2, usPhotometric: 'RGB' }).instances[0]!;
    await stow(us.bytes);
    const lossy = await dcmtkCopy('dcmcjpeg', ['+eb', '+q', '95'], us.bytes);
    expect(dicomParser.parseDicom(lossy, { untilTag: 'x00020010' }).string('x00020010')).toBe('1.2.840.10008.1.2.4.50');
    await stow(lossy);
    const stored = { ...us, sopInstanceUid: dicomParser.parseDicom(lossy).string('x00080018')! };
    const image = await png(`${await instanceUrl(stored)}/frames/2/rendered`);
    const source = await png(`${await instanceUrl(us)}/frames/2/rendered`);
    expect([image.width, image.height, image.components]).toEqual([64, 48, 3]);
    expect(meanDifference(image.data, source.data)).toBeLessThan(4);
  });

  it('answers 406 for an instance without pixel data (an SR)', async () => {
    const sr = generateSr({
      studyInstanceUid: generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8 }).studyInstanceUid,
    });
    await stow(sr.bytes);
    const res = await get(`${await instanceUrl(sr)}/rendered`);
    expect(res.statusCode).toBe(406);
    expect((res.json() as { message: string }).message).toContain('no pixel data');
  });
});

describe('rendered images for a caller who sees the patient masked, and their audit', () => {
  it('are served as the frames are (pixels, not the private fields), and audited as a read', async () => {
    const hospital = await makeMaskingHospital(t, ['doctor']);
    const study = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 });
    await t.services.archive.ingest(hospital.org.bucketId, study.instances[0]!.bytes, 'web');
    const i = study.instances[0]!;
    const token = hospital.doctor.token;
    const search = await get(`/dicom-web/instances?SOPInstanceUID=${i.sopInstanceUid}`, { token });
    const studyUid = (search.json() as Record<string, { Value: string[] }>[])[0]!['0020000D']!.Value[0]!;
    const url = `/dicom-web/studies/${studyUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;
    // The stored file carries the private fields: refused to this caller; its frames are not.
    expect((await get(url, { token })).statusCode).toBe(403);
    expect((await get(`${url}/frames/1`, { token })).statusCode).toBe(200);
    const before = await t.db.database.db.select({ id: auditLogs.id }).from(auditLogs);
    const last = Math.max(0, ...before.map((r) => r.id));
    const res = await get(`${url}/rendered`, { token, accept: 'image/png' });
    expect(res.statusCode).toBe(200);
    expect(readPng(res.rawPayload).width).toBe(16);
    // That read fell in the audit window the frames opened (no row); the first read of another
    // study, a thumbnail, writes the one row of its window, naming the read as rendered.
    const other = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 });
    await t.services.archive.ingest(hospital.org.bucketId, other.instances[0]!.bytes, 'web');
    const o = other.instances[0]!;
    const found = await get(`/dicom-web/instances?SOPInstanceUID=${o.sopInstanceUid}`, { token });
    const otherUid = (found.json() as Record<string, { Value: string[] }>[])[0]!['0020000D']!.Value[0]!;
    expect((await get(`/dicom-web/studies/${otherUid}/thumbnail`, { token })).statusCode).toBe(200);
    const written = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.action, 'dicomweb.read'),
          eq(auditLogs.actorId, hospital.doctor.accountId),
          gt(auditLogs.id, last),
        ),
      );
    expect(written.map((r) => (r.details as { studyUid: string; first: { kind: string } }).first.kind)).toEqual([
      'rendered',
    ]);
    expect((written[0]!.details as { studyUid: string }).studyUid).toBe(otherUid);
  });
});
