import type { ExamFilter, ExamSort } from '@yyp/contracts';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { examModalityValues, exams } from '../../db/schema.js';
import { bucket, fx, ingest, page, tok, useExamListFixture } from './exams.list.fixture.js';
import { listPage } from './exams.list.page.store.js';
import { listExams } from './exams.list.store.js';

useExamListFixture();

/**
 * The study list finds a page in one of three ways (exams.list.page.store.ts): counted first, then
 * walked in its order, or with few matches found among the matches themselves (`fenced`), or with a
 * study-date range counted and found in one statement. Whichever is taken, a page must be the
 * same: here every way is checked against the exams filtered and ordered in JavaScript, on enough
 * exams (over FEW_MATCHES) that both sides of the count threshold are taken.
 */

const NAMES: [string, string][] = [
  ['王^小东', 'wxd'],
  ['Wang^Xiao', ''],
  ['汪^伟', 'ww'],
  ['张^伟', 'zw'],
  ['Zhou^Wen', ''],
  ['李^华', 'lh'],
  ['Zwo^Li', 'zw'], // both heads begin with zw: listed once
];
const MODALITIES = ['CT', 'CT\\SR', 'MR', 'PT\\CT', 'US', 'DX'];

interface Row {
  id: string;
  bucketId: string;
  name: string;
  initials: string | null;
  modality: string;
  studyDate: string;
  studyTime: string;
  created: Date;
}

const nameKey = (v: string) => v.toLowerCase().replace(/[\^\s]+/g, '');
function matches(r: Row, f: ExamFilter): boolean {
  const v = f.values[0] ?? '';
  if (f.field === 'patientName') {
    const key = nameKey(v);
    const on = (x: string | null) => (f.operator === 'prefix' ? (x ?? '').startsWith(key) : x === key);
    return on(nameKey(r.name)) || (/^[a-z]+$/.test(key) && on(r.initials));
  }
  if (f.field === 'bucketId') return f.values.includes(r.bucketId);
  if (f.field === 'modality') return f.values.some((m) => r.modality.split('\\').includes(m));
  if (f.field === 'studyDate') return r.studyDate >= f.values[0]! && r.studyDate <= f.values[1]!;
  throw new Error(`no oracle for ${f.field}`);
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
function order(rows: Row[], sorts: ExamSort[]): Row[] {
  const list = sorts.length > 0 ? sorts : [{ field: 'created', direction: 'desc' } as ExamSort];
  const last = list[list.length - 1]!.direction === 'asc' ? 1 : -1;
  const keys = (r: Row, field: ExamSort['field']): (string | number)[] =>
    field === 'created' ? [r.created.getTime()] : field === 'studyDate' ? [r.studyDate, r.studyTime] : [r.name];
  return [...rows].sort((a, b) => {
    for (const s of list) {
      const ka = keys(a, s.field);
      const kb = keys(b, s.field);
      for (let i = 0; i < ka.length; i++) {
        const c = cmp(ka[i]!, kb[i]!);
        if (c !== 0) return s.direction === 'asc' ? c : -c;
      }
    }
    return last * cmp(a.id, b.id);
  });
}

describe('study list pages, however found', () => {
  it('match the exams filtered and ordered directly, on both sides of the few-matches threshold', async () => {
    const db = fx.t.db.database.db;
    const seed = await ingest(bucket['RH-RAD']!, { modality: 'CT', patientId: 'PLAN-1' });
    // 1,200 exams: seven names and six modality lists in turn, four study dates, one per minute.
    await db.execute(sql`
      insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
        patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
        body_part, institution, referring_physician, specific_character_set, source, created)
      select 'plan-' || lpad(g::text, 4, '0'), bucket_id, 'plan.' || g, patient_key_id,
        (${sql.raw(`array[${NAMES.map(([n]) => `'${n}'`).join(',')}]`)})[g % ${sql.raw(String(NAMES.length))} + 1],
        (${sql.raw(`array[${NAMES.map(([, p]) => `'${p}'`).join(',')}]`)})[g % ${sql.raw(String(NAMES.length))} + 1],
        'P', 'M', '', '', '2026010' || (g % 4 + 1), lpad((g % 7)::text, 6, '0'), '', '',
        (${sql.raw(`array[${MODALITIES.map((m) => `'${m}'`).join(',')}]`)})[(g / 6) % 6 + 1],
        '', '', '', '', 'web', timestamptz '2026-01-01 00:00:00+00' + g * interval '1 minute'
      from exams, generate_series(1, 1200) g where exams.id = ${seed}`);
    const rows = (
      await db
        .select({
          id: exams.id,
          bucketId: exams.bucketId,
          name: exams.patientName,
          initials: exams.patientNamePinyin,
          modality: exams.modality,
          studyDate: exams.studyDate,
          studyTime: exams.studyTime,
          created: exams.created,
        })
        .from(exams)
        .where(and(isNull(exams.deletedTime), inArray(exams.bucketId, [bucket['RH-RAD']!, bucket['RH-US']!])))
    ).map((r) => ({ ...r, created: new Date(r.created) }));

    const cases: { filters: ExamFilter[]; sorts: ExamSort[] }[] = [
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['w'] }], sorts: [] }, // many, from counters
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['wxd'] }], sorts: [] }, // 200: fenced
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['zh'] }], sorts: [] }, // heads
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['zw'] }], sorts: [] }, // both heads
      {
        filters: [{ field: 'patientName', operator: 'prefix', values: ['ZW'] }],
        sorts: [{ field: 'created', direction: 'asc' }],
      },
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['王小'] }], sorts: [] }, // name key head
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['wa'] }], sorts: [] },
      {
        filters: [
          { field: 'patientName', operator: 'prefix', values: ['wx'] },
          { field: 'bucketId', operator: 'eq', values: [bucket['RH-RAD']!] },
        ],
        sorts: [{ field: 'created', direction: 'desc' }],
      },
      {
        filters: [{ field: 'patientName', operator: 'prefix', values: ['zw'] }],
        sorts: [{ field: 'studyDate', direction: 'desc' }], // not the list's order: walked
      },
      { filters: [{ field: 'patientName', operator: 'prefix', values: ['qqq'] }], sorts: [] }, // none
      { filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }], sorts: [] }, // 600: walked
      {
        filters: [{ field: 'modality', operator: 'in', values: ['SR', 'US'] }],
        sorts: [{ field: 'studyDate', direction: 'asc' }],
      },
      {
        filters: [
          { field: 'studyDate', operator: 'range', values: ['20260102', '20260103'] },
          { field: 'modality', operator: 'eq', values: ['CT'] },
        ],
        sorts: [],
      },
      {
        filters: [{ field: 'studyDate', operator: 'range', values: ['20260101', '20260104'] }],
        sorts: [{ field: 'studyDate', direction: 'desc' }],
      },
      {
        filters: [
          { field: 'studyDate', operator: 'range', values: ['20260101', '20260104'] },
          { field: 'patientName', operator: 'prefix', values: ['zw'] },
        ],
        sorts: [{ field: 'created', direction: 'asc' }],
      },
    ];
    for (const { filters, sorts } of cases) {
      const expected = order(
        rows.filter((r) => filters.every((f) => matches(r, f))),
        sorts,
      ).map((r) => r.id);
      for (const skip of [0, 40, expected.length - 5, expected.length + 3]) {
        if (skip < 0) continue;
        const got = await page('senior', { filters, sorts, skip, limit: 20 });
        const label = `${JSON.stringify(filters)} ${JSON.stringify(sorts)} skip ${skip}`;
        expect(got.count, label).toBe(expected.length);
        expect(
          got.exams.map((e) => e.id),
          label,
        ).toEqual(expected.slice(skip, skip + 20));
      }
    }
    expect(rows.length).toBeGreaterThan(1200);
  });

  it('knows every modality list an exam holds, including one a later series makes', async () => {
    const db = fx.t.db.database.db;
    const study = '1.2.826.0.1.3680043.10.543.77001';
    const examId = await ingest(bucket['RH-RAD']!, { modality: 'US', studyInstanceUid: study, patientId: 'PLAN-2' });
    await ingest(bucket['RH-RAD']!, { modality: 'DX', studyInstanceUid: study, patientId: 'PLAN-2' });
    const known = new Set((await db.select().from(examModalityValues)).map((v) => v.value));
    const held = await db.selectDistinct({ m: exams.modality }).from(exams);
    expect(held.map((h) => h.m)).toContain('US\\DX');
    for (const { m } of held) expect(known.has(m), m).toBe(true);
    const dx = await page('senior', {
      filters: [
        { field: 'modality', operator: 'eq', values: ['DX'] },
        { field: 'patientId', operator: 'eq', values: ['PLAN-2'] },
      ],
    });
    expect(dx.exams.map((e) => e.id)).toEqual([examId]);
  });
});

describe('kept list statements', () => {
  it('are run again on each call: a page and its count follow the exams', async () => {
    const cases: ExamFilter[][] = [
      [{ field: 'patientName', operator: 'prefix', values: ['zw'] }], // heads, counted from the counters
      [
        { field: 'studyDate', operator: 'range', values: ['20250101', '20291231'] },
        { field: 'modality', operator: 'eq', values: ['MR'] },
      ], // counted with its page
      [{ field: 'patientId', operator: 'prefix', values: ['keep-'] }], // counted first
    ];
    const before = await Promise.all(cases.map((filters) => page('senior', { filters })));
    const examId = await ingest(bucket['RH-US']!, {
      modality: 'MR',
      patientName: '张^伟',
      charset: 'ISO_IR 192',
      patientId: 'KEEP-1',
      studyDate: '20260315',
    });
    for (const [n, filters] of cases.entries()) {
      const after = await page('senior', { filters });
      expect(after.count, JSON.stringify(filters)).toBe(before[n]!.count + 1);
      expect(after.exams[0]?.id, JSON.stringify(filters)).toBe(examId);
    }
    const del = await fx.t.as(tok.senior!).del(`exams/${examId}/delete`);
    expect(del.statusCode, del.body).toBe(200);
    for (const [n, filters] of cases.entries()) {
      const again = await page('senior', { filters });
      expect(again.count, JSON.stringify(filters)).toBe(before[n]!.count);
      expect(again.exams.map((e) => e.id)).not.toContain(examId);
    }
  });
});

describe('list rows', () => {
  it('are the rows drizzle maps: dates as dates, nulls, flags, counts and names alike', async () => {
    const db = fx.t.db.database.db;
    const scope = { bucketIds: [bucket['RH-RAD']!, bucket['RH-US']!], deleted: false as const };
    const cases: ExamFilter[][] = [
      [], // the landing statement
      [{ field: 'patientName', operator: 'prefix', values: ['zw'] }], // one statement with the rows
      [{ field: 'patientId', operator: 'prefix', values: ['p'] }], // ids, then pageRows
    ];
    for (const filters of cases) {
      const request = { scope, filters, sorts: [], skip: 0, limit: 20 };
      const mine = await listPage(db, request);
      const drizzles = await listExams(db, request);
      expect(mine.rows.length, JSON.stringify(filters)).toBeGreaterThan(0);
      expect(mine.rows, JSON.stringify(filters)).toEqual(drizzles);
      expect(mine.rows[0]!.created).toBeInstanceOf(Date);
    }
  });
});
