// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { DiffTrace, ReportTraceItem } from '@yyp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../test/appProviders';
import { installFakeApi } from '../../../test/fakeApi';
import { traceStepOf } from '../../../test/reportEditorFixture';
import { TraceTab } from './TraceTab';

const step = (id: string, action: ReportTraceItem['action']) => traceStepOf(id, action);

const diff: DiffTrace = {
  from: step('t1', 'save'),
  to: step('t2', 'submit'),
  fields: [{ field: 'findings', parts: [{ op: 'insert', text: 'clear' }] }],
};

const originalScroll = Element.prototype.scrollIntoView;
afterEach(() => {
  Element.prototype.scrollIntoView = originalScroll;
});

describe('report trace', () => {
  it('brings the comparison of two steps into view when it opens', async () => {
    installFakeApi({
      'GET reports/e1/report-trace': () => ({
        status: 200,
        body: { traces: [step('t1', 'save'), step('t2', 'submit')] },
      }),
      'GET reports/e1/diff-trace': () => ({ status: 200, body: diff }),
    });
    // jsdom has no layout: record which element was asked to scroll into view.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <AppProviders queryClient={queryClient}>
        <TraceTab reportId="e1" canTrace />
      </AppProviders>,
    );
    fireEvent.click(await screen.findByLabelText('Step 1'));
    fireEvent.click(screen.getByLabelText('Step 2'));
    expect(scrolled).toEqual([]);
    fireEvent.click(screen.getByText('Compare', { selector: 'button span, button' }));
    const view = await screen.findByTestId('trace-diff');
    await waitFor(() => expect(scrolled).toHaveLength(1));
    expect(scrolled[0]!.contains(view)).toBe(true);
  });
});
