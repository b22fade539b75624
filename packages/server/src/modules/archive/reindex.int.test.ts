import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli-commands.js';
import { exams, instances } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { localKeys } from './reindex.js';

let t: TestApp;
let bucketId: string;
let root: string;
const out: string[] = [];
const cli = (...argv: string[]) =>
  runCli(t.db.database, argv, (line) => out.push(line), { blobs: t.blobs, keys: (p) => localKeys(root, p) });

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  bucketId = (await makeOrganization(t)).bucketId;
  root = (t.blobs as unknown as { root: string }).root;
});
afterAll(() => t.close());

describe('yyp reindex', () => {
  it('rebuilds an exam whose rows were lost from its stored files, once, reporting unreadable files and extra copies', async () => {
    const db = t.db.database.db;
    const study = generateStudy({
      modality: 'CT',
      series: 2,
      instancesPerSeries: 3,
      rows: 16,
      columns: 16,
      patientName: '李^四',
      charset: 'GB18030',
    });
    let examId = '';
    for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, 'dimse')).examId;
    const keys = (await db.select().from(instances).where(eq(instances.examId, examId))).map((r) => r.blobKey);
    // A lost transaction: the exam and everything under it are gone, the files remain.
    await db.delete(exams).where(eq(exams.id, examId));
    // Plus a file that is not DICOM, and a second copy of an indexed instance.
    const junk = `dicom/${bucketId}/1.2.3/4.5.6/7.8.9.junk.dcm`;
    await t.blobs.put(junk, Buffer.from('not a dicom file'));
    const copy = keys[0]!.replace(/\.dcm$/, '.copy.dcm');
    await t.blobs.put(copy, await t.blobs.get(keys[0]!));

    const summary = () => out.find((l) => /^\d+ files scanned/.test(l));
    await cli('reindex', '--dry-run');
    expect(summary()).toMatch(/^8 files scanned: 0 already indexed, 7 to index, 0 extra copies, 1 unreadable/);
    expect(await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid))).toHaveLength(0);

    out.length = 0;
    await cli('reindex');
    expect(out).toContain(`unreadable: ${junk}`);
    expect(
      out.some((l) => /^8 files scanned: 0 already indexed, 6 indexed, 1 extra copies, 1 unreadable/.test(l)),
    ).toBe(true);
    const [exam] = await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ patientName: '李^四', instanceCount: 6, seriesCount: 2, modality: 'CT' });
    const rows = await db.select().from(instances).where(eq(instances.examId, exam!.id));
    expect(rows).toHaveLength(6);
    // Exactly one of the two copies of the first instance is indexed.
    expect(rows.filter((r) => r.blobKey === keys[0] || r.blobKey === copy)).toHaveLength(1);

    out.length = 0;
    await cli('reindex');
    expect(summary()).toMatch(/^8 files scanned: 6 already indexed, 0 indexed, 1 extra copies, 1 unreadable/);
    expect((await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid)))[0]).toMatchObject({
      instanceCount: 6,
    });
    await fs.rm(path.join(root, junk));
  });
});
