import { describe, expect, it } from 'vitest';
import { predictedWait, queuePredictionSchema } from './calling-wait.js';

describe('predictedWait (issue 26)', () => {
  it('is the pace times the place, in whole minutes, at least 1', () => {
    expect(predictedWait(6, 1)).toBe(6);
    expect(predictedWait(6, 3)).toBe(18);
    expect(predictedWait(6.5, 3)).toBe(20); // 19.5 rounds up
    expect(predictedWait(0.2, 1)).toBe(1);
  });

  it('is null without a pace (too little history) or a place, never 0', () => {
    expect(predictedWait(null, 3)).toBeNull();
    expect(predictedWait(Number.NaN, 3)).toBeNull();
    expect(predictedWait(6, 0)).toBeNull();
  });

  it('a prediction refuses a wait of 0 minutes', () => {
    const base = { queueTypeId: 't1', paceMinutes: 6, samples: 5, waitingCount: 0 };
    expect(queuePredictionSchema.safeParse({ ...base, predictedWaitMinutes: 6 }).success).toBe(true);
    expect(queuePredictionSchema.safeParse({ ...base, predictedWaitMinutes: null }).success).toBe(true);
    expect(queuePredictionSchema.safeParse({ ...base, predictedWaitMinutes: 0 }).success).toBe(false);
  });
});
