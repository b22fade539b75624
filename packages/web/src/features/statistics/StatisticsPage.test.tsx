// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  callKey,
  defaultDomainConfig,
  hospitalDate,
  statisticsCalls,
  type AllowedStatistics,
  type StatTable,
} from '@yyp/contracts';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf } from '../../test/tenancyFixtures';

/*
 * jsdom has no canvas for ECharts to draw on: the chart module is stubbed here (and only here),
 * keeping the option it was given and its click handler, so a test can click a bar.
 */
const charts = vi.hoisted(() => ({
  options: [] as unknown[],
  clicks: [] as ((params: { dataIndex: number; name: string }) => void)[],
}));
vi.mock('../../ui/echartsSetup', () => ({
  init: () => ({
    on: (_event: string, handler: (params: { dataIndex: number; name: string }) => void) => charts.clicks.push(handler),
    setOption: (option: unknown) => charts.options.push(option),
    resize: () => undefined,
    dispose: () => undefined,
  }),
}));

const allowed: AllowedStatistics = {
  items: [
    {
      bucketId: 'b1',
      name: 'Radiology',
      groupId: 'g1',
      actions: ['physician_workload_stats', 'positive_rate_stats', 'charge_details_stats'],
    },
    { bucketId: 'b2', name: 'Ultrasound', groupId: 'g1', actions: ['physician_workload_stats'] },
    { bucketId: 'b9', name: 'Other hospital', groupId: 'g2', actions: ['device_workload_stats'] },
  ],
  groups: [
    { id: 'g1', name: 'Renhe Hospital', enableStat: true, isAdmin: true },
    { id: 'g2', name: 'Other group', enableStat: true, isAdmin: false },
  ],
};

function workload(query: URLSearchParams): StatTable {
  return {
    kind: 'report',
    from: query.get('from')!,
    to: query.get('to')!,
    interval: 'day',
    by: 'doctor',
    buckets: [{ id: 'b1', name: 'Radiology' }],
    columns: ['written', 'approved', 'writtenBodyParts'],
    rows: [
      { key: 'u-wang', label: 'Dr. Wang', values: { written: 12, approved: 3, writtenBodyParts: 15 } },
      { key: 'u-li', label: 'Dr. Li', values: { written: 8, approved: 17, writtenBodyParts: 9 } },
    ],
    periods: [{ period: query.get('from')!, values: { written: 20, approved: 20, writtenBodyParts: 24 } }],
    totals: { written: 20, approved: 20, writtenBodyParts: 24 },
    warning: null,
  };
}

function openStatistics(handlers: Record<string, FakeHandler>, path = '/group-statistics') {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'PATCH accounts/me': (r) => ({ status: 200, body: demoUser(r.body as object) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf()] }),
    [callKey(statisticsCalls.allowedStatistics)]: () => ({ status: 200, body: allowed }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  return { api, ...renderApp(path) };
}

/** What /studies asks when a drill lands there; the caller lists exams in b1 (exam_get). */
const studiesHandlers: Record<string, FakeHandler> = {
  'GET accounts/me/permissions': () => ({
    status: 200,
    body: [
      { bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions: ['exam_get', 'statistics_report'] },
    ],
  }),
  'GET custom-search/my': () => ({ status: 200, body: [] }),
  'POST exams/page-query': () => ({ status: 200, body: { exams: [], count: 0 } }),
  'POST exams/newly': () => ({ status: 200, body: { exams: [], count: 0 } }),
};

const workloadHandler: FakeHandler = (r) => ({ status: 200, body: workload(new URLSearchParams(r.search)) });
const asked = (api: ReturnType<typeof installFakeApi>, path: string) =>
  api.requests.filter((r) => r.path === path).map((r) => Object.fromEntries(new URLSearchParams(r.search)));
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('/group-statistics', { timeout: 60_000 }, () => {
  it('lists the statistics the caller may see in its group, asks the preset range and shows rows and totals', async () => {
    const { api } = openStatistics({ [callKey(statisticsCalls.tables.report.get)]: workloadHandler });
    expect(await screen.findByRole('tab', { name: 'Doctor workload' })).toBeTruthy();
    // device workload is held only in another group's organization
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Doctor workload',
      'Positive rate',
      'Income',
    ]);
    expect(screen.getByText('Statistics of Renhe Hospital')).toBeTruthy();
    // the navbar's statistics entry
    expect(screen.getByRole('link', { name: 'Statistics' }).getAttribute('href')).toBe('/group-statistics');

    // first the last 7 hospital days of the group, by doctor, the simple version
    const today = hospitalDate(new Date());
    await waitFor(() =>
      expect(asked(api, 'statistics/report')[0]).toEqual({
        from: shift(today, -6),
        to: today,
        interval: 'day',
        groupId: 'g1',
        by: 'doctor',
        version: 'simple',
      }),
    );
    const table = (await screen.findByText('Dr. Wang')).closest('table')!;
    expect(within(table).getByRole('columnheader', { name: 'Written' })).toBeTruthy();
    const totals = within(table).getByText('Total').closest('tr')!;
    expect(
      within(totals)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Total', '20', '20', '24']);
    // the chart (loaded lazily) draws a bar per doctor
    await waitFor(() =>
      expect(charts.options.at(-1)).toMatchObject({
        xAxis: { data: ['Dr. Wang', 'Dr. Li'] },
        series: [{ type: 'bar', data: [12, 8] }],
      }),
    );

    // last month: its first to its last day, grouped by week
    fireEvent.click(screen.getByRole('button', { name: 'Last month' }));
    const firstOfMonth = `${today.slice(0, 7)}-01`;
    const lastMonthEnd = shift(firstOfMonth, -1);
    await waitFor(() =>
      expect(asked(api, 'statistics/report').at(-1)).toMatchObject({
        from: `${lastMonthEnd.slice(0, 7)}-01`,
        to: lastMonthEnd,
      }),
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Group by' }));
    fireEvent.click(await screen.findByTitle('Week'));
    await waitFor(() =>
      expect(asked(api, 'statistics/report').at(-1)).toMatchObject({
        from: `${lastMonthEnd.slice(0, 7)}-01`,
        interval: 'week',
      }),
    );
  });

  it('stores the workload version and asks the detailed table', async () => {
    const { api } = openStatistics({ [callKey(statisticsCalls.tables.report.get)]: workloadHandler });
    await screen.findByText('Dr. Wang');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Version' }));
    fireEvent.click(await screen.findByTitle('Detailed'));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PATCH' && r.path === 'accounts/me')?.body).toEqual({
        preferences: { workloadVersion: 'detailed' },
      }),
    );
    await waitFor(() => expect(asked(api, 'statistics/report').at(-1)).toMatchObject({ version: 'detailed' }));
  });

  it('shows money, rates and the empty state', async () => {
    const { api } = openStatistics({
      [callKey(statisticsCalls.tables.report.get)]: (r) => ({
        status: 200,
        body: { ...workload(new URLSearchParams(r.search)), rows: [], periods: [], totals: {} },
      }),
      [callKey(statisticsCalls.tables['report-positive'].get)]: (r) => ({
        status: 200,
        body: {
          ...workload(new URLSearchParams(r.search)),
          kind: 'report-positive',
          by: 'modality',
          columns: ['reports', 'positive', 'positiveRate'],
          rows: [{ key: 'CT', label: 'CT', values: { reports: 7, positive: 3, positiveRate: 3 / 7 } }],
          totals: { reports: 7, positive: 3, positiveRate: 3 / 7 },
        },
      }),
      [callKey(statisticsCalls.tables['group-payment'].get)]: (r) => ({
        status: 200,
        body: {
          ...workload(new URLSearchParams(r.search)),
          kind: 'group-payment',
          by: 'bucket',
          columns: ['orders', 'paidFen'],
          rows: [
            { key: 'b1', label: 'Radiology', values: { orders: 1, paidFen: 1250 } },
            { key: 'b2', label: 'Ultrasound', values: { orders: 4, paidFen: 100_000 } },
          ],
          totals: { orders: 5, paidFen: 101_250 },
          currency: 'CNY',
        },
      }),
    });
    expect(await screen.findByText('Nothing was counted in this period.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Positive rate' }));
    // a rate as percent, in the row and the totals
    expect((await screen.findAllByText('42.9%')).length).toBe(2);
    fireEvent.click(screen.getByRole('tab', { name: 'Income' }));
    // money in fen as yuan
    expect(await screen.findByText('¥12.50')).toBeTruthy();
    expect(screen.getByText('¥1,012.50')).toBeTruthy();
    // income is counted in one currency, CNY unless USD is chosen
    expect(asked(api, 'statistics/group-payment')[0]).toMatchObject({ by: 'bucket', currency: 'CNY' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Currency' }));
    fireEvent.click(await screen.findByTitle('USD ($)'));
    await waitFor(() => expect(asked(api, 'statistics/group-payment').at(-1)).toMatchObject({ currency: 'USD' }));
  });

  it('says a range error by its message', async () => {
    openStatistics({
      [callKey(statisticsCalls.tables.report.get)]: () => errorAnswer(400, 'StatisticsRangeTooLong'),
    });
    expect(await screen.findByText(/The period is too long: device workload takes at most one month/)).toBeTruthy();
  });

  it("drills from a doctor's row into the doctor's exams on /studies, the statistic's filters applied", async () => {
    const { api, router } = openStatistics({
      [callKey(statisticsCalls.tables.report.get)]: workloadHandler,
      ...studiesHandlers,
    });
    fireEvent.click(await screen.findByText('Dr. Wang'));
    const table = asked(api, 'statistics/report')[0]!;
    await waitFor(() => expect(router.state.location.pathname).toBe('/studies'));
    const drill = JSON.parse(new URLSearchParams(router.state.location.search).get('filters')!) as unknown;
    const expected = [
      { field: 'reportWriterId', operator: 'eq', values: ['u-wang'] },
      { field: 'reportApproved', operator: 'range', values: [table.from, table.to] },
      { field: 'bucketId', operator: 'in', values: ['b1'] },
    ];
    expect(drill).toEqual(expected);
    expect(
      await screen.findByText(
        `From statistics: Dr. Wang · ${table.from} to ${table.to} · Approved`,
        {},
        { timeout: 20_000 },
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'exams/page-query').at(-1)?.body).toMatchObject({
        filters: expect.arrayContaining(expected) as unknown,
      }),
    );
  });

  it('exports the same query, and a bar of the chart drills the way its row does', async () => {
    const { api, router } = openStatistics({
      [callKey(statisticsCalls.tables.report.get)]: workloadHandler,
      [callKey(statisticsCalls.tables.report.exportExcel)]: () => ({ status: 200, body: 'PK' }),
      ...studiesHandlers,
    });
    await screen.findByText('Dr. Li');
    const table = asked(api, 'statistics/report')[0]!;
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:xlsx');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(saved).toEqual([`statistics-report-${table.from}-${table.to}.xlsx`]));
    expect(asked(api, 'statistics/report/export-excel')).toEqual([table]);

    charts.clicks.at(-1)!({ dataIndex: 1, name: 'Dr. Li' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/studies'));
    const params = new URLSearchParams(router.state.location.search);
    expect(JSON.parse(params.get('filters')!)).toContainEqual({
      field: 'reportWriterId',
      operator: 'eq',
      values: ['u-li'],
    });
    expect(params.get('from')).toBe('Dr. Li');
  });

  it("without exam_get in the organizations (a group admin), a doctor's row opens the statistics' own report list", async () => {
    const { api, router } = openStatistics({
      [callKey(statisticsCalls.tables.report.get)]: workloadHandler,
      'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
      [callKey(statisticsCalls.reportDetail)]: () => ({
        status: 200,
        body: {
          total: 1,
          items: [
            {
              ...{ examId: 'e1', bucketId: 'b1', bucketName: 'Radiology', patientName: 'Zhang San', patientId: 'P1' },
              ...{ accessionNumber: 'A1', modality: 'CT', bodyPart: 'Chest', bodyPartCount: 1, noteTaker: null },
              writer: { id: 'u-wang', name: 'Dr. Wang' },
              approver: { id: 'u-li', name: 'Dr. Li' },
              approvedAt: '2026-11-20T08:00:00Z',
              positive: true,
            },
          ],
        },
      }),
    });
    fireEvent.click(await screen.findByText('Dr. Wang'));
    const link = await screen.findByRole('link', { name: 'Zhang San' });
    expect(link.getAttribute('href')).toBe('/studies/e1/reports/e1');
    const table = asked(api, 'statistics/report')[0]!;
    expect(asked(api, 'statistics/report-detail')[0]).toMatchObject({
      ...{ from: table.from, to: table.to, groupId: 'g1', doctorId: 'u-wang', role: 'written' },
    });
    expect(router.state.location.pathname).toBe('/group-statistics');
  });

  it('shows one group on /groups/{groupId}/statistics, organizations of the group only', async () => {
    const { api } = openStatistics(
      {
        [callKey(statisticsCalls.tables.report.get)]: workloadHandler,
        [callKey(statisticsCalls.tables.modality.get)]: (r) => ({
          status: 200,
          body: { ...workload(new URLSearchParams(r.search)), kind: 'modality', by: 'modality', rows: [] },
        }),
      },
      '/groups/g2/statistics',
    );
    expect(await screen.findByRole('tab', { name: 'Device workload' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Doctor workload' })).toBeNull();
    await waitFor(() => expect(asked(api, 'statistics/modality')[0]).toMatchObject({ groupId: 'g2', by: 'modality' }));
    // choosing an organization asks it instead of the whole group
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Organizations' }));
    fireEvent.click(await screen.findByTitle('Other hospital'));
    await waitFor(() => expect(asked(api, 'statistics/modality').at(-1)).toMatchObject({ bucketIds: 'b9' }));
    expect(asked(api, 'statistics/modality').at(-1)).not.toHaveProperty('groupId');
  });

  it('applies a typed period on Enter, and says a range the statistic does not take before asking', async () => {
    const { api } = openStatistics(
      {
        [callKey(statisticsCalls.tables.modality.get)]: (r) => ({
          status: 200,
          body: { ...workload(new URLSearchParams(r.search)), kind: 'modality', by: 'modality', rows: [] },
        }),
      },
      '/groups/g2/statistics',
    );
    await screen.findByRole('tab', { name: 'Device workload' });
    await waitFor(() => expect(asked(api, 'statistics/modality')).toHaveLength(1));
    const type = (input: HTMLElement, value: string) => {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value } });
    };
    const [start, end] = screen.getAllByRole('textbox').filter((el) => el.closest('.ant-picker-range'));
    type(start!, '2026-10-01');
    fireEvent.keyDown(start!, { key: 'Enter', keyCode: 13 });
    type(end!, '2026-10-31');
    fireEvent.keyDown(end!, { key: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(asked(api, 'statistics/modality').at(-1)).toMatchObject({ from: '2026-10-01', to: '2026-10-31' }),
    );

    // device workload takes at most one month (spec 000 §5): said without asking
    const before = asked(api, 'statistics/modality').length;
    type(start!, '2026-09-01');
    fireEvent.keyDown(start!, { key: 'Enter', keyCode: 13 });
    type(end!, '2026-10-15');
    fireEvent.keyDown(end!, { key: 'Enter', keyCode: 13 });
    expect(await screen.findByText(/The period is too long: device workload takes at most one month/)).toBeTruthy();
    expect(asked(api, 'statistics/modality')).toHaveLength(before);
  });
});
