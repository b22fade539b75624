// @vitest-environment jsdom
import { render } from '@testing-library/react';
import type { DiffTrace, ReportTraceItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { traceStepOf } from '../../../test/reportEditorFixture';
import { DiffView, hasChanges, mergeParts } from './DiffView';

const step = (id: string, action: ReportTraceItem['action']) => traceStepOf(id, action, { statusTo: 'final' });

describe('diff rendering', () => {
  it('joins neighbouring parts of one kind and drops empty ones', () => {
    expect(
      mergeParts([
        { op: 'equal', text: '双肺' },
        { op: 'delete', text: '纹理' },
        { op: 'delete', text: '增多' },
        { op: 'insert', text: '' },
        { op: 'insert', text: '清晰' },
      ]),
    ).toEqual([
      { op: 'equal', text: '双肺' },
      { op: 'delete', text: '纹理增多' },
      { op: 'insert', text: '清晰' },
    ]);
    expect(hasChanges([{ op: 'equal', text: 'same' }])).toBe(false);
    expect(hasChanges([{ op: 'insert', text: 'x' }])).toBe(true);
  });

  it('marks insertions with <ins> and deletions with <del>, field by field', () => {
    const diff: DiffTrace = {
      from: step('t1', 'save'),
      to: step('t2', 'submit'),
      fields: [
        {
          field: 'findings',
          parts: [
            { op: 'equal', text: 'The lungs are ' },
            { op: 'delete', text: 'hazy' },
            { op: 'insert', text: 'clear' },
            { op: 'equal', text: '.' },
          ],
        },
        { field: 'conclusion', parts: [{ op: 'equal', text: 'Normal.' }] },
      ],
    };
    const { container, getByText } = render(<DiffView diff={diff} />);
    expect([...container.querySelectorAll('ins')].map((e) => e.textContent)).toEqual(['clear']);
    expect([...container.querySelectorAll('del')].map((e) => e.textContent)).toEqual(['hazy']);
    expect(container.querySelector('.yyp-diff')?.textContent).toBe('The lungs are hazyclear.');
    expect(getByText('Findings')).toBeTruthy();
    expect(getByText('Conclusion')).toBeTruthy();
    expect(getByText('No change.')).toBeTruthy();
  });
});
