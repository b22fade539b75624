import { type ExamPage } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { buckets } from '../../db/schema.js';
import { generateStudy, type StudyOptions } from '../../dicom/testdata/generate.js';
import type { IngestSource } from '../archive/index.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { hospitalWithPrivacyOn } from '../../test/privacy.js';

export const fx = { t: undefined as unknown as TestApp };
export const bucket: Record<string, string> = {};
export const id: Record<string, string> = {};
export const tok: Record<string, string> = {};
export const DAY = 86_400_000;

export async function ingest(bucketId: string, opts: StudyOptions, source: IngestSource = 'web'): Promise<string> {
  const study = generateStudy({ instancesPerSeries: 1, rows: 16, columns: 16, ...opts });
  let examId = '';
  for (const i of study.instances) examId = (await fx.t.services.archive.ingest(bucketId, i.bytes, source)).examId;
  fx.t.clock.advance(60_000);
  return examId;
}

export async function page(who: string, body: unknown): Promise<ExamPage> {
  const res = await fx.t.as(tok[who]!).post('exams/page-query', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExamPage;
}

/** The names (A…F) of the exams a filter finds for the senior doctor, in list order. */
export async function find(filters: unknown[], who = 'senior'): Promise<string[]> {
  const names = new Map(Object.entries(id).map(([k, v]) => [v, k]));
  return (await page(who, { filters })).exams.map((e) => names.get(e.id) ?? e.id);
}
export const sorted = (xs: string[]) => [...xs].sort();

/** Moves the clock; the tokens (valid an hour) are renewed. */
export async function advance(ms: number): Promise<void> {
  fx.t.clock.advance(ms);
  for (const u of Object.keys(tok)) tok[u] = await fx.t.login(u);
}

/** The shared study-list fixture: six exams A…F in three organizations, and the callers' tokens. */
export function useExamListFixture(): void {
  beforeAll(async () => {
    fx.t = await startTestApp();
    // Masking as a caller without view_privacy in a privacy-on group sees it (test/privacy.ts).
    await hospitalWithPrivacyOn(fx.t.db.database.db);
    const db = fx.t.db.database.db;
    for (const code of ['RH-RAD', 'RH-US', 'XH-TELE']) {
      const [b] = await db.select().from(buckets).where(eq(buckets.code, code));
      bucket[code] = b!.id;
    }
    // A: CT then an MR series of the same study (ModalitiesInStudy CT\MR), a Chinese name.
    const a = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      patientName: '王^小东',
      charset: 'GB18030',
      patientId: 'PID-A001',
      accessionNumber: 'ACC_100%',
      patientSex: 'M',
      patientBirthDate: '19810615',
      studyDate: '20261120',
      bodyPartExamined: 'CHEST',
    });
    id.A = (await fx.t.services.archive.ingest(bucket['RH-RAD']!, a.instances[0]!.bytes, 'web')).examId;
    await ingest(bucket['RH-RAD']!, {
      modality: 'MR',
      studyInstanceUid: a.studyInstanceUid,
      patientName: '王^小东',
      charset: 'GB18030',
      patientId: 'PID-A001',
      accessionNumber: 'ACC_100%',
      patientSex: 'M',
      patientBirthDate: '19810615',
      studyDate: '20261120',
      bodyPartExamined: 'CHEST',
    });
    id.B = await ingest(bucket['RH-RAD']!, {
      modality: 'MR',
      patientName: 'DOE^JANE',
      patientId: 'PID-B002',
      accessionNumber: 'ACC-200',
      patientSex: 'F',
      patientBirthDate: '20000101',
      studyDate: '20261001',
      bodyPartExamined: 'HEAD',
    });
    id.C = await ingest(
      bucket['RH-RAD']!,
      {
        modality: 'DX',
        patientName: 'SMITH^JOHN',
        patientId: 'XYZ-003',
        accessionNumber: 'ACC-300',
        patientSex: 'M',
        patientBirthDate: '19500101',
        studyDate: '20250101',
        bodyPartExamined: 'CHEST',
      },
      'dimse',
    );
    id.E = await ingest(bucket['RH-US']!, {
      modality: 'US',
      patientName: '李^四',
      charset: 'GB18030',
      patientId: 'US-0005',
      accessionNumber: 'ACC-500',
      patientSex: 'F',
      patientBirthDate: '19900101',
      studyDate: '20261121',
    });
    id.F = await ingest(bucket['XH-TELE']!, { modality: 'CT', patientName: 'TELE^PATIENT', patientId: 'TELE-06' });
    for (const u of ['senior', 'doctor', 'teledoctor', 'tech']) tok[u] = await fx.t.login(u);
  });
  afterAll(async () => {
    await fx.t.close();
  });
}
