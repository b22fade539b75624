// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorAnswer, type FakeHandler } from '../../test/fakeApi';
import { buttonByText } from '../../test/queries';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

const exam = examItemOf();

/** /studies for a caller holding `actions` in the exam's organization at `level`. */
function openStudies(level: string, actions: string[], extra: Record<string, FakeHandler> = {}) {
  return openStudiesAs({ username: 'notetaker', name: 'Qian', level, actions }, exam, extra);
}

const REPORT_ONLY = ['report_co_exam', 'report_print', 'report_trace', 'report_upsert'];

// The whole signed-in shell renders in jsdom: on a machine shared by many test runs that takes a while.
describe('/studies shows only the buttons the caller holds', { timeout: 40_000 }, () => {
  it('gives a note-taker (collaborator, report rights only) the report and nothing that deletes, exports or uploads', async () => {
    const { api } = openStudies('collaborator', REPORT_ONLY);
    // The first render loads the route chunks: allow it longer than a finding on a warm page.
    expect(await screen.findByTestId('report-e1', {}, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'buckets/uploadable')).toBe(true));
    expect(screen.queryByText('Export', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Deleted exams', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Upload exams', { selector: 'button span' })).toBeNull();
    // No download, print mark or delete in the row: no menu at all.
    expect(screen.queryByTestId('more-e1')).toBeNull();
    // It prints reports, so the print bar is there.
    expect(screen.getByTestId('print-reports-bar')).toBeTruthy();
  });

  it('shows a doctor without export_exams and exam_delete no Export and no deleted view', async () => {
    openStudies('member', ['exam_get', 'exam_update', 'report_upsert']);
    expect(await screen.findByTestId('more-e1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Export', { selector: 'button span' })).toBeNull();
    expect(screen.queryByText('Deleted exams', { selector: 'button span' })).toBeNull();
    // Without report_print anywhere there is no printing from the list either.
    expect(screen.queryByTestId('print-reports-bar')).toBeNull();
  });

  it('says a refused export in words, never nothing', async () => {
    openStudies('member', ['exam_get', 'export_exams', 'exam_delete'], {
      'POST exports/exams': () => errorAnswer(403, 'InsufficientPermissions', { action: 'export_exams' }),
    });
    await screen.findByText('Export', { selector: 'button span' }, { timeout: 10_000 });
    expect(buttonByText('Deleted exams')).toBeTruthy();
    await userEvent.setup().click(buttonByText('Export'));
    expect(await screen.findByText('You do not have permission to do this.')).toBeTruthy();
  });
});
