import type { DictionaryItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { reportExtensions } from './ReportExtensionFields';

const item = (id: string, sort: number, data: Record<string, unknown>): DictionaryItem => ({
  id,
  name: `name-${id}`,
  sort,
  data,
});

describe('reportExtensions', () => {
  it('keeps the report-scoped configs in order, with their label, type, options and required flag', () => {
    const configs = reportExtensions([
      item('size', 2, { label: 'Nodule size', type: 'number', scope: 'report', required: true }),
      item('bed', 1, { label: 'Bed', type: 'text' }),
      item('lung', 1, { label: '', type: 'select', options: ['L', 'R', 3], scope: 'report' }),
      item('exam', 0, { label: 'Exam only', type: 'date', scope: 'exam' }),
    ]);
    expect(configs).toEqual([
      { id: 'lung', label: 'name-lung', type: 'select', options: ['L', 'R'], required: false },
      { id: 'size', label: 'Nodule size', type: 'number', options: [], required: true },
    ]);
  });
});
