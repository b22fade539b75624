import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances, series } from '../../db/schema.js';
import { INDEX_MAX_LENGTH } from '../../dicom/parse.js';
import { generateCtInstance, IMPLICIT_VR_LE } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';

/**
 * Issue 19 item 4: indexed text is cut to its VR's maximum length for the database and the
 * lists, whatever the files hold; the stored files keep every byte after the preamble.
 */
let t: TestApp;
let radId: string;
let doctor: string;
const long = (ch: string, n: number) => ch.repeat(n);

beforeAll(async () => {
  const { t: app, rad } = await startArchiveApp();
  t = app;
  radId = rad.org.bucketId;
  doctor = rad.doctor.token;
});
afterAll(() => t.close());

const LIMITS: [column: keyof typeof exams.$inferSelect, vr: string][] = [
  ['patientName', 'PN'],
  ['patientId', 'LO'],
  ['accessionNumber', 'SH'],
  ['studyDesc', 'LO'],
  ['institution', 'LO'],
  ['referringPhysician', 'PN'],
  ['bodyPart', 'CS'],
  ['studyId', 'SH'],
];

describe('indexed text is cut to its VR maximum', () => {
  it('an 8 MB patient name ingests; its exam row holds 64 characters, its file every byte', async () => {
    const file = generateCtInstance({
      rows: 8,
      columns: 8,
      transferSyntax: IMPLICIT_VR_LE,
      charset: 'ISO_IR 192',
      patientName: `${long('王', 3 * 1024 * 1024)}^${long('N', 8)}`,
      accessionNumber: long('A', 100_000),
      studyDescription: long('D', 100_000),
    });
    const sent = Buffer.from(file.bytes);
    const r = await t.services.archive.ingest(radId, file.bytes, 'web');
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.id, r.examId));
    expect(exam).toMatchObject({
      patientName: long('王', 64),
      accessionNumber: long('A', 16),
      studyDesc: long('D', 64),
    });
    const [instance] = await t.db.database.db.select().from(instances).where(eq(instances.id, r.instanceId));
    expect((await t.blobs.get(instance!.blobKey)).subarray(128).equals(sent.subarray(128))).toBe(true);
  });

  it('a page of 20 studies whose every text attribute is long stays under 64 KB, as do QIDO-RS answers', async () => {
    for (let n = 0; n < 21; n++) {
      const file = generateCtInstance({
        rows: 8,
        columns: 8,
        transferSyntax: IMPLICIT_VR_LE,
        charset: 'ISO_IR 192',
        patientName: `${long('李', 7000)}^${n}=${long('x', 20_000)}`,
        patientId: long('I', 20_000),
        accessionNumber: `${n}${long('A', 20_000)}`,
        studyDescription: long('描', 20_000),
        institutionName: long('H', 20_000),
        referringPhysicianName: long('R', 20_000),
        bodyPartExamined: long('B', 20_000),
      });
      await t.services.archive.ingest(radId, file.bytes, 'web');
    }
    const rows = await t.db.database.db.select().from(exams).where(eq(exams.bucketId, radId));
    expect(rows.length).toBeGreaterThanOrEqual(21);
    for (const row of rows) {
      for (const [column, vr] of LIMITS) {
        const value = row[column] as string;
        const max = INDEX_MAX_LENGTH[vr]!;
        for (const part of vr === 'PN' ? value.split('=') : [value]) expect([...part].length).toBeLessThanOrEqual(max);
      }
    }
    for (const s of await t.db.database.db.select().from(series).where(eq(series.bucketId, radId))) {
      expect(s.bodyPart.length).toBeLessThanOrEqual(16);
      expect(s.description.length).toBeLessThanOrEqual(64);
    }

    const page = await t.as(doctor).post('exams/page-query', { skip: 0, limit: 20 });
    expect(page.statusCode, page.body.slice(0, 200)).toBe(200);
    const listed = (page.json() as { exams: Record<string, string>[] }).exams;
    expect(listed).toHaveLength(20);
    expect(page.rawPayload.length).toBeLessThan(64 * 1024);
    for (const exam of listed) {
      for (const [column, vr] of LIMITS.filter(([c]) => c in exam)) {
        const max = INDEX_MAX_LENGTH[vr]!;
        for (const part of vr === 'PN' ? exam[column]!.split('=') : [exam[column]!]) {
          expect([...part].length).toBeLessThanOrEqual(max);
        }
      }
    }

    const qido = await t.app.inject({
      method: 'GET',
      url: '/dicom-web/studies?limit=20',
      headers: { authorization: `Bearer ${doctor}` },
    });
    expect(qido.statusCode).toBe(200);
    expect(qido.json()).toHaveLength(20);
    expect(qido.rawPayload.length).toBeLessThan(64 * 1024);
  });
});
