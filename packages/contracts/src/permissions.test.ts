import { describe, expect, it } from 'vitest';
import { ACTION_CATALOGUE, ALL_ACTIONS, categoryOf, isAction, reportSourceFor } from './permissions.js';

describe('action catalogue (spec 000 §6)', () => {
  it('has every action once, in its category', () => {
    expect(new Set(ALL_ACTIONS).size).toBe(ALL_ACTIONS.length);
    // 8 exam, 4 attachment, 1 template, 9 report, 4 registry, 12 statistics, 8 consultation, 2 quality, 6 order, 2 queue, 2 other
    expect(ALL_ACTIONS).toHaveLength(58);
    for (const [category, actions] of Object.entries(ACTION_CATALOGUE)) {
      for (const a of actions) expect(categoryOf(a)).toBe(category);
    }
  });
  it('recognises actions', () => {
    expect(isAction('report_approval')).toBe(true);
    expect(isAction('bucket_manage')).toBe(false);
  });
});

describe('reportSourceFor', () => {
  it('forces all for a single entry of type 2', () => {
    expect(reportSourceFor([{ type: 2 }])).toBe(0);
    expect(reportSourceFor([{ type: 2 }], 1)).toBe(0);
  });
  it('keeps the stored choice or defaults to report otherwise', () => {
    expect(reportSourceFor([])).toBe(1);
    expect(reportSourceFor([{ type: 1 }])).toBe(1);
    expect(reportSourceFor([{ type: 2 }, { type: 1 }])).toBe(1);
    expect(reportSourceFor([{ type: 2 }, { type: 2 }], 2)).toBe(2);
  });
});
