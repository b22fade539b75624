// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, registryPrintCalls, type OrderTemplate } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { buttonByText } from '../../../test/queries';
import { orgMemberOf } from '../../../test/tenancyFixtures';
import { openOrganizationTab } from '../../../test/openPage';

/** The organization's referral form template on its settings tab (issue 22). */
const DEFAULT: OrderTemplate = {
  bucketId: 'b1',
  title: '',
  headerLines: ['City Hospital', 'Radiology'],
  fields: ['patientId', 'gender', 'barcode'],
  footerNote: '',
  isDefault: true,
  updatedAt: null,
  updatedBy: null,
};

function openSettings() {
  return openOrganizationTab('settings', {
    'GET buckets/b1/members': () => ({ status: 200, body: [orgMemberOf()] }),
    [callKey(registryPrintCalls.orderTemplate)]: () => ({ status: 200, body: DEFAULT }),
    [callKey(registryPrintCalls.saveOrderTemplate)]: (r) => ({
      status: 200,
      body: {
        ...DEFAULT,
        ...(r.body as object),
        isDefault: false,
        updatedAt: '2026-11-26T08:00:00.000Z',
        updatedBy: 'Admin',
      },
    }),
  });
}

describe('referral form template', () => {
  it('shows the default, and saves the header lines, title, fields and note', { timeout: 60_000 }, async () => {
    const api = openSettings();
    const header = (await screen.findByLabelText('Header lines', {}, { timeout: 15_000 })) as HTMLTextAreaElement;
    await waitFor(() => expect(header.value).toBe('City Hospital\nRadiology'));
    expect(screen.getByText(/The default: the hospital and organization names/)).toBeTruthy();
    const user = userEvent.setup();
    await user.clear(header);
    await user.type(header, 'City Hospital{Enter}Radiology · 1 Health Road');
    await user.type(screen.getByLabelText('Title'), 'CT request');
    await user.click(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Note at the foot'), 'Fast for four hours.');
    const card = header.closest('.ant-card') as HTMLElement;
    await user.click(buttonByText('Save', card));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PUT' && r.path === 'buckets/b1/order-template')?.body).toEqual({
        title: 'CT request',
        headerLines: ['City Hospital', 'Radiology · 1 Health Road'],
        fields: ['patientId', 'gender', 'phone', 'barcode'],
        footerNote: 'Fast for four hours.',
      }),
    );
    expect(await screen.findByText('The referral form template was saved.')).toBeTruthy();
    expect(screen.queryByText(/The default: the hospital and organization names/)).toBeNull();
  });

  it('refuses more than three header lines before sending', { timeout: 60_000 }, async () => {
    const api = openSettings();
    const header = (await screen.findByLabelText('Header lines', {}, { timeout: 15_000 })) as HTMLTextAreaElement;
    const user = userEvent.setup();
    await user.clear(header);
    await user.type(header, 'a{Enter}b{Enter}c{Enter}d');
    await user.click(buttonByText('Save', header.closest('.ant-card') as HTMLElement));
    expect(await screen.findByText('At most 3 lines of 100 characters.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
