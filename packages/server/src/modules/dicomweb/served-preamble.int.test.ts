import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from '../../dicom/multipart.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { makeCachedPackage } from '../../test/factories.js';
import { makeStaffed } from '../../test/factories-archive.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { indexStoredInstance } from '../archive/index.js';

/**
 * Issue 19 §4, "no served DICOM file starts with MZ": instances stored before the ingest zeroed
 * preambles keep theirs on disk; every route that serves stored files zeroes it on the way out.
 */
let t: TestApp;
let study: GeneratedStudy;
let examId: string;
let bucketId: string;
let doctor: string;
/** the files as they were sent: a DOS executable header in the preamble */
const sent = new Map<string, Buffer>();

function polyglot(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  out.fill(0x90, 0, 128);
  out.write('MZ', 0, 'latin1');
  return out;
}

/** The bytes a client must receive: the file with 128 zero bytes before "DICM". */
const served = (bytes: Buffer) => Buffer.concat([Buffer.alloc(128), bytes.subarray(128)]);

function expectServed(body: Buffer): void {
  expect(body.subarray(0, 132).equals(Buffer.concat([Buffer.alloc(128), Buffer.from('DICM')]))).toBe(true);
  const original = [...sent.values()].find(
    (b) => b.length === body.length && b.subarray(128).equals(body.subarray(128)),
  );
  expect(original && body.equals(served(original))).toBe(true);
}

/** The zip's entries under DICOM/ (the instances of a DICOM media package; not its DICOMDIR or index page). */
async function unzip(zip: Buffer): Promise<Buffer[]> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
  const out: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) =>
      file.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (entry.fileName.includes('/DICOM/')) out.push(Buffer.concat(chunks));
          file.readEntry();
        });
      }),
    );
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return out;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const rad = await makeStaffed(t, ['doctor']);
  bucketId = rad.org.bucketId;
  study = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 2,
    rows: 16,
    columns: 16,
  });
  const deps = { db: t.db.database.db, blobs: t.blobs, clock: t.clock };
  // Stored as an older version did: the preamble as sent, then indexed as `yyp reindex` does.
  for (const i of study.instances) {
    const bytes = polyglot(i.bytes);
    const blobKey = `dicom/${bucketId}/${study.studyInstanceUid}/${i.seriesInstanceUid}/${i.sopInstanceUid}.old.dcm`;
    await t.blobs.put(blobKey, bytes);
    examId = (await indexStoredInstance(deps, { bucketId, blobKey, bytes })).examId;
    sent.set(i.sopInstanceUid, bytes);
    expect((await t.blobs.get(blobKey)).subarray(0, 2).toString('latin1')).toBe('MZ');
  }
  doctor = rad.doctor.token;
});
afterAll(async () => {
  await t.close();
});

describe('stored files with an executable preamble are served without it', () => {
  it('WADO-RS: an instance, a series and a study', async () => {
    const get = (url: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${doctor}` },
      });
    const i = study.instances[0]!;
    const base = `/dicom-web/studies/${study.studyInstanceUid}`;
    for (const [url, count] of [
      [`${base}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`, 1],
      [`${base}/series/${i.seriesInstanceUid}`, 2],
      [base, 4],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const parts = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
      expect(parts).toHaveLength(count);
      for (const part of parts) {
        expect(Number(part.headers['content-length'])).toBe(part.body.length);
        expectServed(part.body);
      }
    }
  });

  it('the study package, including one cached before packing zeroed preambles', async () => {
    // A package of the previous version (v2) holds the files as stored: it is built again.
    const stale = `packages/${bucketId}/${examId}.v2.zip`;
    await t.blobs.put(stale, Buffer.from('PK\x05\x06'.padEnd(22, '\0'), 'latin1'));
    await makeCachedPackage(t, examId, {
      blobKey: stale,
      size: 22,
      builtAt: new Date(t.clock.now().getTime() + 60_000),
    });
    const res = await t.call('GET', `exams/${examId}/study-package`, {
      token: doctor,
    });
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    expect(files).toHaveLength(4);
    for (const f of files) expectServed(f);
    expect(await t.blobs.size(stale)).toBeNull();
  });
});
