import { describe, expect, it } from 'vitest';
import { uploadBlock, type PlanState } from './plan.js';

const now = new Date('2026-11-22T08:00:00Z');
const later = new Date('2026-12-01T00:00:00Z');
const earlier = new Date('2026-11-01T00:00:00Z');

describe('uploadBlock: only a private organization with quota left and a valid subscription receives uploads', () => {
  const cases: [string, PlanState, number, ReturnType<typeof uploadBlock>][] = [];
  for (const isPrivate of [false, true]) {
    for (const planKind of [null, 'period', 'oneTime']) {
      for (const planExpiresAt of [null, earlier, now, later]) {
        for (const [planQuota, planUsed] of [
          [null, 5],
          [10, 0],
          [10, 9],
          [10, 10],
          [0, 0],
        ] as const) {
          for (const newStudies of [0, 1, 2]) {
            const expected = !isPrivate
              ? null
              : planKind === null || (planExpiresAt !== null && planExpiresAt <= now)
                ? 'SubscriptionExpired'
                : newStudies > 0 && planQuota !== null && planUsed + newStudies > planQuota
                  ? 'BucketFull'
                  : null;
            cases.push([
              `${isPrivate ? 'private' : 'public'} ${planKind} expires ${planExpiresAt?.toISOString() ?? 'never'} ${planUsed}/${planQuota} +${newStudies}`,
              { isPrivate, planKind, planQuota, planUsed, planExpiresAt },
              newStudies,
              expected,
            ]);
          }
        }
      }
    }
  }
  it(`decides ${cases.length} combinations`, () => {
    for (const [name, state, n, expected] of cases) expect(uploadBlock(state, now, n), name).toBe(expected);
  });

  it('counts the boundary: the last study of the quota is accepted, the next is not', () => {
    const state: PlanState = { isPrivate: true, planKind: 'period', planQuota: 3, planUsed: 2, planExpiresAt: later };
    expect(uploadBlock(state, now, 1)).toBeNull();
    expect(uploadBlock({ ...state, planUsed: 3 }, now, 1)).toBe('BucketFull');
    // Instances of a study already received still complete it.
    expect(uploadBlock({ ...state, planUsed: 3 }, now, 0)).toBeNull();
  });
});
