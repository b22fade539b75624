import { hospitalDate } from '@yyp/contracts';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets, exams, reports } from '../db/schema.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { seedDemoHistory } from './demo-history.js';

/** The demo's reporting history (seed/demo-history.ts), which the statistics count at first start. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('demo report history', () => {
  it('stores approved reports of RH-RAD between 8 and 50 days back, once', async () => {
    const db = t.db.database.db;
    const now = new Date('2026-11-28T03:00:00Z');
    const n = await seedDemoHistory(db, now);
    expect(n).toBeGreaterThan(100);
    const rows = await db
      .select({ bucket: buckets.code, created: exams.created, status: reports.status, content: reports.content })
      .from(exams)
      .innerJoin(buckets, eq(buckets.id, exams.bucketId))
      .innerJoin(reports, eq(reports.id, exams.id))
      .where(like(exams.accessionNumber, 'RH-H-%'));
    expect(rows).toHaveLength(n);
    const days = rows.map((r) => hospitalDate(r.created));
    expect(rows.every((r) => r.bucket === 'RH-RAD' && r.status === 'corrected')).toBe(true);
    expect(days.every((d) => d >= hospitalDate(now, -50) && d <= hospitalDate(now, -8))).toBe(true);
    const positive = rows.filter((r) => r.content.positive).length;
    expect(positive).toBeGreaterThan(0);
    expect(positive).toBeLessThan(n);
    // A second start adds nothing.
    expect(await seedDemoHistory(db, now)).toBe(0);
  });
});
