import type { StatTable } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { denialsOf, makeStatWorld, type StatWorld } from './statistics-detail.fixture.js';

/**
 * The scope rules of every table statistic (statistics.service.ts request, statistics.scope.ts),
 * through the table calls: the range rules of spec 000 §5 before anything is counted, and the
 * organizations counted by the statistic's action (spec 000 §6), a group's by enableStat.
 */
let t: TestApp;
let w: StatWorld;
const NOV = 'from=2026-11-01&to=2026-11-30';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeStatWorld(t);
});
afterAll(async () => {
  await t.close();
});

const get = (token: string, url: string) => t.as(token).get(url);

describe('range rules (spec 000 §5)', () => {
  it('refuses a table without its period (time period required)', async () => {
    for (const url of ['statistics/quality', 'statistics/quality?from=2026-11-01', 'statistics/study?to=2026-11-30']) {
      const res = await get(w.head.token, url);
      expect(res.statusCode, url).toBe(400);
    }
    const res = await t.as(w.head.token).post('statistics/quality', { to: '2026-11-30' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses an end before the start (400 StatisticsRangeInvalid)', async () => {
    const res = await get(w.head.token, 'statistics/quality?from=2026-11-30&to=2026-11-01');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('StatisticsRangeInvalid');
  });

  it('takes device workload over one month at most (400 StatisticsRangeTooLong beyond)', async () => {
    const over = await get(w.head.token, 'statistics/modality?from=2026-10-15&to=2026-11-15');
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('StatisticsRangeTooLong');
    const month = await get(w.head.token, 'statistics/modality?from=2026-10-15&to=2026-11-14');
    expect(month.json().code).not.toBe('StatisticsRangeTooLong');
  });

  it('takes the note-taker workload over one year at most', async () => {
    const over = await get(w.head.token, 'statistics/note-taker?from=2025-11-01&to=2026-11-01');
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('StatisticsRangeTooLong');
    const year = await get(w.head.token, 'statistics/note-taker?from=2025-11-01&to=2026-10-31');
    expect(year.json().code).not.toBe('StatisticsRangeTooLong');
  });

  it('answers remote report statistics beyond a year, with the warning rangeBeyondYear', async () => {
    const over = await get(w.head.token, 'statistics/remote-report?from=2025-01-01&to=2026-11-30');
    expect(over.statusCode, over.body).toBe(200);
    expect((over.json() as StatTable).warning).toBe('rangeBeyondYear');
    const year = await get(w.head.token, `statistics/remote-report?${NOV}`);
    expect((year.json() as StatTable).warning).toBeNull();
  });

  it('refuses any statistic over more than five years', async () => {
    const res = await get(w.admin.token, 'statistics/quality?from=2020-01-01&to=2026-11-30');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('StatisticsRangeTooLong');
  });
});

describe('organizations counted (spec 000 §6)', () => {
  it('answers 404 for bucketIds or a group of another group, before counting and showing nothing of it', async () => {
    for (const url of [
      `statistics/quality?${NOV}&bucketIds=${w.otherBucket}`,
      `statistics/quality?${NOV}&bucketIds=${w.radiology},${w.otherBucket}`,
      `statistics/quality?${NOV}&groupId=${w.otherGroupId}`,
      `statistics/study?${NOV}&bucketIds=${w.otherBucket}`,
    ]) {
      const res = await get(w.head.token, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('他院科室');
    }
    const res = await get(w.otherAdmin.token, `statistics/quality?${NOV}&bucketIds=${w.radiology}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('统计放射科');
  });

  it('answers 403 for an organization where the caller lacks the action, audited as permission.denied', async () => {
    const before = (await denialsOf(t, w.head.accountId)).length;
    const res = await get(w.head.token, `statistics/quality?${NOV}&bucketIds=${w.ultrasound}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('InsufficientPermissions');
    const denials = await denialsOf(t, w.head.accountId);
    expect(denials.slice(before)).toEqual([{ action: 'quality_stats', bucketId: w.ultrasound }]);
    // A member holding no statistics action anywhere: 403 for the group too.
    const plain = await get(w.plain.token, `statistics/quality?${NOV}&groupId=${w.groupId}`);
    expect(plain.statusCode).toBe(403);
    expect((await denialsOf(t, w.plain.accountId)).map((d) => d.action)).toEqual(['quality_stats']);
  });

  it('answers 403 StatisticsDisabled for a group with enableStat off, audited', async () => {
    const res = await get(w.offAdmin.token, `statistics/quality?${NOV}&groupId=${w.offGroupId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('StatisticsDisabled');
    expect((await denialsOf(t, w.offAdmin.accountId)).map((d) => d.action)).toEqual(['quality_stats']);
  });

  it('counts every organization of the group for a group admin', async () => {
    const res = await get(w.admin.token, `statistics/quality?${NOV}&groupId=${w.groupId}&by=bucket`);
    expect(res.statusCode, res.body).toBe(200);
    const table = res.json() as StatTable;
    expect(table.buckets.map((b) => b.name).sort()).toEqual(['统计放射科', '统计超声科']);
    expect(table.totals.graded).toBe(4);
    expect(Object.fromEntries(table.rows.map((r) => [r.label, r.values.graded]))).toEqual({
      统计放射科: 3,
      统计超声科: 1,
    });
    // Without a group: the same, every organization where it holds the action.
    const all = (await get(w.admin.token, `statistics/quality?${NOV}`)).json() as StatTable;
    expect(all.buckets).toHaveLength(2);
    expect(all.totals.graded).toBe(4);
  });

  it('counts only the organization where a member holds the action', async () => {
    for (const url of [`statistics/quality?${NOV}`, `statistics/quality?${NOV}&groupId=${w.groupId}`]) {
      const res = await get(w.head.token, url);
      expect(res.statusCode, url).toBe(200);
      const table = res.json() as StatTable;
      expect(table.buckets).toEqual([{ id: w.radiology, name: '统计放射科' }]);
      expect(table.totals.graded).toBe(3);
    }
  });
});
