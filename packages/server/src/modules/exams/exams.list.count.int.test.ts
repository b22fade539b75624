import { describe, expect, it } from 'vitest';
import { bucket, find, fx, id, ingest, page, sorted, tok, useExamListFixture } from './exams.list.fixture.js';

/**
 * The study list's counts where the SQL counts otherwise than it finds (exams.list.store.ts): a
 * name search counted as disjoint parts from the live name indexes, and a modality matched inside
 * ModalitiesInStudy with equalities and LIKEs. The count must be what the list holds.
 */
useExamListFixture();

async function countOf(filters: unknown[]): Promise<{ listed: number; count: number; counted: number }> {
  const res = await page('senior', { filters, limit: 200 });
  const counted = await fx.t.as(tok.senior!).post('exams/query/count', { filters });
  expect(counted.statusCode, counted.body).toBe(200);
  return { listed: res.exams.length, count: res.count, counted: (counted.json() as { count: number }).count };
}

describe('study list counts', () => {
  it('counts an exam found both by its name and by its pinyin initials once', async () => {
    // Latin and ideographic groups: the key "wangxiaodong=王小东" and the initials "wxd" both start with w.
    id.G = await ingest(bucket['RH-RAD']!, {
      modality: 'DX',
      patientName: 'Wang^Xiaodong=王^小东',
      charset: 'ISO_IR 192',
    });
    // Only by the initials ("wxd"), and only by the name ("wu…", no initials).
    expect(sorted(await find([{ field: 'patientName', operator: 'prefix', values: ['w'] }]))).toEqual(
      ['A', 'G'].sort(),
    );
    expect(await countOf([{ field: 'patientName', operator: 'prefix', values: ['w'] }])).toEqual({
      listed: 2,
      count: 2,
      counted: 2,
    });
    expect(await countOf([{ field: 'patientName', operator: 'prefix', values: ['wa'] }])).toEqual({
      listed: 1,
      count: 1,
      counted: 1,
    });
    expect(await countOf([{ field: 'patientName', operator: 'prefix', values: ['wx'] }])).toEqual({
      listed: 2,
      count: 2,
      counted: 2,
    });
    expect(await countOf([{ field: 'patientName', operator: 'eq', values: ['wxd'] }])).toEqual({
      listed: 2,
      count: 2,
      counted: 2,
    });
    // With another filter beside the name, and a Chinese prefix (one part only).
    expect(
      await countOf([
        { field: 'patientName', operator: 'prefix', values: ['w'] },
        { field: 'modality', operator: 'eq', values: ['DX'] },
      ]),
    ).toEqual({ listed: 1, count: 1, counted: 1 });
    expect(await countOf([{ field: 'patientName', operator: 'prefix', values: ['王'] }])).toEqual({
      listed: 1,
      count: 1,
      counted: 1,
    });
    expect(await countOf([{ field: 'patientName', operator: 'prefix', values: ['smi'] }])).toEqual({
      listed: 1,
      count: 1,
      counted: 1,
    });
  });

  it('matches a modality first, last or inside ModalitiesInStudy, and only whole ones', async () => {
    // H: US then CT then DX series of one study ("US\\CT\\DX"); A is "CT\\MR", G "DX".
    const uid = '1.2.826.0.9.77';
    id.H = await ingest(bucket['RH-US']!, { modality: 'US', patientName: 'H^H', studyInstanceUid: uid });
    await ingest(bucket['RH-US']!, { modality: 'CT', patientName: 'H^H', studyInstanceUid: uid });
    await ingest(bucket['RH-US']!, { modality: 'DX', patientName: 'H^H', studyInstanceUid: uid });
    const listed = await page('senior', { filters: [{ field: 'patientName', operator: 'prefix', values: ['h^h'] }] });
    expect(listed.exams.map((e) => e.modality)).toEqual(['US\\CT\\DX']);
    const modality = (values: string[], operator = 'eq') => [{ field: 'modality', operator, values }];
    expect(sorted(await find(modality(['CT'])))).toEqual(['A', 'H']);
    expect(sorted(await find(modality(['US'])))).toEqual(['E', 'H']);
    expect(sorted(await find(modality(['dx'])))).toEqual(['C', 'G', 'H']);
    expect(sorted(await find(modality(['MR'])))).toEqual(['A', 'B']);
    expect(sorted(await find(modality(['DX', 'MR'], 'in')))).toEqual(['A', 'B', 'C', 'G', 'H']);
    for (const part of ['C', 'T', 'CT\\', 'T\\D', '%', 'C_', '_T', 'CT\\DX']) {
      expect(await find(modality([part]))).toEqual([]);
    }
    expect(await countOf(modality(['CT']))).toEqual({ listed: 2, count: 2, counted: 2 });
    expect(
      await countOf([
        { field: 'studyDate', operator: 'range', values: ['20261101', '20261130'] },
        { field: 'modality', operator: 'eq', values: ['CT'] },
      ]),
    ).toEqual({ listed: 1, count: 1, counted: 1 });
  });

  it('counts a study-date range whole, on the page that reads it and past its end', async () => {
    const autumn = [{ field: 'studyDate', operator: 'range', values: ['20261001', '20261130'] }];
    expect(sorted(await find(autumn))).toEqual(['A', 'B', 'E']);
    for (const [skip, shown] of [
      [0, 1],
      [2, 1],
      [5, 0],
    ] as const) {
      const res = await page('senior', { filters: autumn, skip, limit: 1 });
      expect({ shown: res.exams.length, count: res.count }).toEqual({ shown, count: 3 });
    }
  });
});
