/**
 * Transcoding on Accept (issue 28 item 7): compressed instances (made by DCMTK) ingested, then
 * retrieved as instances and frames in the transfer syntax a request asks for; the pixels compared
 * with the uncompressed source, the media types and transfer-syntax parameters of the parts, and
 * 406 for a syntax that cannot be produced. The transcoded instance is checked by dcmftest/dcmdump.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFrame, pixelFrames, TS, type DecodedFrame } from '../../dicom/codecs/index.js';
import { boundaryOf, parseMultipart, type Part } from '../../dicom/multipart.js';
import { generateStudy, type GeneratedInstance } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';

const run = promisify(execFile);
let t: TestApp;
let doctor: string;
let dir: string;

const ct = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 64, columns: 48, patientId: 'TC-CT' });
const us = generateStudy({
  modality: 'US',
  usPhotometric: 'RGB',
  rows: 24,
  columns: 32,
  frames: 3,
  patientId: 'TC-US',
});
const source = { ct: ct.instances[0]!, us: us.instances[0]! };
/** The stored (compressed) copies. */
const stored: Record<'ctJls' | 'usRle', Buffer> = {} as never;

async function compress(i: GeneratedInstance, tool: string, args: string[]): Promise<Buffer> {
  const input = path.join(dir, `${tool}-${i.sopInstanceUid}-in.dcm`);
  const output = path.join(dir, `${tool}-${i.sopInstanceUid}-out.dcm`);
  await writeFile(input, i.bytes);
  await run(tool, [...args, input, output]);
  return readFile(output);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'yyp-transcoding-'));
  const world = await startArchiveApp();
  t = world.t;
  doctor = world.rad.doctor.token;
  stored.ctJls = await compress(source.ct, 'dcmcjpls', []);
  stored.usRle = await compress(source.us, 'dcmcrle', []);
  for (const bytes of [stored.ctJls, stored.usRle]) {
    await t.services.archive.ingest(world.rad.org.bucketId, bytes, 'web');
  }
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const instanceUrl = (s: typeof ct, i: GeneratedInstance) =>
  `/dicom-web/studies/${s.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;

const get = (url: string, accept?: string) =>
  t.call('GET', url, { token: doctor, headers: accept === undefined ? {} : { accept } });

function parts(res: { statusCode: number; rawPayload: Buffer; headers: Record<string, unknown> }): Part[] {
  expect(res.statusCode, res.rawPayload.toString().slice(0, 300)).toBe(200);
  return parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
}

async function decodeAll(file: Uint8Array): Promise<DecodedFrame[]> {
  const f = pixelFrames(file);
  const out: DecodedFrame[] = [];
  for (let n = 0; n < f.frames; n++) out.push(await decodeFrame(f.frame(n), f.frameSyntax, f.pixel));
  return out;
}

function samePixels(a: DecodedFrame, b: DecodedFrame): boolean {
  return a.pixels.length === b.pixels.length && a.pixels.every((v, i) => v === b.pixels[i]);
}

describe('WADO-RS instances with a transfer-syntax', () => {
  it('answers explicit VR little endian with the source pixels, a file DCMTK reads', async () => {
    for (const [s, i] of [
      [ct, source.ct],
      [us, source.us],
    ] as const) {
      const res = await get(
        instanceUrl(s, i),
        'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1',
      );
      expect(res.headers['content-type']).toContain('transfer-syntax=1.2.840.10008.1.2.1');
      const [part] = parts(res);
      expect(Number(part!.headers['content-length'])).toBe(part!.body.length);
      const file = part!.body;
      expect(pixelFrames(file).transferSyntaxUid).toBe(TS.explicitLittle);
      const expected = await decodeAll(i.bytes);
      const got = await decodeAll(file);
      expect(got.map((f, k) => samePixels(f, expected[k]!))).toEqual(expected.map(() => true));
      const written = path.join(dir, `served-${i.sopInstanceUid}.dcm`);
      await writeFile(written, file);
      await run('dcmftest', [written]);
      const { stdout } = await run('dcmdump', ['-M', written]);
      expect(stdout).toContain('(0002,0010) UI =LittleEndianExplicit');
      expect(stdout).toContain(`(0008,0018) UI [${i.sopInstanceUid}]`);
    }
  });

  it('answers as stored for transfer-syntax=* and no Accept, and another compressed syntax when asked', async () => {
    for (const accept of [undefined, 'multipart/related; type="application/dicom"; transfer-syntax=*']) {
      const res = await get(instanceUrl(ct, source.ct), accept);
      expect(res.headers['content-type']).toContain('transfer-syntax=*');
      expect(parts(res)[0]!.body.equals(Buffer.from(stored.ctJls.subarray(0)).fill(0, 0, 128))).toBe(true);
    }
    const rle = parts(
      await get(
        instanceUrl(ct, source.ct),
        'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.5',
      ),
    );
    expect(pixelFrames(rle[0]!.body).transferSyntaxUid).toBe(TS.rle);
    expect(samePixels((await decodeAll(rle[0]!.body))[0]!, (await decodeAll(source.ct.bytes))[0]!)).toBe(true);
    // A whole study, each instance transcoded.
    const study = parts(
      await get(
        `/dicom-web/studies/${us.studyInstanceUid}`,
        'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.4.80',
      ),
    );
    expect(study).toHaveLength(1);
    expect(pixelFrames(study[0]!.body).transferSyntaxUid).toBe(TS.jpegLsLossless);
  });

  it('answers 406 for a syntax it cannot produce', async () => {
    for (const ts of ['1.2.840.10008.1.2.4.100', '1.2.840.10008.1.2.4.50', '1.2.840.10008.1.2.4.70']) {
      // MPEG2 is unknown; JPEG baseline holds no 16-bit CT; JPEG lossless has no encoder here.
      const res = await get(
        instanceUrl(ct, source.ct),
        `multipart/related; type="application/dicom"; transfer-syntax=${ts}`,
      );
      expect(res.statusCode, ts).toBe(406);
      expect(res.json()).toMatchObject({ code: 'NotAcceptable' });
    }
  });
});

describe('WADO-RS frames with a transfer-syntax or media type', () => {
  const framesUrl = (s: typeof ct, i: GeneratedInstance, list: string) => `${instanceUrl(s, i)}/frames/${list}`;

  it('labels stored frames with their real media type, or octet-stream as the viewer asks', async () => {
    const res = await get(framesUrl(ct, source.ct, '1'));
    expect(res.headers['content-type']).toMatch(
      /^multipart\/related; type="image\/jls"; transfer-syntax=1\.2\.840\.10008\.1\.2\.4\.80;/,
    );
    expect(parts(res)[0]!.headers['content-type']).toBe('image/jls; transfer-syntax=1.2.840.10008.1.2.4.80');
    const rle = parts(await get(framesUrl(us, source.us, '1'), 'multipart/related; type="image/dicom-rle"'));
    expect(rle[0]!.headers['content-type']).toBe('image/dicom-rle; transfer-syntax=1.2.840.10008.1.2.5');
    const viewer = parts(
      await get(framesUrl(ct, source.ct, '1'), 'multipart/related; type=application/octet-stream; transfer-syntax=*'),
    );
    expect(viewer[0]!.headers['content-type']).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.4.80');
  });

  it('decodes frames to explicit VR little endian with the source pixels', async () => {
    const answer = parts(
      await get(
        framesUrl(us, source.us, '3,1'),
        'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.1',
      ),
    );
    expect(answer.map((p) => p.headers['content-type'])).toEqual([
      'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1',
      'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1',
    ]);
    const src = pixelFrames(source.us.bytes);
    expect(answer[0]!.body.equals(Buffer.from(src.frame(2)))).toBe(true);
    expect(answer[1]!.body.equals(Buffer.from(src.frame(0)))).toBe(true);
    const ctFrame = parts(
      await get(
        framesUrl(ct, source.ct, '1'),
        'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.1',
      ),
    );
    expect(ctFrame[0]!.body.equals(Buffer.from(pixelFrames(source.ct.bytes).frame(0)))).toBe(true);
  });

  it('answers an image media type in its syntax: image/jp2 and image/jls transcoded, exactly', async () => {
    const p = pixelFrames(source.ct.bytes).pixel;
    const expected = (await decodeAll(source.ct.bytes))[0]!;
    for (const [type, ts] of [
      ['image/jp2', TS.j2kLossless],
      ['image/jphc', TS.htj2kLossless],
      ['image/dicom-rle', TS.rle],
    ] as const) {
      const res = await get(framesUrl(ct, source.ct, '1'), `multipart/related; type="${type}"`);
      const [part] = parts(res);
      expect(part!.headers['content-type']).toBe(`${type}; transfer-syntax=${ts}`);
      expect(samePixels(await decodeFrame(part!.body, ts, p), expected), type).toBe(true);
    }
    const jpeg = parts(
      await get(
        framesUrl(us, source.us, '2'),
        'multipart/related; type="image/jpeg"; transfer-syntax=1.2.840.10008.1.2.4.50',
      ),
    );
    expect(jpeg[0]!.headers['content-type']).toBe('image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.50');
    expect([jpeg[0]!.body[0], jpeg[0]!.body[1]]).toEqual([0xff, 0xd8]);
  });

  it('answers 406 when no range can be met, and 404 past the last frame', async () => {
    for (const accept of [
      'multipart/related; type="image/jpeg"', // JPEG lossless (its default) has no encoder; baseline holds no 16-bit
      'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.4.90',
      'multipart/related; type="image/jls"; transfer-syntax=1.2.840.10008.1.2.4.90',
      'image/png',
    ]) {
      const res = await get(framesUrl(ct, source.ct, '1'), accept);
      expect(res.statusCode, accept).toBe(406);
    }
    const past = await get(
      framesUrl(us, source.us, '4'),
      'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.1',
    );
    expect(past.statusCode).toBe(404);
  });
});

describe('WADO-RS bulk data of encapsulated Pixel Data', () => {
  it('answers the frames decoded, explicit VR little endian, in order', async () => {
    const [part] = parts(await get(`${instanceUrl(us, source.us)}/bulkdata/7FE00010`));
    const src = pixelFrames(source.us.bytes);
    const expected = Buffer.concat([0, 1, 2].map((n) => Buffer.from(src.frame(n))));
    expect(part!.body.equals(expected)).toBe(true);
    const [ctPart] = parts(await get(`${instanceUrl(ct, source.ct)}/bulkdata/7fe00010`));
    expect(ctPart!.body.equals(Buffer.from(pixelFrames(source.ct.bytes).frame(0)))).toBe(true);
    const compressed = await get(
      `${instanceUrl(ct, source.ct)}/bulkdata/7FE00010`,
      'multipart/related; type="application/octet-stream"; transfer-syntax=1.2.840.10008.1.2.4.80',
    );
    expect(compressed.statusCode).toBe(406);
  });
});
