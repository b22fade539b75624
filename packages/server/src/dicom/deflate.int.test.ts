import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances } from '../db/schema.js';
import { startDimseWithModality } from '../test/factories-archive.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { DEFLATED_EXPLICIT_LE, MAX_INFLATED_BYTES } from './deflate.js';
import { part10Dataset, toPart10 } from './part10.js';
import { generateStudy, writeStudy } from './testdata/generate.js';

/** Deflated Explicit VR Little Endian accepted (issue 28 item 5), by C-STORE and as a file. */
const run = promisify(execFile);
let t: TestApp;
let dimse: { close(): void; port: number };
let bucketId: string;
let dir: string;
const AE = 'CT_DEFLATE';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ dimse, bucketId } = await startDimseWithModality(t, AE));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-deflate-'));
});
afterAll(async () => {
  dimse.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rowsOf = (studyUid: string) =>
  t.db.database.db
    .select({ ts: instances.transferSyntaxUid, blobKey: instances.blobKey, sop: instances.sopInstanceUid })
    .from(instances)
    .innerJoin(exams, eq(exams.id, instances.examId))
    .where(and(eq(exams.bucketId, bucketId), eq(exams.storeUid, studyUid)));

describe('deflated explicit VR little endian', () => {
  it('is accepted by C-STORE (storescu -xd) and stored inflated, the data set unchanged', async () => {
    const study = generateStudy({ modality: 'CT', instancesPerSeries: 2, rows: 32, columns: 32 });
    const files = await writeStudy(path.join(dir, 'dimse'), study);
    const deflated = await Promise.all(
      files.map(async (f, i) => {
        const out = path.join(dir, `deflated-${i}.dcm`);
        await run('dcmconv', ['+td', f, out]);
        return out;
      }),
    );
    expect(part10Dataset(fs.readFileSync(deflated[0]!)).transferSyntaxUid).toBe(DEFLATED_EXPLICIT_LE);
    // Proposed deflated only, so the association can carry nothing else.
    const { stdout, stderr } = await run('storescu', [
      '-v',
      '-xd',
      '-R',
      '-aet',
      AE,
      '-aec',
      'YYP',
      '127.0.0.1',
      String(dimse.port),
      ...deflated,
    ]);
    expect(stdout + stderr).toMatch(/Deflated Explicit VR Little Endian/);
    const rows = await rowsOf(study.studyInstanceUid);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.ts).toBe('1.2.840.10008.1.2.1');
      const stored = part10Dataset(Buffer.from(await t.blobs.get(row.blobKey)));
      const original = study.instances.find((i) => i.sopInstanceUid === row.sop)!;
      expect(stored.dataset.equals(part10Dataset(original.bytes).dataset)).toBe(true);
    }
  });

  it('is accepted as a file (STOW-RS, uploads: the one ingest), and a deflate bomb is refused leaving nothing', async () => {
    const study = generateStudy({ modality: 'DX', rows: 32, columns: 32 });
    const original = part10Dataset(study.instances[0]!.bytes);
    const file = toPart10(zlib.deflateRawSync(original.dataset), {
      ...original,
      transferSyntaxUid: DEFLATED_EXPLICIT_LE,
    });
    await t.services.archive.ingest(bucketId, file, 'stow');
    expect((await rowsOf(study.studyInstanceUid)).map((r) => r.ts)).toEqual(['1.2.840.10008.1.2.1']);
    const bomb = generateStudy({ modality: 'DX', rows: 32, columns: 32 });
    const head = part10Dataset(bomb.instances[0]!.bytes);
    const huge = zlib.deflateRawSync(Buffer.concat([head.dataset, Buffer.alloc(MAX_INFLATED_BYTES)]), { level: 1 });
    const bombFile = toPart10(huge, { ...head, transferSyntaxUid: DEFLATED_EXPLICIT_LE });
    await expect(t.services.archive.ingest(bucketId, bombFile, 'stow')).rejects.toMatchObject({ reason: 'malformed' });
    const corrupt = toPart10(Buffer.from('not deflate at all'), { ...head, transferSyntaxUid: DEFLATED_EXPLICIT_LE });
    await expect(t.services.archive.ingest(bucketId, corrupt, 'stow')).rejects.toMatchObject({ reason: 'malformed' });
    expect(await rowsOf(bomb.studyInstanceUid)).toHaveLength(0);
  });
});
