import { describe, expect, it } from 'vitest';
import { callKey } from './call.js';
import { reportCalls } from './report-calls.js';
import { REPORT_ACTION_PATHS, REPORT_ACTIONS } from './reports.js';

describe('reportCalls', () => {
  it('has one POST entry per report action, at the path REPORT_ACTION_PATHS names', () => {
    for (const action of REPORT_ACTIONS) {
      const call = reportCalls[action];
      expect(callKey(call)).toBe(`POST reports/:reportId/${REPORT_ACTION_PATHS[action]}`);
    }
  });

  it('names every call once', () => {
    const keys = Object.values(reportCalls).map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
