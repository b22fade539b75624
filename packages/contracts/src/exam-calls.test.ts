import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachmentCalls } from './attachment-calls.js';
import { callKey, callPath, type Call } from './call.js';
import { examCalls, exportCalls } from './exam-calls.js';
import { examQuerySchema } from './exams.js';
import { reportCalls } from './report-calls.js';
import { archiveCalls, uploadCalls } from './upload-calls.js';

const sets = { examCalls, exportCalls, uploadCalls, archiveCalls, attachmentCalls } satisfies Record<
  string,
  Record<string, Call>
>;
const calls: Call[] = Object.values(sets).flatMap((set) => Object.values<Call>(set));
const paramNames = (call: Call) => [...call.path.matchAll(/:([A-Za-z0-9]+)/g)].map((m) => m[1]!);
/** the route a call takes, whatever its parameters are named (reports/:examId/x is reports/:reportId/x) */
const route = (call: Call) => `${call.method} ${call.path.replace(/:[A-Za-z0-9]+/g, ':')}`;

/** The calls answered with a file (a zip, a spreadsheet), not a JSON schema. */
const files = [examCalls.studyPackage, examCalls.download, exportCalls.exams];

describe('the exam, export, upload, archive and attachment calls', () => {
  it('name every route once, also beside the report calls that share the reports/{id} prefix', () => {
    const routes = [...calls, ...Object.values<Call>(reportCalls)].map(route);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(calls.map((c) => [callKey(c), c] as const))('%s: params schema has exactly its path names', (_k, call) => {
    const shape = call.params instanceof z.ZodObject ? Object.keys(call.params.shape) : [];
    expect(shape.sort()).toEqual(paramNames(call).sort());
  });

  it('leave the answer out only for a 204 or a call answered with a file', () => {
    const without = calls.filter((c) => c.answer === undefined);
    expect(without.filter((c) => c.status !== 204)).toEqual(files);
  });

  it('give the three study list queries the one list body', () => {
    for (const call of [examCalls.page, examCalls.count, examCalls.deletedPage]) {
      expect([call.method, call.body]).toEqual(['POST', examQuerySchema]);
    }
  });

  it('answer opened upload sessions and added modalities with 201, as the server always did', () => {
    expect([uploadCalls.start.status, uploadCalls.byToken.status, archiveCalls.addModality.status]).toEqual([
      201, 201, 201,
    ]);
  });

  it('take one or several organizations in the reporter look-up', () => {
    const query = examCalls.reporters.query ?? z.never();
    expect(query.safeParse({ bucketIds: 'b1' }).success).toBe(true);
    expect(query.safeParse({ bucketIds: ['b1', 'b2'] }).success).toBe(true);
    expect(query.safeParse({}).success).toBe(false);
  });

  it('encode the ids it puts in a path', () => {
    expect(callPath(examCalls.removeTag, { examId: 'e 1', tagId: 't/2' })).toBe('reports/e%201/tags/t%2F2');
    expect(callPath(examCalls.merge, { examId: 'a', otherId: 'b' })).toBe('exams/a/merge-study/b');
  });
});
