// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, registryCalls, registryPrintCalls, type RegistryItem } from '@yyp/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoUser, errorAnswer, type FakeHandler } from '../../../test/fakeApi';
import { buttonByText, findRow } from '../../../test/queries';
import { itemOf } from '../../../test/registryFixtures';
import { openRegistry } from '../../../test/openPage';

/** /registry printing (issue 22): labels and referral forms of the selected exams or of one row, as PDFs. */
const PDF: FakeHandler = () => ({ status: 200, body: '%PDF-1.3' });

function signedIn(items: RegistryItem[], extra: Record<string, FakeHandler> = {}) {
  return openRegistry({
    [callKey(registryCalls.query)]: () => ({ status: 200, body: { items, count: items.length } }),
    [callKey(registryPrintCalls.labels)]: PDF,
    [callKey(registryPrintCalls.referralForms)]: PDF,
    ...extra,
  });
}

let tab: { location: { href: string }; close: ReturnType<typeof vi.fn> };
beforeEach(() => {
  tab = { location: { href: '' }, close: vi.fn() };
  vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
  URL.createObjectURL = vi.fn(() => 'blob:pdf');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const named = (name: string, overrides: Partial<RegistryItem> = {}) =>
  itemOf({ ...overrides, patient: { ...itemOf().patient, name } });
const checkbox = (row: HTMLElement) => row.querySelector('.ant-checkbox-input') as HTMLInputElement;

describe('/registry printing', () => {
  it("opens a row's label in a new tab for the browser to print", { timeout: 30_000 }, async () => {
    const wang = named('Wang Fang');
    const api = signedIn([wang]);
    await screen.findByText('Wang Fang', {}, { timeout: 15_000 });
    const row = await findRow('Wang Fang');
    await userEvent.click(buttonByText('Label', row));
    await waitFor(() => expect(tab.location.href).toBe('blob:pdf'));
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    expect(api.requests.find((r) => r.path === 'orders/labels')?.body).toEqual({
      scheduledIds: [wang.id],
      layout: 'label',
      copies: 1,
      lang: 'en',
    });
    await userEvent.click(buttonByText('Referral form', row));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'orders/referral-forms')?.body).toEqual({
        scheduledIds: [wang.id],
        lang: 'en',
      }),
    );
  });

  it('prints the labels of the selected exams; referral forms only for one day', { timeout: 30_000 }, async () => {
    const a = named('Wang Fang', { scheduledDate: '2026-11-27' });
    const b = named('Li Lei', { scheduledDate: '2026-11-28' });
    const c = named('Zhang San', { status: 'Cancelled' });
    const api = signedIn([a, b, c]);
    await screen.findByText('Wang Fang', {}, { timeout: 15_000 });
    expect(within(await findRow('Zhang San')).queryByText('Label')).toBeNull();
    expect(buttonByText('Print labels (0)').disabled).toBe(true);
    const user = userEvent.setup();
    await user.click(checkbox(await findRow('Wang Fang')));
    await user.click(checkbox(await findRow('Li Lei')));
    expect(buttonByText('Print referral forms (2)').disabled).toBe(true);
    const copies = screen.getByLabelText('Copies of each label');
    await user.clear(copies);
    await user.type(copies, '2');
    await user.click(buttonByText('Print labels (2)'));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'orders/labels')?.body).toMatchObject({
        scheduledIds: [a.id, b.id],
        layout: 'label',
        copies: 2,
      }),
    );
    // The A4 sheet from the menu beside it.
    await user.click(screen.getByRole('button', { name: 'More label printing' }));
    await user.click(await screen.findByText('A4 sheet, 10 labels a page'));
    await waitFor(() =>
      expect(api.requests.filter((r) => r.path === 'orders/labels').at(-1)?.body).toMatchObject({ layout: 'sheet' }),
    );
    // A cancelled exam selected: nothing prints.
    await user.click(checkbox(await findRow('Zhang San')));
    expect(buttonByText('Print labels (3)').disabled).toBe(true);
  });

  it("closes the tab and says why when the server refuses (another day's exam)", { timeout: 30_000 }, async () => {
    const a = named('Wang Fang');
    signedIn([a], {
      [callKey(registryPrintCalls.referralForms)]: () =>
        errorAnswer(400, 'ValidationError', { field: 'scheduledIds', problem: 'notSameDay' }),
    });
    await screen.findByText('Wang Fang', {}, { timeout: 15_000 });
    await userEvent.click(buttonByText('Referral form', await findRow('Wang Fang')));
    expect(
      await screen.findByText('Referral forms merge only exams scheduled on the same day: select exams of one day.'),
    ).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
  });

  it(
    'prints with the layout and copies the desk keeps (spec 000 §9 print label templates)',
    { timeout: 30_000 },
    async () => {
      const wang = named('Wang Fang');
      const user = demoUser({ username: 'registrar', name: 'Zhao' });
      const api = signedIn([wang], {
        'GET accounts/me': () => ({
          status: 200,
          body: { ...user, preferences: { printLabel: { layout: 'sheet', copies: 3 } } },
        }),
        'PATCH accounts/me': () => ({ status: 200, body: user }),
      });
      await screen.findByText('Wang Fang', {}, { timeout: 15_000 });
      const clicks = userEvent.setup();
      await clicks.click(buttonByText('Label', await findRow('Wang Fang')));
      await waitFor(() =>
        expect(api.requests.find((r) => r.path === 'orders/labels')?.body).toMatchObject({
          layout: 'sheet',
          copies: 3,
        }),
      );
      // The label printer chosen from the menu prints there and is kept for next time.
      await clicks.click(checkbox(await findRow('Wang Fang')));
      await clicks.click(screen.getByRole('button', { name: 'More label printing' }));
      await clicks.click(await screen.findByText('Label printer, 80×50 mm'));
      await waitFor(() =>
        expect(api.requests.find((r) => r.path === 'accounts/me' && r.method === 'PATCH')?.body).toEqual({
          preferences: { printLabel: { layout: 'label', copies: 3 } },
        }),
      );
      expect(api.requests.filter((r) => r.path === 'orders/labels').at(-1)?.body).toMatchObject({ layout: 'label' });
    },
  );
});
