// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callKey, consultationCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { locationOf } from '../../test/renderApp';
import { listItemOf, openConsultations } from './consultationFixtures';

const pageBodies = (api: ReturnType<typeof openConsultations>['api']) =>
  api.requests.filter((r) => r.path === 'consultations/query-page').map((r) => r.body);

describe('/consultations', { timeout: 40_000 }, () => {
  it('lists 20 a page with the count and the columns, and the filters send their body', async () => {
    const { api, router } = openConsultations('/consultations', {
      [callKey(consultationCalls.page)]: () => ({
        status: 200,
        body: { data: [listItemOf(), listItemOf({ id: 'c2', title: 'Head MR', status: 2, rating: 4 })], count: 42 },
      }),
    });
    expect(await screen.findByText('Chest CT review', {}, { timeout: 15_000 })).toBeTruthy();
    const row = screen.getByText('Chest CT review').closest('tr')!;
    expect(within(row).getByText('Zhang Wei')).toBeTruthy();
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(within(row).getByText('Radiology')).toBeTruthy();
    expect(within(row).getByText('Expert Center: Dr. Wang')).toBeTruthy();
    expect(screen.getByText('Completed')).toBeTruthy();
    expect(screen.getByText('42 consultations')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Consultations/ })).toBeTruthy();
    expect(pageBodies(api)[0]).toEqual({ skip: 0, limit: 20, filter: {} });

    // page 2 skips 20
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(pageBodies(api).at(-1)).toEqual({ skip: 20, limit: 20, filter: {} }));

    // keyword (patient, title, reason) and status
    const search = screen.getByPlaceholderText('Patient, title or reason');
    fireEvent.change(search, { target: { value: ' Zhang ' } });
    fireEvent.keyDown(search, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(pageBodies(api).at(-1)).toEqual({ skip: 0, limit: 20, filter: { keyword: 'Zhang' } }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByTitle('Scheduled'));
    await waitFor(() =>
      expect(pageBodies(api).at(-1)).toEqual({
        skip: 0,
        limit: 20,
        filter: { keyword: 'Zhang', status: { equal: 1 } },
      }),
    );

    // a row opens the consultation
    fireEvent.click(screen.getAllByText('Zhang Wei', { selector: 'td' })[0]!);
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c1'));
  });

  it('/consultations/my asks for mine only', async () => {
    const { api } = openConsultations('/consultations/my', {
      [callKey(consultationCalls.page)]: () => ({ status: 200, body: { data: [], count: 0 } }),
    });
    expect(await screen.findByRole('heading', { name: 'My consultations' }, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(pageBodies(api)[0]).toEqual({ skip: 0, limit: 20, filter: { mine: true } }));
  });
});
