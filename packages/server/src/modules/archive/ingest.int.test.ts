import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances, series } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import type { BlobStore } from '../../platform/blobs.js';
import { makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ingestInstance, type IngestDeps, type IngestResult } from './ingest.js';
import { localKeys } from './reindex.js';

let t: TestApp;
let bucketId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  bucketId = (await makeOrganization(t)).bucketId;
});
afterAll(() => t.close());

function deps(overrides: Partial<IngestDeps> = {}): IngestDeps {
  return { db: t.db.database.db, blobs: t.blobs, clock: t.clock, ...overrides };
}

describe('ingest under concurrency (group commit)', () => {
  it('stores concurrent instances of two studies, with re-sends among them, exactly once each', async () => {
    const a = generateStudy({ modality: 'CT', series: 3, instancesPerSeries: 8, rows: 16, columns: 16 });
    const b = generateStudy({ modality: 'MR', series: 2, instancesPerSeries: 6, rows: 16, columns: 16 });
    const all = [...a.instances, ...b.instances];
    const resent = [...a.instances.slice(0, 4), ...b.instances.slice(0, 3)];
    const announced: string[] = [];
    const d = deps({ onNewExam: (examId) => announced.push(examId) });
    const results = await Promise.all(
      [...all, ...resent].map((i) => ingestInstance(d, { bucketId, bytes: i.bytes, source: 'stow' })),
    );

    // One stored copy per SOP Instance UID; every other arrival says "duplicate" and points at it.
    const bySop = new Map<string, IngestResult[]>();
    for (const r of results) bySop.set(r.sopInstanceUid, [...(bySop.get(r.sopInstanceUid) ?? []), r]);
    expect(bySop.size).toBe(all.length);
    for (const rs of bySop.values()) {
      expect(rs.filter((r) => !r.duplicate)).toHaveLength(1);
      expect(new Set(rs.map((r) => r.instanceId)).size).toBe(1);
    }
    // Each new exam announced once, by exactly one result.
    expect(results.filter((r) => r.newExam)).toHaveLength(2);
    expect(announced.sort()).toEqual([...new Set(results.map((r) => r.examId))].sort());

    const db = t.db.database.db;
    for (const [study, seriesCount, modality] of [
      [a, 3, 'CT'],
      [b, 2, 'MR'],
    ] as const) {
      const [exam] = await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
      const size = study.instances.reduce((s, i) => s + i.bytes.length, 0);
      expect(exam).toMatchObject({ instanceCount: study.instances.length, seriesCount, sizeBytes: size, modality });
      const rows = await db.select().from(instances).where(eq(instances.examId, exam!.id));
      expect(rows).toHaveLength(study.instances.length);
      const perSeries = await db.select().from(series).where(eq(series.examId, exam!.id));
      expect(perSeries.map((s) => s.instanceCount).sort()).toEqual(
        Array.from({ length: seriesCount }, () => study.instances.length / seriesCount),
      );
      // The bytes kept are the bytes sent; the re-sent copies left no blob behind.
      for (const row of rows) {
        const sent = study.instances.find((i) => i.sopInstanceUid === row.sopInstanceUid)!;
        expect(Buffer.compare(await t.blobs.get(row.blobKey), Buffer.from(sent.bytes))).toBe(0);
      }
    }
    const stored = await db.select({ key: instances.blobKey }).from(instances);
    const files: string[] = [];
    for await (const key of localKeys(t.blobDir, 'dicom')) files.push(key);
    expect(files.sort()).toEqual(stored.map((s) => s.key).sort());
  });

  it('keeps the counters exact when re-sends and new series of a stored exam arrive later', async () => {
    const study = generateStudy({ modality: 'MR', series: 3, instancesPerSeries: 4, rows: 16, columns: 16 });
    const [s1, s2, s3] = [0, 1, 2].map((k) => study.instances.slice(k * 4, k * 4 + 4));
    const one = (i: { bytes: Uint8Array }) => ingestInstance(deps(), { bucketId, bytes: i.bytes, source: 'dimse' });
    for (const i of s1!) await one(i);
    // Together: two re-sends of the stored series, and two series new to the stored exam.
    const mixed = await Promise.all([s1![0]!, s1![3]!, ...s2!, ...s3!].map(one));
    expect(mixed.map((r) => r.duplicate)).toEqual([true, true, false, false, false, false, false, false, false, false]);
    // A re-send alone, in a batch of its own.
    expect((await one(s2![1]!)).duplicate).toBe(true);

    const db = t.db.database.db;
    const [exam] = await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    const size = study.instances.reduce((sum, i) => sum + i.bytes.length, 0);
    expect(exam).toMatchObject({ instanceCount: 12, seriesCount: 3, sizeBytes: size, modality: 'MR' });
    const perSeries = await db.select().from(series).where(eq(series.examId, exam!.id));
    expect(perSeries.map((x) => x.instanceCount)).toEqual([4, 4, 4]);
  });

  it('a blob that cannot be written fails only its own instance; nothing of it is stored', async () => {
    const study = generateStudy({ modality: 'CT', series: 1, instancesPerSeries: 6, rows: 16, columns: 16 });
    const victim = study.instances[2]!.sopInstanceUid;
    const failing: BlobStore = Object.create(t.blobs) as BlobStore;
    failing.putNew = async (key, data) => {
      if (key.includes(victim)) throw new Error('disk full');
      return t.blobs.putNew(key, data);
    };
    const settled = await Promise.allSettled(
      study.instances.map((i) => ingestInstance(deps({ blobs: failing }), { bucketId, bytes: i.bytes, source: 'web' })),
    );
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const db = t.db.database.db;
    const [exam] = await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ instanceCount: 5 });
    const rows = await db.select().from(instances).where(eq(instances.examId, exam!.id));
    expect(rows.map((r) => r.sopInstanceUid)).not.toContain(victim);
    expect(rows).toHaveLength(5);
  });
});
