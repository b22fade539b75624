import type { ExamItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { printSheetsPath, sheetExamIds, sheetsRefusal, splitPrintable, tooManySheets } from './printSheets';

const exam = (id: string, bucketId: string, reportStatus: ExamItem['reportStatus']) =>
  ({ id, bucketId, reportStatus }) as ExamItem;

describe('printing sheets', () => {
  it('names the exams in the address and reads them back without blanks and repeats', () => {
    expect(printSheetsPath(['a', 'b'])).toBe('/studies/print-sheets?examIds=a%2Cb');
    expect(sheetExamIds(new URLSearchParams('examIds=a%2Cb'))).toEqual(['a', 'b']);
    expect(sheetExamIds(new URLSearchParams('examIds=b,,a, b'))).toEqual(['b', 'a']);
    expect(sheetExamIds(new URLSearchParams(''))).toEqual([]);
    expect(tooManySheets(Array.from({ length: 21 }, (_, i) => String(i)))).toBe(true);
    expect(tooManySheets(['a'])).toBe(false);
  });

  it('prints only approved reports where the caller prints', () => {
    const split = splitPrintable(
      [
        exam('a', 'rad', 'corrected'),
        exam('b', 'rad', 'printed'),
        exam('c', 'rad', 'final'),
        exam('d', 'us', 'corrected'),
        exam('e', 'rad', 'none'),
      ],
      (bucketId) => bucketId === 'rad',
    );
    expect(split.printable.map((e) => e.id)).toEqual(['a', 'b']);
    expect(split.notApproved.map((e) => e.id)).toEqual(['c', 'e']);
    expect(split.notAllowed.map((e) => e.id)).toEqual(['d']);
  });

  it('groups the exams of a refusal by day or by organization', () => {
    const days = new ApiError('ValidationError', 400, 'x', {
      problem: 'notSameDay',
      days: { a: '20250301', b: '20250302', c: '20250301' },
    });
    expect(sheetsRefusal(days, ['a', 'b', 'c'])).toEqual({
      problem: 'notSameDay',
      groups: [
        { key: '20250301', examIds: ['a', 'c'] },
        { key: '20250302', examIds: ['b'] },
      ],
    });
    const orgs = new ApiError('ValidationError', 400, 'x', {
      problem: 'differentOrganizations',
      organizations: { a: 'rad', b: 'us' },
    });
    expect(sheetsRefusal(orgs, ['a', 'b'])?.groups).toEqual([
      { key: 'rad', examIds: ['a'] },
      { key: 'us', examIds: ['b'] },
    ]);
    expect(sheetsRefusal(new ApiError('ValidationError', 400, 'x', { field: 'examIds' }), ['a'])).toBeNull();
    expect(sheetsRefusal(new ApiError('NotFound', 404), ['a'])).toBeNull();
    expect(sheetsRefusal(new Error('x'), ['a'])).toBeNull();
  });
});
