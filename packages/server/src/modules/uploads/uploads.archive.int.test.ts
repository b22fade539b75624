import fs from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { badCrcZip, craftZip, member, nestedHeaderZip, sharedMemberZip } from '../../dicom/testdata/zip-craft.js';
import type { TestApp } from '../../test/harness.js';
import { uploadClient } from '../../test/tus-client.js';
import { startUploadApp } from './uploads.fixture.js';

/** Issue 19 item 2 through the upload wizard's path: hostile archives are refused and leave nothing. */
let t: TestApp;
let base: string;
let radId: string;
const { send, post } = uploadClient(() => base);

beforeAll(async () => {
  // A radiology and its technician, signed in by the case as 'tech'.
  const { rad, ...app } = await startUploadApp();
  ({ t, base } = app);
  radId = rad.bucketId;
});
afterAll(async () => {
  await t.close();
});

/** Every file under a folder, relative to it. */
function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

describe('hostile archives in the upload wizard', () => {
  it('refuses overlapping archives whole, and a CRC mismatch entry alone, storing nothing of them', async () => {
    const tech = await t.login('tech');
    const token = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
    const good = generateStudy({ modality: 'DX', rows: 16, columns: 16, patientId: 'ZIP-GOOD' });
    const bad = generateStudy({ modality: 'DX', rows: 16, columns: 16, patientId: 'ZIP-BAD' });
    const shared = generateStudy({ modality: 'DX', rows: 16, columns: 16, patientId: 'ZIP-SHARED' });
    // The overlapping archive's one member is a real instance: nothing of it may be stored either.
    const overlapping = sharedMemberZip(2000);
    const sharedDicom = craftZip([member('IM1', Buffer.from(shared.instances[0]!.bytes))]);
    const mismatch = badCrcZip('IM0', Buffer.from(bad.instances[0]!.bytes));
    const goodZip = craftZip([member('IM0', Buffer.from(good.instances[0]!.bytes))]);

    const started = performance.now();
    await send(token, overlapping, 'overlap.zip');
    const overlapMs = performance.now() - started;
    await send(token, nestedHeaderZip(), 'nested-header.zip');
    await send(token, mismatch, 'crc.zip');
    await send(token, goodZip, 'good.zip');
    // The same bytes as a well-formed archive are stored: the refusals above are about the archive.
    await send(token, sharedDicom, 'shared.zip');
    const done = (await post('exams/post-upload', { sessionToken: token })).json;
    expect(done).toMatchObject({ stored: 2, duplicates: 0 });
    expect(done.skipped).toEqual([
      { name: 'overlap.zip', reason: 'zipBomb' },
      { name: 'nested-header.zip', reason: 'zipBomb' },
      { name: 'crc.zip/IM0', reason: 'archiveDamaged' },
    ]);
    // 16 GiB if inflated; refused from the directory alone (the upload itself included).
    expect(overlapMs).toBeLessThan(3000);

    const db = t.db.database.db;
    const uids = [good, bad, shared].map((s) => s.studyInstanceUid);
    const stored = await db.select().from(exams).where(inArray(exams.storeUid, uids));
    expect(stored.map((e) => e.storeUid).sort()).toEqual([good.studyInstanceUid, shared.studyInstanceUid].sort());
    expect(files(t.blobDir).filter((f) => f.includes(bad.studyInstanceUid))).toEqual([]);
    // No upload, inflated entry or partial file is left in the upload folder.
    expect(files(path.join(t.blobDir, 'uploads'))).toEqual([]);
  });
});
