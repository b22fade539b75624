import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callKey, type Call } from './call.js';
import { reportCalls } from './report-calls.js';
import { reportLibraryCalls } from './report-library-calls.js';
import { reportPrintCalls } from './report-print-calls.js';
import { reportSafetyCalls } from './report-safety-calls.js';
import { reportSharingCalls } from './report-sharing-calls.js';
import { REPORT_ACTION_PATHS, REPORT_ACTIONS } from './reports.js';

const tables: Record<string, Record<string, Call>> = {
  reportCalls,
  reportLibraryCalls,
  reportSafetyCalls,
  reportSharingCalls,
  reportPrintCalls,
};

describe('reportCalls', () => {
  it('has one POST entry per report action, at the path REPORT_ACTION_PATHS names', () => {
    for (const action of REPORT_ACTIONS) {
      const call = reportCalls[action];
      expect(callKey(call)).toBe(`POST reports/:reportId/${REPORT_ACTION_PATHS[action]}`);
    }
  });
});

describe.each(Object.entries(tables))('%s', (_name, calls) => {
  it('names every call once', () => {
    const keys = Object.values(calls).map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has a params schema with exactly the path's :params", () => {
    for (const call of Object.values(calls)) {
      const inPath = call.path
        .split('/')
        .filter((s) => s.startsWith(':'))
        .map((s) => s.slice(1));
      const inSchema = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
      expect(inSchema.sort(), callKey(call)).toEqual(inPath.sort());
    }
  });

  it('answers nothing on a 204', () => {
    for (const call of Object.values(calls).filter((c) => c.status === 204)) {
      expect(call.answer, callKey(call)).toBeUndefined();
    }
  });
});

describe('the report areas together', () => {
  it('name every call once across their tables', () => {
    const keys = Object.values(tables).flatMap((calls) => Object.values(calls).map(callKey));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('take the uploaded images as the body itself, not as JSON', () => {
    for (const call of [reportCalls.addImage, reportLibraryCalls.addSampleGraph]) {
      expect(call.body, callKey(call)).toBeUndefined();
      expect(call.status).toBe(201);
    }
  });

  it('answer the report PDF as a file, with no answer schema', () => {
    expect(reportPrintCalls.pdf.answer).toBeUndefined();
    expect(reportPrintCalls.pdf.query?.safeParse({ lang: 'en' }).success).toBe(true);
  });

  it('give the public shared-report calls a query and no path parameters', () => {
    const { sharedReport, coExams, pastExams, webReport } = reportSharingCalls;
    for (const call of [sharedReport, coExams, pastExams, webReport]) {
      expect(call.method).toBe('GET');
      expect(call.params).toBeUndefined();
      expect(call.query).toBeDefined();
    }
  });
});
