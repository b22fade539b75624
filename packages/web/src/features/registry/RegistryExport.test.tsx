// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, registryCalls, registryOrderCalls, type RegistryItem } from '@yyp/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorAnswer, type FakeHandler } from '../../test/fakeApi';
import { buttonByText } from '../../test/queries';
import { itemOf } from '../../test/registryFixtures';
import { openRegistry } from '../../test/openPage';

/** /registry export (issue 22: POST exports/schedules): the list's filters, without paging, as .xlsx. */

function signedIn(items: RegistryItem[], exportAnswer: FakeHandler) {
  return openRegistry({
    [callKey(registryCalls.query)]: () => ({ status: 200, body: { items, count: items.length } }),
    [callKey(registryOrderCalls.exportSchedules)]: exportAnswer,
  });
}

let clicked: string[];
beforeEach(() => {
  clicked = [];
  URL.createObjectURL = vi.fn(() => 'blob:xlsx');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('/registry export', () => {
  it("sends the list's filters and sort without paging, and saves the .xlsx", { timeout: 30_000 }, async () => {
    const item = itemOf();
    const api = signedIn([item], () => ({ status: 200, body: 'PK' }));
    await screen.findByText(item.accessionNumber, {}, { timeout: 15_000 });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name, initials, patient ID, accession, phone or pass code'), 'Wang{Enter}');
    await user.click(buttonByText('Export'));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toMatch(/^schedules-\d{8}\.xlsx$/);
    const sent = api.requests.find((r) => r.path === 'exports/schedules')!.body;
    expect(sent).toEqual({
      bucketId: 'b1',
      q: 'Wang',
      source: 'internal',
      statuses: [],
      sort: { field: 'created', direction: 'desc' },
      language: 'en',
    });
  });

  it('shows the refusal when the filters match too many', { timeout: 30_000 }, async () => {
    const item = itemOf();
    signedIn([item], () => errorAnswer(400, 'ExportLimitExceeded', { count: 3001, limit: 3000 }));
    await screen.findByText(item.accessionNumber, {}, { timeout: 15_000 });
    await userEvent.click(buttonByText('Export'));
    expect(await screen.findByText(/Too many exams to export/)).toBeTruthy();
    expect(clicked).toEqual([]);
  });
});
