import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../app.js';
import { makeStatWorld, type StatWorld } from '../modules/statistics/statistics-detail.fixture.js';
import { startTestApp, type TestApp } from '../test/harness.js';

/**
 * The tenant-isolation matrix of the statistics routes (issue 26), generated from the router as
 * tenant-isolation.int.test.ts is: the statistics calls are 'account' routes whose organizations
 * come from the query or body (groupId, bucketIds; critical-value's bucketId), so the main matrix,
 * which sends no period, only reaches their validation. Here each is asked with a valid period:
 * group A's ids answer group B's admin 404 and A's member without the statistic's action 403,
 * never data; asked without ids, B's admin is answered from B's organizations only.
 */
let t: TestApp;
let w: StatWorld;
/** Strings of group A that must never appear in an answer to group B. */
let secrets: string[];

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeStatWorld(t);
  secrets = [
    w.groupId,
    w.radiology,
    w.ultrasound,
    '统计放射科',
    '统计超声科',
    'Zhang^San',
    '王书写',
    '李审核',
    '描述不全',
  ];
});
afterAll(async () => {
  await t.close();
});

const PERIOD = { from: '2026-11-01', to: '2026-11-30' };

/** The statistics routes: under statistics/, buckets/allowed*, and a group's quality summary. */
function statisticsRoutes() {
  const base = `${API_PREFIX}/`;
  return t.routes.filter((r) => {
    const path = r.url.slice(base.length);
    return path.startsWith('statistics/') || path.startsWith('buckets/allowed') || path === 'groups/:groupId/quality';
  });
}

function ask(method: string, url: string, token: string, scope: Record<string, string | string[]>) {
  const input = { ...PERIOD, ...scope };
  const path = url.replace(':groupId', encodeURIComponent(String(scope.groupId ?? w.groupId)));
  const query = new URLSearchParams(
    Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v] as [string, string]),
  );
  return t.app.inject({
    method: method as 'GET',
    url: method === 'GET' ? `${path}?${query}` : path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(method === 'GET' ? {} : { payload: JSON.stringify(input) }),
  });
}

/** Routes that take no organizations: the caller's own list (checked for leaks only). */
const unscoped = (url: string) => url.includes('/buckets/allowed');

describe('statistics routes: tenant isolation', () => {
  it('covers every statistics route registered', () => {
    const routes = statisticsRoutes();
    // 11 tables × 3, overview 3 × 2, report-detail 3, billings 3, turnaround 2, allowed 2, group quality 1, critical-value 1
    expect(routes.length).toBeGreaterThanOrEqual(45);
    expect(routes.every((r) => r.auth !== 'public')).toBe(true);
  });

  it("answers group B's admin 404 for group A's group or organizations, showing nothing of them", async () => {
    const failures: string[] = [];
    for (const r of statisticsRoutes().filter((r) => !unscoped(r.url))) {
      const scopes: Record<string, string | string[]>[] = [
        { groupId: w.groupId },
        { bucketIds: [w.radiology], bucketId: w.radiology },
      ];
      for (const scope of scopes) {
        const res = await ask(r.method, r.url, w.otherAdmin.token, scope);
        const named = r.url.includes(':groupId') || 'groupId' in scope || !r.url.endsWith('critical-value');
        if (named && res.statusCode !== 404) {
          failures.push(`${r.method} ${r.url} ${Object.keys(scope)} → ${res.statusCode}`);
        }
        const leaked = secrets.filter((s) => res.body.includes(s));
        if (leaked.length) failures.push(`${r.method} ${r.url} leaks ${leaked.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers group A's member without any statistics action 403, never data", async () => {
    const failures: string[] = [];
    for (const r of statisticsRoutes().filter((r) => !unscoped(r.url))) {
      const res = await ask(r.method, r.url, w.plain.token, { groupId: w.groupId, bucketId: w.radiology });
      if (res.statusCode !== 403) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers group B's admin from B's organizations only when it names none", async () => {
    const failures: string[] = [];
    for (const r of statisticsRoutes().filter((r) => !r.url.includes(':groupId'))) {
      const res = await ask(r.method, r.url, w.otherAdmin.token, {});
      if (res.statusCode >= 500) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
      const leaked = secrets.filter((s) => res.body.includes(s));
      if (leaked.length) failures.push(`${r.method} ${r.url} leaks ${leaked.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });
});
