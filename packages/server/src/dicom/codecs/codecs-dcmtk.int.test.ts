/**
 * The codecs against files compressed by other implementations: DCMTK (dcmcjpeg, dcmcjpls,
 * dcmcrle) and GDCM (gdcmconv --j2k) make compressed copies of generated instances; each frame is
 * decoded here and compared with the uncompressed source (exactly for lossless syntaxes). Instances
 * transcoded here are checked by DCMTK (dcmdjpls/dcmdjpeg/dcmdrle decompress them, dcmftest, dcmdump).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCtInstance, generateStudy } from '../testdata/generate.js';
import { generateSr } from '../testdata/objects.js';
import { decodeFrame, pixelFrames, transcodeInstance, TS, type DecodedFrame } from './index.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'yyp-codecs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every frame of a file decoded. */
async function decodeAll(file: Uint8Array): Promise<DecodedFrame[]> {
  const f = pixelFrames(file);
  const out: DecodedFrame[] = [];
  for (let n = 0; n < f.frames; n++) out.push(await decodeFrame(f.frame(n), f.frameSyntax, f.pixel));
  return out;
}

/** The file a command line tool writes from `source`: tool args… in out. */
async function converted(source: Buffer, name: string, tool: string, args: string[]): Promise<Buffer> {
  const input = path.join(dir, `${name}-in.dcm`);
  const output = path.join(dir, `${name}-out.dcm`);
  await writeFile(input, source);
  await run(tool, [...args, input, output]);
  return readFile(output);
}

function maxDifference(a: DecodedFrame, b: DecodedFrame): number {
  expect(a.pixels.length).toBe(b.pixels.length);
  let max = 0;
  for (let i = 0; i < a.pixels.length; i++) max = Math.max(max, Math.abs(a.pixels[i]! - b.pixels[i]!));
  return max;
}

const ct = generateCtInstance({ rows: 256, columns: 256 }).bytes;
const usRgb = generateStudy({ modality: 'US', usPhotometric: 'RGB', rows: 120, columns: 160, frames: 3 }).instances[0]!
  .bytes;
const usGrey = generateStudy({ modality: 'US', rows: 120, columns: 160, frames: 2 }).instances[0]!.bytes;

describe('decoding files compressed by DCMTK and GDCM', () => {
  const lossless: [string, string, string[], string][] = [
    ['JPEG lossless SV1', 'dcmcjpeg', [], TS.jpegLosslessSV1],
    ['JPEG lossless SV6', 'dcmcjpeg', ['+el', '+sv', '6'], TS.jpegLossless],
    ['JPEG-LS lossless', 'dcmcjpls', [], TS.jpegLsLossless],
    ['RLE', 'dcmcrle', [], TS.rle],
    ['JPEG 2000 lossless', 'gdcmconv', ['--j2k'], TS.j2kLossless],
  ];
  for (const [name, tool, args, ts] of lossless) {
    it(`${name}: 16-bit CT, 8-bit RGB and grey multi-frame, exactly`, async () => {
      for (const [kind, source] of [
        ['ct', ct],
        ['rgb', usRgb],
        ['grey', usGrey],
      ] as const) {
        const compressed = await converted(source, `${tool}-${args.join('')}-${kind}`, tool, args);
        expect(pixelFrames(compressed).transferSyntaxUid).toBe(ts);
        const expected = await decodeAll(source);
        const got = await decodeAll(compressed);
        expect(got.length).toBe(expected.length);
        got.forEach((frame, i) => {
          expect(maxDifference(frame, expected[i]!), `${kind} frame ${i + 1}`).toBe(0);
          expect(frame.photometricInterpretation).toBe(expected[i]!.photometricInterpretation);
        });
      }
    });
  }

  it('JPEG baseline (8-bit) and JPEG-LS near-lossless within their tolerance; colour comes back RGB', async () => {
    for (const [kind, source] of [
      ['rgb', usRgb],
      ['grey', usGrey],
    ] as const) {
      const baseline = await converted(source, `baseline-${kind}`, 'dcmcjpeg', ['+eb']);
      expect(pixelFrames(baseline).transferSyntaxUid).toBe(TS.jpegBaseline);
      const expected = await decodeAll(source);
      const got = await decodeAll(baseline);
      got.forEach((frame, i) => {
        expect(frame.photometricInterpretation).toBe(kind === 'rgb' ? 'RGB' : 'MONOCHROME2');
        expect(meanDifference(frame, expected[i]!)).toBeLessThan(6);
      });
    }
    const near = await converted(ct, 'near-ct', 'dcmcjpls', ['+en', '+md', '3']);
    expect(pixelFrames(near).transferSyntaxUid).toBe(TS.jpegLsNearLossless);
    const [frame] = await decodeAll(near);
    expect(maxDifference(frame!, (await decodeAll(ct))[0]!)).toBeLessThanOrEqual(3);
  });

  it('JPEG 2000 lossy within its tolerance', async () => {
    const lossy = await converted(ct, 'j2k-lossy', 'gdcmconv', ['--j2k', '--lossy', '-r', '10']);
    expect(pixelFrames(lossy).transferSyntaxUid).toBe(TS.j2k);
    const [frame] = await decodeAll(lossy);
    expect(meanDifference(frame!, (await decodeAll(ct))[0]!)).toBeLessThan(20);
  });
});

function meanDifference(a: DecodedFrame, b: DecodedFrame): number {
  let sum = 0;
  for (let i = 0; i < a.pixels.length; i++) sum += Math.abs(a.pixels[i]! - b.pixels[i]!);
  return sum / a.pixels.length;
}

describe('instances transcoded here, read by DCMTK and GDCM', () => {
  for (const [name, ts, decompressor, args] of [
    ['JPEG-LS lossless', TS.jpegLsLossless, 'dcmdjpls', []],
    ['RLE', TS.rle, 'dcmdrle', []],
    ['JPEG 2000 lossless', TS.j2kLossless, 'gdcmconv', ['--raw']],
  ] as const) {
    it(`${name}: ${decompressor} decompresses it to the source pixels`, async () => {
      for (const [kind, source] of [
        ['ct', ct],
        ['rgb', usRgb],
      ] as const) {
        const transcoded = await transcodeInstance(source, ts);
        const file = path.join(dir, `ours-${ts}-${kind}.dcm`);
        await writeFile(file, transcoded);
        await run('dcmftest', [file]);
        const { stdout } = await run('dcmdump', ['-M', file]);
        expect(stdout).toContain(`(0002,0010) UI =${tsName(ts)}`);
        const back = await converted(Buffer.from(transcoded), `back-${ts}-${kind}`, decompressor, [...args]);
        const expected = await decodeAll(source);
        const got = await decodeAll(back);
        got.forEach((frame, i) => expect(maxDifference(frame, expected[i]!)).toBe(0));
      }
    });
  }

  it('a compressed instance transcoded to explicit VR little endian has the source pixels, RGB interleaved', async () => {
    const compressed = await converted(usRgb, 'to-native', 'dcmcjpls', []);
    const native = await transcodeInstance(compressed, TS.explicitLittle);
    const file = path.join(dir, 'native.dcm');
    await writeFile(file, native);
    await run('dcmftest', [file]);
    const { stdout } = await run('dcmdump', ['-M', '+L', file]);
    expect(stdout).toContain('(0002,0010) UI =LittleEndianExplicit');
    expect(stdout).toMatch(/\(0028,0004\) CS \[RGB\]/);
    expect(stdout).toMatch(/\(0028,0006\) US 0/);
    expect(stdout).toMatch(/\(7fe0,0010\) OB/);
    const expected = await decodeAll(usRgb);
    const got = await decodeAll(native);
    got.forEach((frame, i) => expect(maxDifference(frame, expected[i]!)).toBe(0));
  });

  it('JPEG baseline output is marked lossy and readable by dcmdjpeg', async () => {
    const transcoded = await transcodeInstance(usGrey, TS.jpegBaseline);
    const file = path.join(dir, 'baseline-ours.dcm');
    await writeFile(file, transcoded);
    const { stdout } = await run('dcmdump', ['-M', file]);
    expect(stdout).toMatch(/\(0028,2110\) CS \[01\]/);
    expect(stdout).toMatch(/\(0028,2114\) CS \[ISO_10918_1\]/);
    const back = await converted(Buffer.from(transcoded), 'baseline-back', 'dcmdjpeg', []);
    const expected = await decodeAll(usGrey);
    (await decodeAll(back)).forEach((frame, i) => expect(meanDifference(frame, expected[i]!)).toBeLessThan(6));
  });
});

describe('data sets rewritten from each stored byte order', () => {
  it('big endian and implicit VR sources give the same elements in explicit VR little endian', async () => {
    const big = await converted(ct, 'to-big', 'dcmconv', ['+tb']);
    expect(pixelFrames(big).transferSyntaxUid).toBe(TS.explicitBig);
    const implicit = generateCtInstance({ rows: 64, columns: 64, transferSyntax: TS.implicitLittle });
    for (const [kind, file, reference] of [
      ['big', big, ct],
      ['implicit', implicit.bytes, implicit.bytes],
    ] as const) {
      for (const target of [TS.explicitLittle, TS.jpegLsLossless]) {
        const out = path.join(dir, `rewritten-${kind}-${target}.dcm`);
        await writeFile(out, await transcodeInstance(file, target));
        await run('dcmftest', [out]);
        // The same attributes as DCMTK reads the source, apart from the syntax and the pixel data.
        const dump = async (f: string) =>
          (await run('dcmdump', ['-q', f])).stdout
            .split('\n')
            .filter((l) => !/^\s*\((0002|7fe0|fffe|0028,2110)/.test(l) && l.trim() !== '')
            .map((l) => l.replace(/#.*$/, '').trimEnd());
        const sourceFile = path.join(dir, `rewritten-${kind}-source.dcm`);
        await writeFile(sourceFile, reference);
        expect(await dump(out), `${kind} → ${target}`).toEqual(await dump(sourceFile));
        const expected = await decodeAll(reference);
        const got = await decodeAll(await readFile(out));
        expect(maxDifference(got[0]!, expected[0]!)).toBe(0);
      }
    }
  });
});

describe('an instance without pixel data', () => {
  it('is written in explicit VR little endian under the syntax asked for, its content unchanged', async () => {
    const sr = generateSr({ studyInstanceUid: '1.2.826.0.1.3680043.10.1187.99.1', transferSyntax: TS.implicitLittle });
    const out = path.join(dir, 'sr-jls.dcm');
    await writeFile(out, await transcodeInstance(sr.bytes, TS.jpegLsLossless));
    await run('dcmftest', [out]);
    const source = path.join(dir, 'sr-source.dcm');
    await writeFile(source, sr.bytes);
    const dump = async (f: string) =>
      (await run('dcmdump', ['-q', f])).stdout.split('\n').filter((l) => !/^(\((0002|fffe)|#)/.test(l));
    expect((await run('dcmdump', ['-M', out])).stdout).toContain('(0002,0010) UI =JPEGLSLossless');
    expect(await dump(out)).toEqual(await dump(source));
  });
});

function tsName(ts: string): string {
  return ts === TS.jpegLsLossless
    ? 'JPEGLSLossless'
    : ts === TS.rle
      ? 'RLELossless'
      : ts === TS.j2kLossless
        ? 'JPEG2000LosslessOnly'
        : ts;
}
