import { EXAM_SORT_FIELDS } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../../db/schema.js';
import { backfillNameInitials } from './exams.lifecycle.store.js';
import { makeColorRule } from '../../test/factories.js';
import { buckets } from '../../db/schema.js';
import { bucket, find, fx, id, page, sorted, tok, useExamListFixture } from './exams.list.fixture.js';

/** The study list: filters, sorts, paging, masking and scope (POST exams/page-query, query/count, GET exams/{id}). */
useExamListFixture();

describe('POST exams/page-query', () => {
  it("paints rows with their group's first matching colour rule, and counts a page past the end", async () => {
    const db = fx.t.db.database.db;
    const [rad] = await db.select().from(buckets).where(eq(buckets.id, bucket['RH-RAD']!));
    const colours = { foreColor: '#ffffff', backgroundColor: '#cf1322', matchField: 'modality', value: 'MR', index: 0 };
    const late = await makeColorRule(
      fx.t,
      rad!.groupId,
      { name: 'MR late', priority: 5, ...colours, backgroundColor: '#000000' },
      new Date(),
    );
    const first = await makeColorRule(fx.t, rad!.groupId, { name: 'MR', priority: 1, ...colours }, new Date());
    try {
      const res = await page('senior', {});
      const a = res.exams.find((e) => e.id === id.A)!;
      expect(a.rowColor).toEqual({ foreColor: '#ffffff', backgroundColor: '#cf1322' });
      const others = res.exams.filter((e) => !e.modality.split('\\').includes('MR'));
      expect(others.length).toBeGreaterThan(0);
      for (const e of others) expect(e.rowColor).toBeNull();
      const beyond = await page('senior', { skip: 100, limit: 20 });
      expect(beyond).toEqual({ exams: [], count: 4 });
    } finally {
      await first.remove();
      await late.remove();
    }
  });

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

  it('audits what it shows unmasked, one PHI row per answer naming its organizations, and nothing when masked', async () => {
    const db = fx.t.db.database.db;
    const before = await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'));
    await page('doctor', {});
    expect(await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'))).toHaveLength(before.length);
    await page('senior', {});
    const after = await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.list'));
    const added = after.slice(before.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ actorUsername: 'senior', outcome: 'success', bucketId: null });
    const details = added[0]!.details as { examIds: string[]; bucketIds: string[] };
    expect(details.bucketIds.sort()).toEqual([bucket['RH-RAD'], bucket['RH-US']].sort());
    expect(details.examIds.sort()).toEqual([id.A, id.B, id.C, id.E].sort());
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
    const res = await fx.t.as(tok.teledoctor!).post('exams/query/count', {
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
    const api = fx.t.as(tok.senior!);
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
    const api = fx.t.as(tok.senior!);
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
    const db = fx.t.db.database.db;
    const res = await fx.t.as(tok.senior!).get(`exams/${id.A}`);
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
    const res = await fx.t.as(tok.doctor!).get(`exams/${id.A}`);
    expect(res.json()).toMatchObject({ patientName: '王*东', masked: true, patientDob: '' });
    const rows = await fx.t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.get'), eq(auditLogs.targetId, id.A!)));
    expect(rows).toHaveLength(1);
  });
  it("answers 404 for another tenant's exam and for an unknown id", async () => {
    expect((await fx.t.as(tok.teledoctor!).get(`exams/${id.A}`)).statusCode).toBe(404);
    expect((await fx.t.as(tok.senior!).get(`exams/${id.F}`)).statusCode).toBe(404);
    expect((await fx.t.as(tok.senior!).get('exams/no-such-exam')).statusCode).toBe(404);
  });
});

describe('pinyin initials of names stored before the column', () => {
  it('are filled by the backfill', async () => {
    const db = fx.t.db.database.db;
    await db.update(exams).set({ patientNamePinyin: null }).where(eq(exams.id, id.A!));
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual([]);
    expect(await backfillNameInitials(db)).toBe(1);
    expect(await backfillNameInitials(db)).toBe(0);
    const [row] = await db.select().from(exams).where(eq(exams.id, id.A!));
    expect(row!.patientNamePinyin).toBe('wxd');
    expect(await find([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual(['A']);
  });
});
