import { describe, expect, it } from 'vitest';
import { pageWindow } from './exams.list.service.js';

describe('pageWindow (spec 000 §5 exam list)', () => {
  it.each([
    [undefined, undefined, 0, 50],
    [-5, 20, 0, 20],
    [2.9, 20, 2, 20],
    [0, 0, 0, 50],
    [0, -3, 0, 50],
    [0, 0.5, 0, 50],
    [0, 1, 0, 1],
    [0, 200, 0, 200],
    [0, 10_000, 0, 200],
    [Number.NaN, Number.POSITIVE_INFINITY, 0, 50],
  ])('skip %s, limit %s → skip %s, limit %s', (skip, limit, s, l) => {
    expect(pageWindow(skip, limit)).toEqual({ skip: s, limit: l });
  });
});
