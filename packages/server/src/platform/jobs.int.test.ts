import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs as jobsTable } from '../db/schema.js';
import { startTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

describe('job queue', () => {
  it('runs a job, and retries a failing one with backoff until it succeeds', async () => {
    const jobs = t.services.jobs;
    const seen: number[] = [];
    let failures = 2;
    jobs.register('test.flaky', {
      run: async (job) => {
        seen.push(job.attempts);
        if (failures-- > 0) throw new Error('not yet');
      },
    });
    const id = await jobs.enqueue(t.db.database.db, 'test.flaky', { n: 1 });
    expect(await jobs.runDue()).toBe(1);
    expect(await jobs.find(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'not yet' });
    // Not due again until the backoff passed.
    expect(await jobs.runDue()).toBe(0);
    t.clock.advance(31_000);
    expect(await jobs.runDue()).toBe(1);
    t.clock.advance(121_000);
    expect(await jobs.runDue()).toBe(1);
    expect(await jobs.find(id)).toMatchObject({ status: 'done', attempts: 3, lastError: null });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives up after the last attempt and says so', async () => {
    const jobs = t.services.jobs;
    const gaveUp: number[] = [];
    jobs.register('test.broken', {
      run: () => Promise.reject(new Error('always')),
      onGiveUp: async (job) => {
        gaveUp.push(job.id);
      },
    });
    const id = await jobs.enqueue(t.db.database.db, 'test.broken', {}, 2);
    await jobs.runDue();
    t.clock.advance(31_000);
    await jobs.runDue();
    expect(await jobs.find(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'always' });
    expect(gaveUp).toEqual([id]);
    t.clock.advance(3600_000);
    expect(await jobs.runDue()).toBe(0);
  });

  it('never runs one job twice at once, and takes back a job whose worker died', async () => {
    const jobs = t.services.jobs;
    let runs = 0;
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    jobs.register('test.slow', {
      run: async () => {
        runs++;
        await blocked;
      },
    });
    const id = await jobs.enqueue(t.db.database.db, 'test.slow', {});
    const first = jobs.runDue(1);
    // While the first worker holds it, a second finds nothing due.
    await new Promise((r) => setTimeout(r, 100));
    expect(await jobs.runDue(1)).toBe(0);
    release();
    await first;
    expect(runs).toBe(1);
    expect(await jobs.find(id)).toMatchObject({ status: 'done' });

    // A job left running by a dead worker is taken again once its lease ran out.
    const orphan = await jobs.enqueue(t.db.database.db, 'test.slow', {});
    const lease = new Date(t.clock.now().getTime() + 60_000);
    await t.db.database.db
      .update(jobsTable)
      .set({ status: 'running', attempts: 1, lockedUntil: lease })
      .where(eq(jobsTable.id, orphan));
    expect(await jobs.runDue(1)).toBe(0);
    t.clock.advance(61_000);
    expect(await jobs.runDue(1)).toBe(1);
    expect(await jobs.find(orphan)).toMatchObject({ status: 'done', attempts: 2 });
  });
});
