// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PermissionEntry } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../test/fakeApi';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';
import { REPORT_SOURCE_STORAGE_KEY, reportSourceChoice, reportSourceFilters } from './reportSource';

const ACTIONS = ['exam_get', 'report_upsert'];
const entry = (bucketId: string, type: number): PermissionEntry => ({
  bucketId,
  groupId: 'g1',
  type,
  accessLevel: 'member',
  actions: ACTIONS,
});

/** /studies for the demo user (id u-doctor) with these permission entries. */
function openWith(entries: PermissionEntry[]) {
  return openStudiesAs({ username: 'doctor', name: 'Dr. Li', level: 'member', actions: ACTIONS }, examItemOf(), {
    'GET accounts/me/permissions': () => ({ status: 200, body: entries }),
    // One exam per report source asked for: e-all, e-1 or e-2.
    'POST exams/page-query': (r) => {
      const source = (r.body as { filters: { field: string; values: string[] }[] }).filters.find(
        (f) => f.field === 'reportSource',
      )?.values[0];
      return { status: 200, body: { exams: [examItemOf({ id: `e-${source ?? 'all'}` })], count: 1 } };
    },
  });
}

/** The report source of each of the list's requests, in order ('' for one without). */
function sources(requests: RecordedRequest[]): string[] {
  return requests
    .filter((r) => r.path === 'exams/page-query')
    .map((r) => {
      const body = r.body as { filters: { field: string; values: string[] }[] };
      return body.filters.find((f) => f.field === 'reportSource')?.values[0] ?? '';
    });
}
const lastSource = (requests: RecordedRequest[]) => sources(requests).at(-1) ?? '';

const selectedLabel = () =>
  screen.getByTestId('report-source').querySelector('.ant-select-selection-item')?.textContent ??
  screen.getByTestId('report-source').textContent;

describe('reportSourceChoice', () => {
  it('is not offered without an expert organization, and filters nothing then', () => {
    const choice = reportSourceChoice([entry('b1', 1)], 2);
    expect(choice).toEqual({ offered: false, forced: false, value: 0 });
    expect(reportSourceFilters(choice)).toEqual([]);
  });
  it('defaults to own reports beside an expert organization, or the stored choice', () => {
    expect(reportSourceChoice([entry('b1', 1), entry('x', 2)], undefined)).toEqual({
      offered: true,
      forced: false,
      value: 1,
    });
    const remote = reportSourceChoice([entry('b1', 1), entry('x', 2)], 2);
    expect(reportSourceFilters(remote)).toEqual([{ field: 'reportSource', operator: 'eq', values: ['2'] }]);
    expect(reportSourceFilters(reportSourceChoice([entry('b1', 1), entry('x', 2)], 0))).toEqual([]);
  });
  it('is forced to all by a single type-2 entry, whatever was stored', () => {
    expect(reportSourceChoice([entry('x', 2)], 2)).toEqual({ offered: true, forced: true, value: 0 });
  });
});

// The whole signed-in shell renders in jsdom: on a machine shared by many test runs that takes a while.
describe('/studies report source select', { timeout: 40_000 }, () => {
  it('is not shown to a caller without an expert organization, whose list is not filtered by it', async () => {
    const { api } = openWith([entry('b1', 1)]);
    expect(await screen.findByTestId('report-e-all', {}, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    expect(screen.queryByTestId('report-source')).toBeNull();
    expect(lastSource(api.requests)).toBe('');
  });

  it('defaults to own reports, asks for remote reports when picked, and remembers the choice', async () => {
    const { api } = openWith([entry('b1', 1), entry('x', 2)]);
    await screen.findByTestId('report-source', {}, { timeout: 25_000 });
    expect(await screen.findByTestId('report-e-1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(selectedLabel()).toContain('Own reports');
    // The list waited for the permissions: it never asked for all exams first.
    expect(sources(api.requests)).toEqual(['1']);

    const user = userEvent.setup();
    await user.click(within(screen.getByTestId('report-source')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Remote reports'));
    expect(await screen.findByTestId('report-e-2')).toBeTruthy();
    expect(lastSource(api.requests)).toBe('2');
    expect(localStorage.getItem(`${REPORT_SOURCE_STORAGE_KEY}.u-doctor`)).toBe('2');

    // Back on the page later: the stored choice is the default.
    cleanup();
    const again = openWith([entry('b1', 1), entry('x', 2)]);
    await screen.findByTestId('report-source', {}, { timeout: 25_000 });
    expect(await screen.findByTestId('report-e-2', {}, { timeout: 10_000 })).toBeTruthy();
    expect(lastSource(again.api.requests)).toBe('2');
    expect(selectedLabel()).toContain('Remote reports');

    await user.click(within(screen.getByTestId('report-source')).getByRole('combobox'));
    await user.click(await screen.findByTitle('All'));
    expect(await screen.findByTestId('report-e-all')).toBeTruthy();
    expect(lastSource(again.api.requests)).toBe('');
    expect(localStorage.getItem(`${REPORT_SOURCE_STORAGE_KEY}.u-doctor`)).toBe('0');
    expect(selectedLabel()).toContain('All');
  });

  it('shows all, disabled, with the reason, to a caller of a single expert organization', async () => {
    localStorage.setItem(`${REPORT_SOURCE_STORAGE_KEY}.u-doctor`, '2');
    const { api } = openWith([entry('x', 2)]);
    await screen.findByTestId('report-source', {}, { timeout: 25_000 });
    expect(selectedLabel()).toContain('All');
    expect(within(screen.getByTestId('report-source')).getByRole('combobox')).toHaveProperty('disabled', true);
    await waitFor(() => expect(api.requests.some((r) => r.path === 'exams/page-query')).toBe(true));
    expect(lastSource(api.requests)).toBe('');
    await userEvent.setup().hover(screen.getByTestId('report-source-forced'));
    expect(
      await screen.findByText('You belong only to a remote reading organization: its list holds every report source.'),
    ).toBeTruthy();
  });
});
