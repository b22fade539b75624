import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../../db/schema.js';
import { writeLargeInstance, type LargeInstance } from '../../dicom/testdata/large.js';
import type { TestApp } from '../../test/harness.js';
import { uploadClient } from '../../test/tus-client.js';
import { startUploadApp } from './uploads.fixture.js';

/**
 * Issue 19 §2, "memory stays bounded whatever the entry size": a DICOM instance of hundreds of MB
 * sent through the upload wizard, inside a zip and as a single tus file, is stored without being
 * held in memory: byte for byte (its preamble zeroed), with the process's memory growing by less
 * than 64 MB while it is uploaded, unpacked and ingested.
 */
const MiB = 1024 * 1024;
/** 800 frames of 512×512 16-bit pixels: 400 MiB of pixel data. */
const FRAMES = 800;
let t: TestApp;
let base: string;
let radId: string;
const { post, sendFile: tusUpload } = uploadClient(() => base);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-large-'));

beforeAll(async () => {
  // A radiology and its technician, signed in by the cases as 'tech'.
  const { rad, ...app } = await startUploadApp();
  ({ t, base } = app);
  radId = rad.bucketId;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The peak growth of this process's resident memory while `run` runs. */
async function rssGrowth(run: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage().rss;
  const maxBefore = process.resourceUsage().maxRSS * 1024;
  let sampled = before;
  const sample = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
  try {
    await run();
  } finally {
    clearInterval(sample);
  }
  // The process's peak catches what sampling cannot see (a synchronous spike).
  const maxAfter = process.resourceUsage().maxRSS * 1024;
  return Math.max(sampled, process.memoryUsage().rss, maxAfter > maxBefore ? maxAfter : 0) - before;
}

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Uploads `file` in a session of its own and checks the one instance it holds was stored whole. */
async function uploadAndCheck(file: string, filename: string, instance: LargeInstance): Promise<number> {
  const tech = await t.login('tech');
  const session = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
  const growth = await rssGrowth(() => tusUpload(session, file, filename));
  const done = (await post('exams/post-upload', { sessionToken: session })).json;
  expect(done).toMatchObject({ stored: 1, duplicates: 0, skipped: [] });
  const [row] = await t.db.database.db
    .select()
    .from(instances)
    .where(eq(instances.sopInstanceUid, instance.sopInstanceUid));
  expect(row).toMatchObject({ size: instance.size, frames: FRAMES, rows: 512, columns: 512 });
  const stored = path.join(t.blobDir, row!.blobKey);
  expect(fs.statSync(stored).size).toBe(instance.size);
  expect(await sha256(stored)).toBe(instance.storedSha256);
  // Nothing of the upload or of the unpacked entry is left behind.
  expect(fs.readdirSync(path.join(t.blobDir, 'uploads'))).toEqual([]);
  return growth;
}

describe('a 400 MB instance through the upload wizard', () => {
  it('inside a zip: unpacked to disk and moved into the store, memory flat', { timeout: 240_000 }, async () => {
    const dcm = path.join(dir, 'zip-entry.dcm');
    const instance = await writeLargeInstance(dcm, { frames: FRAMES, patientId: 'LARGE-ZIP' });
    expect(instance.size).toBeGreaterThan(400 * MiB);
    // Stored, not deflated: zeros deflate past the archive's ratio limit, a bomb's signature.
    const zip = path.join(dir, 'study.zip');
    const z = new yazl.ZipFile();
    z.addReadStream(fs.createReadStream(dcm), 'CD/DICOM/IM000001', { compress: false, size: instance.size });
    z.end();
    await pipeline(z.outputStream, fs.createWriteStream(zip));
    fs.rmSync(dcm);
    const growth = await uploadAndCheck(zip, 'study.zip', instance);
    fs.rmSync(zip);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('as a single tus file: moved into the store, memory flat', { timeout: 240_000 }, async () => {
    const dcm = path.join(dir, 'single.dcm');
    const instance = await writeLargeInstance(dcm, { frames: FRAMES, patientId: 'LARGE-TUS' });
    const growth = await uploadAndCheck(dcm, 'clip.dcm', instance);
    fs.rmSync(dcm);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it('from disk as well: a duplicate stored once, a truncated one refused, nothing left behind', async () => {
    // 35 MiB each: over the size from which files are ingested from disk.
    const good = path.join(dir, 'good.dcm');
    const cut = path.join(dir, 'cut.dcm');
    const instance = await writeLargeInstance(good, { frames: 70, patientId: 'LARGE-DUP' });
    const truncated = await writeLargeInstance(cut, { frames: 70, patientId: 'LARGE-CUT' });
    fs.truncateSync(cut, truncated.size - 1000);
    const tech = await t.login('tech');
    const session = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
    await tusUpload(session, good, 'good.dcm');
    await tusUpload(session, good, 'again.dcm');
    await tusUpload(session, cut, 'cut.dcm');
    const done = (await post('exams/post-upload', { sessionToken: session })).json;
    expect(done).toMatchObject({ stored: 1, duplicates: 1, skipped: [{ name: 'cut.dcm', reason: 'truncated' }] });
    const stored = fs
      .readdirSync(path.join(t.blobDir, 'dicom'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.includes(instance.sopInstanceUid) || f.includes(truncated.sopInstanceUid));
    expect(stored).toHaveLength(1);
    expect(fs.readdirSync(path.join(t.blobDir, 'uploads'))).toEqual([]);
  });
});
