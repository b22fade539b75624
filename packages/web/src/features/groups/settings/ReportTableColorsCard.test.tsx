// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportTableColor } from '@yyp/contracts';
import { ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { AppProviders } from '../../../test/appProviders';
import { errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../../test/queries';
import { ReportTableColorsCard } from './ReportTableColorsCard';

const approved: ReportTableColor = {
  id: 'c1',
  groupId: 'g1',
  name: 'Approved green',
  field: 'status',
  value: 'corrected',
  color: '#ffffff',
  background: '#389e0d',
  priority: 2,
};
const urgent: ReportTableColor = {
  ...approved,
  id: 'c2',
  name: 'Urgent orange',
  field: 'urgent',
  value: 'true',
  priority: 1,
};

function show(handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  sessionStore.signIn('groupadmin', tokenFor('groupadmin'));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProviders queryClient={queryClient}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <ReportTableColorsCard groupId="g1" />
      </ConfigProvider>
    </AppProviders>,
  );
  return api;
}

describe('report table colours card', () => {
  it('lists each colour with a sample of the status tag in it and what it matches', async () => {
    show({ 'GET report-table-color': () => ({ status: 200, body: { items: [urgent, approved] } }) });
    const row = await findRow('Approved green');
    const sample = within(row).getByTestId('report-status');
    expect(sample.textContent).toBe('Approved');
    expect(sample.getAttribute('style')).toContain('background: rgb(56, 158, 13)');
    expect(within(row).getByText('Report status = Approved')).toBeTruthy();
    expect(within(await findRow('Urgent orange')).getByText('Urgent exam = Yes')).toBeTruthy();
  });

  it('adds a colour for a flag: choosing the field turns the value into yes/no', async () => {
    let items: ReportTableColor[] = [];
    const api = show({
      'GET report-table-color': () => ({ status: 200, body: { items } }),
      'POST report-table-color': (r) => {
        items = [{ ...(r.body as ReportTableColor), id: 'c9', groupId: 'g1' }];
        return { status: 201, body: items[0] };
      },
    });
    await screen.findByText('No report colours yet; report statuses show in their default colours.');
    const user = userEvent.setup();
    await user.click(buttonByText('Add colour'));
    const modal = await findOverlay('New report colour');
    await user.type(within(modal).getByLabelText('Name'), 'Positive red');
    await user.click(within(modal).getByLabelText('Matches'));
    await user.click(await screen.findByText('Positive finding', { selector: '.ant-select-item-option-content' }));
    await user.click(buttonByText('Save', modal));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    const post = api.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('report-table-color');
    expect(post.search).toBe('?groupId=g1');
    expect(post.body).toEqual({
      name: 'Positive red',
      field: 'positive',
      value: 'true',
      color: '#ffffff',
      background: '#389e0d',
      priority: 0,
    });
    expect(within(await findRow('Positive red')).getByText('Positive finding = Yes')).toBeTruthy();
  });

  it('marks the field the server refused and keeps the dialog open', async () => {
    show({
      'GET report-table-color': () => ({ status: 200, body: { items: [approved] } }),
      'PUT report-table-color/c1': () =>
        errorAnswer(400, 'ValidationError', { issues: [{ path: 'body.value', message: 'is not a report status' }] }),
    });
    const user = userEvent.setup();
    await findRow('Approved green');
    await user.click(buttonByText('Edit'));
    const modal = await findOverlay('Edit report colour');
    await user.click(buttonByText('Save', modal));
    expect(await within(modal).findByText('The server did not accept this value')).toBeTruthy();
    expect(await screen.findByText('Some of the entered data is invalid. Please check and try again.')).toBeTruthy();
    expect(screen.getByText('Edit report colour')).toBeTruthy();
  });

  it('deletes a colour after confirmation', async () => {
    let items = [approved];
    const api = show({
      'GET report-table-color': () => ({ status: 200, body: { items } }),
      'DELETE report-table-color/c1': () => {
        items = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    await findRow('Approved green');
    await user.click(buttonByText('Delete'));
    expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await screen.findByText('Delete the colour Approved green?');
    const confirm = document.querySelector('.ant-popconfirm .ant-btn-dangerous') as HTMLElement;
    await user.click(confirm);
    await screen.findByText('No report colours yet; report statuses show in their default colours.');
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['report-table-color/c1']);
  });
});
