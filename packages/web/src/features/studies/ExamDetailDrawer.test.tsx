// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ExamDetail } from '@yyp/contracts';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../test/appProviders';
import { installFakeApi } from '../../test/fakeApi';
import { examDetailOf } from '../../test/reportEditorFixture';
import { ExamDetailDrawer, filledItems } from './ExamDetailDrawer';

function exam(overrides: Partial<ExamDetail> = {}): ExamDetail {
  return examDetailOf({
    patientName: 'Zhang^San',
    patientSource: '',
    applyDept: '',
    orderPlacer: 'Dr. Wang',
    reportStatus: 'none',
    inpatientId: '',
    outpatientId: '',
    bedNum: '',
    physicalExamId: '',
    clinicImpression: '',
    institution: '',
    tags: [],
    masked: false,
    ...overrides,
  });
}

describe('exam detail drawer', () => {
  it('shows only the labels that have a value, with no empty cell', async () => {
    installFakeApi({ 'GET exams/e1/detail': () => ({ status: 200, body: exam() }) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter>
          <ExamDetailDrawer examId="e1" onClose={() => undefined} onChanged={() => undefined} />
        </MemoryRouter>
      </AppProviders>,
    );
    await screen.findByText('Dr. Wang');
    const labels = [...document.querySelectorAll('.ant-descriptions-item-label')].map((e) => e.textContent);
    expect(labels).toEqual([
      'Patient name',
      'Patient ID',
      'Sex',
      'Age (years)',
      'Accession no.',
      'Exam time',
      'Organization',
      'Ordering doctor',
      'Report status',
    ]);
    const cells = [...document.querySelectorAll('.ant-descriptions-item-content')];
    expect(cells.filter((c) => (c.textContent ?? '').trim() === '')).toEqual([]);
    // Nine pairs on rows of two: the last one spans its row instead of leaving a blank half.
    expect(cells.at(-1)?.getAttribute('colspan')).toBe('3');
  });

  it('widens a lone item when a wide one or the end follows it', () => {
    const spans = (items: [string, string, number?][]) => filledItems(items).map((i) => [i.key, i.span]);
    expect(
      spans([
        ['a', 'x'],
        ['b', ''],
        ['c', 'long', 2],
        ['d', 'y'],
        ['e', 'z'],
        ['f', ' '],
      ]),
    ).toEqual([
      ['a', 2],
      ['c', 2],
      ['d', 1],
      ['e', 1],
    ]);
    expect(
      spans([
        ['a', 'x'],
        ['b', 'y'],
        ['c', 'z'],
      ]).map(([, s]) => s),
    ).toEqual([1, 1, 2]);
  });
});
