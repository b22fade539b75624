// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExamFilter } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { studiesDrillLink } from '../../shared/links/studyLinks';
import type { RecordedRequest } from '../../test/fakeApi';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

const ACTIONS = ['exam_get', 'report_upsert'];
const DRILL: ExamFilter[] = [
  { field: 'reportWriterId', operator: 'eq', values: ['u-li'] },
  { field: 'reportApproved', operator: 'range', values: ['2026-10-01', '2026-10-31'] },
  { field: 'bucketId', operator: 'in', values: ['b1'] },
];

function open(path: string) {
  return openStudiesAs(
    { username: 'doctor', name: 'Dr. Li', level: 'member', actions: ACTIONS },
    examItemOf(),
    {},
    path,
  );
}
const lastFilters = (requests: RecordedRequest[]) =>
  (requests.filter((r) => r.path === 'exams/page-query').at(-1)?.body as { filters: ExamFilter[] } | undefined)
    ?.filters ?? [];

// The whole signed-in shell renders in jsdom: on a machine shared by many test runs that takes a while.
describe('/studies with filters from a link (issue 26 drill-down)', { timeout: 40_000 }, () => {
  it('applies the filters on load, shows what they stand for, and clears them', async () => {
    const { api } = open(studiesDrillLink({ filters: DRILL, from: '李医生' }));
    expect(
      await screen.findByText('From statistics: 李医生 · 2026-10-01 to 2026-10-31 · Approved', {}, { timeout: 25_000 }),
    ).toBeTruthy();
    await waitFor(() => expect(lastFilters(api.requests)).toEqual(expect.arrayContaining(DRILL)));
    // The list never asked without them first.
    for (const r of api.requests.filter((x) => x.path === 'exams/page-query')) {
      expect((r.body as { filters: ExamFilter[] }).filters).toEqual(expect.arrayContaining(DRILL));
    }

    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear the statistics filters' }));
    await waitFor(() => expect(screen.queryByText(/From statistics/)).toBeNull());
    await waitFor(() => expect(lastFilters(api.requests).some((f) => f.field === 'reportWriterId')).toBe(false));
  });

  it('ignores filters the list would refuse', async () => {
    const bad = encodeURIComponent(JSON.stringify([{ field: 'reportPositive', operator: 'eq', values: ['yes'] }]));
    const { api } = open(`/studies?filters=${bad}`);
    await waitFor(() => expect(api.requests.some((r) => r.path === 'exams/page-query')).toBe(true), {
      timeout: 25_000,
    });
    expect(lastFilters(api.requests).some((f) => f.field === 'reportPositive')).toBe(false);
    expect(screen.queryByText(/From statistics/)).toBeNull();
  });
});
