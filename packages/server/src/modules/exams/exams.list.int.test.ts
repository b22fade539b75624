import { EXAM_SORT_FIELDS, type ExamItem, type ExamPage } from '@yyp/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, buckets, exams, instances, series } from '../../db/schema.js';
import { generateStudy, type StudyOptions } from '../../dicom/testdata/generate.js';
import type { IngestSource } from '../archive/ingest.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { backfillNameInitials } from './exams.list.store.js';

let t: TestApp;
const bucket: Record<string, string> = {};
const id: Record<string, string> = {};
const tok: Record<string, string> = {};
const DAY = 86_400_000;

async function ingest(bucketId: string, opts: StudyOptions, source: IngestSource = 'web'): Promise<string> {
  const study = generateStudy({ instancesPerSeries: 1, rows: 16, columns: 16, ...opts });
  let examId = '';
  for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, source)).examId;
  t.clock.advance(60_000);
  return examId;
}

async function page(who: string, body: unknown): Promise<ExamPage> {
  const res = await t.as(tok[who]!).post('exams/page-query', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExamPage;
}

/** The names (A…F) of the exams a filter finds for the senior doctor, in list order. */
async function find(filters: unknown[], who = 'senior'): Promise<string[]> {
  const names = new Map(Object.entries(id).map(([k, v]) => [v, k]));
  return (await page(who, { filters })).exams.map((e) => names.get(e.id) ?? e.id);
}
const sorted = (xs: string[]) => [...xs].sort();

/** Moves the clock; the tokens (valid an hour) are renewed. */
async function advance(ms: number): Promise<void> {
  t.clock.advance(ms);
  for (const u of Object.keys(tok)) tok[u] = await t.login(u);
}

beforeAll(async () => {
  t = await startTestApp();
  const db = t.db.database.db;
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
  id.A = (await t.services.archive.ingest(bucket['RH-RAD']!, a.instances[0]!.bytes, 'web')).examId;
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
  for (const u of ['senior', 'doctor', 'teledoctor', 'tech']) tok[u] = await t.login(u);
});
afterAll(async () => {
  await t.close();
});

describe('POST exams/page-query', () => {
  it('lists the visible exams newest first, with count, unmasked for a caller with view_privacy', async () => {
    const res = await page('senior', {});
    expect(res.count).toBe(4);
    expect(res.exams.map((e) => e.id)).toEqual([id.E, id.C, id.B, id.A]);
    const a = res.exams.find((e) => e.id === id.A)!;
    expect(a).toMatchObject({
      bucketId: bucket['RH-RAD'],
      bucketName: '放射科',
      patientName: '王^小东',
      patientId: 'PID-A001',
      patientGender: 'M',
      patientDob: '19810615',
      age: '045Y',
      accessionNumber: 'ACC_100%',
      modality: 'CT\\MR',
      bodyPart: 'CHEST',
      studyDate: '20261120',
      hasImage: true,
      uploadStatus: 'processing',
      seriesCount: 2,
      instanceCount: 2,
      masked: false,
      deletedTime: null,
    });
    expect(Date.parse(a.created)).toBe(Date.parse('2026-11-22T08:00:00Z'));
  });

  it('masks name, ids and birth date for a caller without view_privacy, keeping the age', async () => {
    const res = await page('doctor', {});
    expect(res.count).toBe(4);
    const a = res.exams.find((e) => e.id === id.A)!;
    expect(a).toMatchObject({
      patientName: '王*东',
      patientId: 'PI****01',
      patientDob: '',
      accessionNumber: 'AC****0%',
      age: '045Y',
      masked: true,
    });
    expect(res.exams.find((e) => e.id === id.E)).toMatchObject({ patientName: '李*', masked: true });
    expect(JSON.stringify(res)).not.toContain('小东');
  });

  it('audits what it shows unmasked, one PHI row per organization, and nothing when masked', async () => {
    const db = t.db.database.db;
    const before = await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'));
    await page('doctor', {});
    expect(await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'))).toHaveLength(before.length);
    await page('senior', {});
    const after = await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'));
    const added = after.slice(before.length);
    expect(added.map((r) => r.bucketId).sort()).toEqual([bucket['RH-RAD'], bucket['RH-US']].sort());
    expect(added.every((r) => r.actorUsername === 'senior' && r.outcome === 'success')).toBe(true);
  });

  it("keeps other tenants' exams out, whatever the filter asks", async () => {
    expect(await find([])).not.toContain('F');
    const tele = await page('teledoctor', {});
    expect(tele.exams.map((e) => e.id)).toEqual([id.F]);
    expect(tele.count).toBe(1);
    const asked = await page('teledoctor', {
      filters: [{ field: 'bucketId', operator: 'in', values: [bucket['RH-RAD'], bucket['RH-US']] }],
    });
    expect(asked).toEqual({ exams: [], count: 0 });
    const res = await t.as(tok.teledoctor!).post('exams/query/count', {
      filters: [{ field: 'patientName', operator: 'contains', values: ['王'] }],
    });
    expect(res.json()).toEqual({ count: 0 });
  });

  it('filters text fields with eq, in, contains and prefix, case-insensitively', async () => {
    expect(await find([{ field: 'patientName', operator: 'contains', values: ['小东'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['王小'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'eq', values: ['王^小东'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'contains', values: ['doe jane'] }])).toEqual(['B']);
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['smi'] }])).toEqual(['C']);
    expect(sorted(await find([{ field: 'patientName', operator: 'in', values: ['doe^jane', '王小东'] }]))).toEqual([
      'A',
      'B',
    ]);
    expect(sorted(await find([{ field: 'patientId', operator: 'prefix', values: ['pid-'] }]))).toEqual(['A', 'B']);
    expect(await find([{ field: 'patientId', operator: 'contains', values: ['YZ-0'] }])).toEqual(['C']);
    expect(await find([{ field: 'patientId', operator: 'eq', values: ['pid-b002'] }])).toEqual(['B']);
    expect(sorted(await find([{ field: 'patientId', operator: 'in', values: ['XYZ-003', 'US-0005'] }]))).toEqual([
      'C',
      'E',
    ]);
    expect(await find([{ field: 'accessionNumber', operator: 'eq', values: ['acc-300'] }])).toEqual(['C']);
    expect(sorted(await find([{ field: 'bodyPart', operator: 'eq', values: ['chest'] }]))).toEqual(['A', 'C']);
    expect(await find([{ field: 'studyDesc', operator: 'prefix', values: ['dx'] }])).toEqual(['C']);
  });

  it('treats LIKE wildcards in the text literally', async () => {
    expect(await find([{ field: 'accessionNumber', operator: 'contains', values: ['%'] }])).toEqual(['A']);
    expect(await find([{ field: 'accessionNumber', operator: 'contains', values: ['c_1'] }])).toEqual(['A']);
    expect(await find([{ field: 'accessionNumber', operator: 'prefix', values: ['acc_'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'contains', values: ['_'] }])).toEqual([]);
  });

  it('finds a Chinese name by its pinyin initials', async () => {
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'contains', values: ['XD'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'eq', values: ['wxd'] }])).toEqual(['A']);
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['ls'] }])).toEqual(['E']);
    expect(await find([{ field: 'keyword', operator: 'prefix', values: ['wx'] }])).toEqual(['A']);
    expect(await find([{ field: 'keyword', operator: 'contains', values: ['acc-2'] }])).toEqual(['B']);
    // The doctor without view_privacy finds the patient too, and sees the name masked.
    const masked = await page('doctor', { filters: [{ field: 'patientName', operator: 'prefix', values: ['wx'] }] });
    expect(masked.exams.map((e) => [e.id, e.patientName])).toEqual([[id.A, '王*东']]);
  });

  it('matches one modality inside the ModalitiesInStudy list', async () => {
    expect(sorted(await find([{ field: 'modality', operator: 'eq', values: ['MR'] }]))).toEqual(['A', 'B']);
    expect(await find([{ field: 'modality', operator: 'eq', values: ['ct'] }])).toEqual(['A']);
    expect(sorted(await find([{ field: 'modality', operator: 'in', values: ['DX', 'US'] }]))).toEqual(['C', 'E']);
    expect(await find([{ field: 'modality', operator: 'eq', values: ['C'] }])).toEqual([]);
  });

  it('filters study dates by eq, in and open or closed ranges', async () => {
    expect(await find([{ field: 'studyDate', operator: 'eq', values: ['20261120'] }])).toEqual(['A']);
    expect(await find([{ field: 'studyDate', operator: 'eq', values: ['2026-11-20'] }])).toEqual(['A']);
    expect(sorted(await find([{ field: 'studyDate', operator: 'in', values: ['20261001', '20250101'] }]))).toEqual([
      'B',
      'C',
    ]);
    expect(sorted(await find([{ field: 'studyDate', operator: 'range', values: ['20261001', '20261120'] }]))).toEqual([
      'A',
      'B',
    ]);
    expect(await find([{ field: 'studyDate', operator: 'range', values: ['', '20251231'] }])).toEqual(['C']);
    expect(await find([{ field: 'studyDate', operator: 'range', values: ['20261121', ''] }])).toEqual(['E']);
  });

  it('filters arrival times and ages by range', async () => {
    const all = (await page('senior', {})).exams;
    const bCreated = all.find((e) => e.id === id.B)!.created;
    const cCreated = all.find((e) => e.id === id.C)!.created;
    expect(sorted(await find([{ field: 'created', operator: 'range', values: [bCreated, ''] }]))).toEqual([
      'B',
      'C',
      'E',
    ]);
    expect(
      sorted(
        await find([
          { field: 'created', operator: 'range', values: [bCreated, new Date(Date.parse(cCreated) - 1).toISOString()] },
        ]),
      ),
    ).toEqual(['B']);
    expect(await find([{ field: 'created', operator: 'range', values: ['', '2026-11-21'] }])).toEqual([]);
    expect((await find([{ field: 'created', operator: 'range', values: ['2026-11-22', '2026-11-22'] }])).length).toBe(
      4,
    );
    expect(await find([{ field: 'age', operator: 'range', values: ['40', '50'] }])).toEqual(['A']);
    expect(await find([{ field: 'age', operator: 'eq', values: ['75'] }])).toEqual(['C']);
    expect(sorted(await find([{ field: 'age', operator: 'range', values: ['', '36'] }]))).toEqual(['B', 'E']);
  });

  it('filters buckets, gender, upload status and images', async () => {
    expect(await find([{ field: 'bucketId', operator: 'eq', values: [bucket['RH-US']] }])).toEqual(['E']);
    expect(sorted(await find([{ field: 'patientGender', operator: 'in', values: ['f'] }]))).toEqual(['B', 'E']);
    expect(sorted(await find([{ field: 'patientGender', operator: 'eq', values: ['M'] }]))).toEqual(['A', 'C']);
    expect(await find([{ field: 'uploadStatus', operator: 'eq', values: ['completed'] }])).toEqual(['C']);
    expect((await find([{ field: 'uploadStatus', operator: 'in', values: ['processing'] }])).length).toBe(3);
    expect(await find([{ field: 'hasImage', operator: 'eq', values: [false] }])).toEqual([]);
    expect((await find([{ field: 'hasImage', operator: 'eq', values: ['true'] }])).length).toBe(4);
    // Several filters all apply.
    expect(
      await find([
        { field: 'bodyPart', operator: 'eq', values: ['CHEST'] },
        { field: 'modality', operator: 'in', values: ['DX'] },
      ]),
    ).toEqual(['C']);
  });

  it('sorts by every allowed field both ways, with a stable order', async () => {
    for (const field of EXAM_SORT_FIELDS) {
      const asc = (await page('senior', { sorts: [{ field, direction: 'asc' }] })).exams.map((e) => e.id);
      const desc = (await page('senior', { sorts: [{ field, direction: 'desc' }] })).exams.map((e) => e.id);
      expect(asc, field).toHaveLength(4);
      expect(desc, field).toEqual([...asc].reverse());
    }
    const byDate = (await page('senior', { sorts: [{ field: 'studyDate', direction: 'asc' }] })).exams;
    expect(byDate.map((e) => e.id)).toEqual([id.C, id.B, id.A, id.E]);
    const byCount = (await page('senior', { sorts: [{ field: 'instanceCount', direction: 'desc' }] })).exams;
    expect(byCount[0]!.id).toBe(id.A);
    const twoKeys = await page('senior', {
      filters: [{ field: 'bucketId', operator: 'eq', values: [bucket['RH-RAD']] }],
      sorts: [
        { field: 'bodyPart', direction: 'asc' },
        { field: 'created', direction: 'desc' },
      ],
    });
    expect(twoKeys.exams.map((e) => e.id)).toEqual([id.C, id.A, id.B]);
  });

  it('floors skip at 0, falls back to 50 for a limit that is not positive, and pages', async () => {
    const all = (await page('senior', {})).exams.map((e) => e.id);
    expect((await page('senior', { skip: -5, limit: 2 })).exams.map((e) => e.id)).toEqual(all.slice(0, 2));
    expect((await page('senior', { skip: 2, limit: 2 })).exams.map((e) => e.id)).toEqual(all.slice(2, 4));
    expect((await page('senior', { skip: 1.7, limit: 1 })).exams.map((e) => e.id)).toEqual(all.slice(1, 2));
    for (const limit of [0, -1, undefined]) {
      const res = await page('senior', { skip: 0, ...(limit === undefined ? {} : { limit }) });
      expect(res.exams).toHaveLength(4);
      expect(res.count).toBe(4);
    }
    expect((await page('senior', { skip: 10 })).exams).toEqual([]);
    expect((await page('senior', { skip: 10 })).count).toBe(4);
  });

  it('refuses a filter or sort field outside the allow-list with a 400 naming it, and wrong operators', async () => {
    const api = t.as(tok.senior!);
    const cases: [unknown, string][] = [
      [{ sorts: [{ field: 'patient_name; drop table exams', direction: 'asc' }] }, 'Unknown sort field'],
      [{ sorts: [{ field: 'password', direction: 'desc' }] }, 'Unknown sort field "password"'],
      [{ filters: [{ field: 'deleted_time', operator: 'eq', values: ['x'] }] }, 'Unknown filter field "deleted_time"'],
      [{ filters: [{ field: 'patientName', operator: 'regex', values: ['.*'] }] }, 'Unknown filter operator'],
      [{ filters: [{ field: 'created', operator: 'contains', values: ['2026'] }] }, 'takes the operators range'],
      [{ filters: [{ field: 'studyDate', operator: 'range', values: ['2026'] }] }, 'two values'],
      [{ filters: [{ field: 'patientGender', operator: 'eq', values: ['X'] }] }, 'M, F, O or U'],
      [{ sorts: [{ field: 'created', direction: 'sideways' }] }, 'sorts'],
    ];
    for (const [body, message] of cases) {
      for (const url of ['exams/page-query', 'exams/query/count', 'exams/deleted-query']) {
        const res = await api.post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json().code).toBe('ValidationError');
        const issues = (res.json() as { details: { issues: { path: string; message: string }[] } }).details.issues;
        expect(issues.map((i) => `${i.path}: ${i.message}`).join('\n')).toContain(message);
        expect(res.body).not.toMatch(/at .*\.ts:\d+/);
      }
    }
  });
});

describe('POST exams/query/count', () => {
  it('counts what the list filters match', async () => {
    const api = t.as(tok.senior!);
    expect((await api.post('exams/query/count', {})).json()).toEqual({ count: 4 });
    const res = await api.post('exams/query/count', {
      filters: [{ field: 'modality', operator: 'eq', values: ['MR'] }],
      skip: 1,
      limit: 1,
    });
    expect(res.json()).toEqual({ count: 2 });
  });
});

describe('GET exams/{id}', () => {
  it('answers one exam in the list shape, audited when unmasked', async () => {
    const db = t.db.database.db;
    const res = await t.as(tok.senior!).get(`exams/${id.A}`);
    expect(res.statusCode).toBe(200);
    const list = (await page('senior', {})).exams.find((e) => e.id === id.A);
    expect(res.json()).toEqual(list);
    const rows = await db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.get'), eq(auditLogs.targetId, id.A!)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ patientId: 'PID-A001', bucketId: bucket['RH-RAD'], actorUsername: 'senior' });
  });
  it('masks for a caller without view_privacy and writes no PHI row', async () => {
    const res = await t.as(tok.doctor!).get(`exams/${id.A}`);
    expect(res.json()).toMatchObject({ patientName: '王*东', masked: true, patientDob: '' });
    const rows = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.get'), eq(auditLogs.targetId, id.A!)));
    expect(rows).toHaveLength(1);
  });
  it("answers 404 for another tenant's exam and for an unknown id", async () => {
    expect((await t.as(tok.teledoctor!).get(`exams/${id.A}`)).statusCode).toBe(404);
    expect((await t.as(tok.senior!).get(`exams/${id.F}`)).statusCode).toBe(404);
    expect((await t.as(tok.senior!).get('exams/no-such-exam')).statusCode).toBe(404);
  });
});

describe('pinyin initials of names stored before the column', () => {
  it('are filled by the backfill', async () => {
    const db = t.db.database.db;
    await db.update(exams).set({ patientNamePinyin: null }).where(eq(exams.id, id.A!));
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual([]);
    expect(await backfillNameInitials(db)).toBe(1);
    expect(await backfillNameInitials(db)).toBe(0);
    const [row] = await db.select().from(exams).where(eq(exams.id, id.A!));
    expect(row!.patientNamePinyin).toBe('wxd');
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual(['A']);
  });
});

describe('delete, the deleted-exams view, recovery and purge', () => {
  const deleted = async (who: string) => (await t.as(tok[who]!).post('exams/deleted-query', {})).json() as ExamPage;

  it('needs exam_delete in the exam’s organization', async () => {
    expect((await t.as(tok.doctor!).del(`exams/${id.E}/delete`)).statusCode).toBe(403);
    expect((await t.as(tok.teledoctor!).del(`exams/${id.E}/delete`)).statusCode).toBe(404);
    expect((await t.as(tok.senior!).del(`exams/${id.A}/delete`)).statusCode).toBe(403);
    expect(await find([])).toContain('E');
  });

  it('hides a deleted exam, lists it as deleted for 30 days and recovers it', async () => {
    const api = t.as(tok.senior!);
    const res = await api.del(`exams/${id.E}/delete`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { id: string; deletedTime: string; recoverableUntil: string };
    expect(body.id).toBe(id.E);
    expect(Date.parse(body.recoverableUntil) - Date.parse(body.deletedTime)).toBe(30 * DAY);
    expect(await find([])).not.toContain('E');
    expect((await api.post('exams/query/count', {})).json()).toEqual({ count: 3 });
    expect((await api.get(`exams/${id.E}`)).statusCode).toBe(404);
    expect((await api.del(`exams/${id.E}/delete`)).statusCode).toBe(404);

    const view = await deleted('senior');
    expect(view.count).toBe(1);
    expect(view.exams[0]).toMatchObject({
      id: id.E,
      deletedTime: body.deletedTime,
      recoverableUntil: body.recoverableUntil,
    });
    // Filters apply to the deleted view too; without exam_delete nothing is listed.
    expect(
      (
        await t
          .as(tok.senior!)
          .post('exams/deleted-query', { filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }] })
      ).json(),
    ).toEqual({ exams: [], count: 0 });
    expect(await deleted('doctor')).toEqual({ exams: [], count: 0 });
    expect((await t.as(tok.doctor!).post(`reports/${id.E}/recovery`)).statusCode).toBe(403);
    expect((await t.as(tok.teledoctor!).post(`reports/${id.E}/recovery`)).statusCode).toBe(404);

    const audit = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.delete'), eq(auditLogs.targetId, id.E!)));
    expect(audit).toHaveLength(1);

    await advance(29 * DAY);
    const back = await t.as(tok.senior!).post(`reports/${id.E}/recovery`);
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json() as ExamItem).deletedTime).toBeNull();
    expect(await find([])).toContain('E');
    expect((await deleted('senior')).count).toBe(0);
    expect((await t.as(tok.senior!).post(`reports/${id.E}/recovery`)).statusCode).toBe(409);
  });

  it('refuses recovery after 30 days, and the purge removes the rows and their files', async () => {
    let api = t.as(tok.senior!);
    const db = t.db.database.db;
    const keys = (await db.select({ key: instances.blobKey }).from(instances).where(eq(instances.examId, id.E!))).map(
      (r) => r.key,
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(await t.blobs.size(k)).not.toBeNull();
    expect((await api.del(`exams/${id.E}/delete`)).statusCode).toBe(200);

    await advance(31 * DAY);
    api = t.as(tok.senior!);
    const late = await api.post(`reports/${id.E}/recovery`);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'ValidationError' });
    expect(late.json().message).toContain('within 30 days');
    expect((await deleted('senior')).count).toBe(0);
    // Nothing changed: the exam is still there, deleted, until the purge.
    expect((await db.select().from(exams).where(eq(exams.id, id.E!)))[0]!.deletedTime).not.toBeNull();

    expect(await t.services.examList.purge()).toBe(1);
    expect(await db.select().from(exams).where(eq(exams.id, id.E!))).toEqual([]);
    expect(await db.select().from(series).where(eq(series.examId, id.E!))).toEqual([]);
    expect(await db.select().from(instances).where(eq(instances.examId, id.E!))).toEqual([]);
    for (const k of keys) expect(await t.blobs.size(k)).toBeNull();
    expect(await t.services.examList.purge()).toBe(0);
    // Live exams are untouched.
    expect(sorted(await find([]))).toEqual(['A', 'B', 'C']);
    expect((await api.post(`reports/${id.E}/recovery`)).statusCode).toBe(404);
  });

  it('removes a deleted exam for good on request (reports/{id}/delete), a live one only after deleting', async () => {
    const api = t.as(tok.senior!);
    const db = t.db.database.db;
    const examId = await ingest(bucket['RH-US']!, { modality: 'US', patientName: 'GONE^NOW', patientId: 'GONE-1' });
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(409);
    expect((await t.as(tok.doctor!).post(`reports/${examId}/delete`)).statusCode).toBe(403);
    expect((await api.del(`exams/${examId}/delete`)).statusCode).toBe(200);
    const keys = (await db.select({ key: instances.blobKey }).from(instances).where(eq(instances.examId, examId))).map(
      (r) => r.key,
    );
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(204);
    expect(await db.select().from(exams).where(eq(exams.id, examId))).toEqual([]);
    for (const k of keys) expect(await t.blobs.size(k)).toBeNull();
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(404);
  });
});

describe('POST exams/newly', () => {
  it('answers the newest 5 exams of the last 7 days, after `since`, masked like the list', async () => {
    await advance(8 * DAY); // everything above is now older than a week
    const api = () => t.as(tok.senior!);
    expect((await api().post('exams/newly', {})).json()).toEqual({ exams: [], count: 0 });
    const fresh: string[] = [];
    for (let n = 0; n < 6; n++) {
      fresh.push(await ingest(bucket['RH-RAD']!, { modality: 'CT', patientName: `新^${n}`, charset: 'GB18030' }));
      t.clock.advance(1000);
    }
    const all = (await api().post('exams/newly', {})).json() as ExamPage;
    expect(all.count).toBe(6);
    expect(all.exams.map((e) => e.id)).toEqual(fresh.slice(1).reverse());
    // The client passes the newest it has seen: only what came after it.
    const since = all.exams[2]!.created;
    const after = (await api().post('exams/newly', { since })).json() as ExamPage;
    expect(after.exams.map((e) => e.id)).toEqual(fresh.slice(4).reverse());
    // Masked for a caller without view_privacy; other tenants see none of them.
    const masked = (await t.as(tok.doctor!).post('exams/newly', {})).json() as ExamPage;
    expect(masked.exams[0]).toMatchObject({ masked: true });
    expect(masked.exams[0]!.patientName).not.toBe('新^5');
    expect(masked.exams[0]!.patientName.startsWith('新')).toBe(true);
    expect(((await t.as(tok.teledoctor!).post('exams/newly', {})).json() as ExamPage).exams).toEqual([]);
    // Bad input changes nothing and says what is wrong.
    expect((await api().post('exams/newly', { since: 'yesterday' })).statusCode).toBe(400);
    expect((await api().post('exams/newly', { limit: 50 })).statusCode).toBe(400);
  });
});

describe('POST exams/{id}/past and past/count', () => {
  it("lists the patient's other exams by patient ID and the group's birth-date mode, across organizations if allowed", async () => {
    const rad = bucket['RH-RAD']!;
    const us = bucket['RH-US']!;
    const p = (studyDate: string, patientBirthDate: string) => ({
      modality: 'CT' as const,
      patientId: 'PAST-1',
      patientName: 'PAST^ONE',
      studyDate,
      patientBirthDate,
    });
    const current = await ingest(rad, p('20261120', '19700101'));
    const prior = await ingest(rad, p('20251003', '19700101'));
    const shifted = await ingest(rad, p('20240515', '19700601')); // same ID, birth date 5 months off
    const other = await ingest(rad, p('20230101', '19900101')); // same ID, another person
    const elsewhere = await ingest(us, p('20220202', '19700101')); // same patient, another organization
    await ingest(rad, { modality: 'CT', patientId: 'PAST-2', studyDate: '20200101', patientBirthDate: '19700101' });
    const api = t.as(tok.senior!);
    const ids = async () => ((await api.post(`exams/${current}/past`, {})).json() as ExamPage).exams.map((e) => e.id);
    const groupadmin = await t.login('groupadmin');
    const setGroup = (settings: Record<string, unknown>) =>
      t.as(groupadmin).post('groups/demo-renhe/update', { settings });

    // The default (shift_off): the same birth date exactly, in this organization, study date descending.
    expect(await ids()).toEqual([prior]);
    expect((await api.post(`exams/${current}/past/count`, {})).json()).toEqual({ count: 1 });
    expect((await setGroup({ dobMatchMode: 'shift_on' })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, shifted]);
    expect((await setGroup({ dobMatchMode: 'disabled' })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, shifted, other]);
    expect((await setGroup({ dobMatchMode: 'shift_off', crossOrgHistorySearch: true })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, elsewhere]);
    expect((await api.post(`exams/${current}/past`, { limit: 1, skip: 1 })).json()).toMatchObject({ count: 2 });
    expect(
      ((await api.post(`exams/${current}/past`, { limit: 1, skip: 1 })).json() as ExamPage).exams.map((e) => e.id),
    ).toEqual([elsewhere]);
    await setGroup({ crossOrgHistorySearch: false });
    // Another tenant cannot ask; unknown body fields are refused.
    expect((await t.as(tok.teledoctor!).post(`exams/${current}/past`, {})).statusCode).toBe(404);
    expect((await api.post(`exams/${current}/past`, { patientId: 'PAST-2' })).statusCode).toBe(400);
  });
});

describe('POST exams/modify-print-status', () => {
  it('marks studies printed and back, all or none, only where the caller holds exam_update', async () => {
    const rad = bucket['RH-RAD']!;
    const a = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    const b = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    for (const s of [a, b]) await t.services.archive.ingest(rad, s.instances[0]!.bytes, 'web');
    const uids = [a.studyInstanceUid, b.studyInstanceUid];
    const printedOf = async () =>
      (await t.db.database.db.select().from(exams).where(inArray(exams.storeUid, uids))).map((e) => e.studyPrinted);
    const doctor = t.as(tok.doctor!);
    const res = await doctor.post('exams/modify-print-status', { storeUids: uids, printed: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    expect(await printedOf()).toEqual([true, true]);
    const listed = (await doctor.post('exams/page-query', {})).json() as ExamPage;
    expect(listed.exams.find((e) => e.storeUid === a.studyInstanceUid)?.printed).toBe(true);
    // One unknown study: nothing changes.
    const partial = await doctor.post('exams/modify-print-status', {
      storeUids: [...uids, '1.2.3.999'],
      printed: false,
    });
    expect(partial.statusCode).toBe(404);
    expect(await printedOf()).toEqual([true, true]);
    // Another tenant cannot, and bad bodies say what is wrong.
    expect(
      (await t.as(tok.teledoctor!).post('exams/modify-print-status', { storeUids: uids, printed: false })).statusCode,
    ).toBe(404);
    expect((await doctor.post('exams/modify-print-status', { storeUids: [], printed: false })).statusCode).toBe(400);
    expect((await doctor.post('exams/modify-print-status', { storeUids: uids })).statusCode).toBe(400);
    expect((await doctor.post('exams/modify-print-status', { storeUids: uids, printed: false })).json()).toEqual({
      updated: 2,
    });
    expect(await printedOf()).toEqual([false, false]);
  });
});
