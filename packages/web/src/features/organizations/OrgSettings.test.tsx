// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DictionaryItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { errorAnswer, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../test/queries';
import { orgMemberOf } from '../../test/tenancyFixtures';
import { openOrganizationTab } from '../../test/openPage';

const NONE_DEPARTMENT: DictionaryItem = { id: '0', name: '', data: { none: true }, sort: -1 };

function openSettings(extra: Record<string, FakeHandler> = {}) {
  return openOrganizationTab('settings', {
    'GET buckets/b1/members': () => ({ status: 200, body: [orgMemberOf()] }),
    'GET buckets/b1/upload/token': () => ({
      status: 200,
      body: { token: 'tok1', uploadPath: '/upload?token=tok1', notifyAccountIds: [] },
    }),
    'GET buckets/b1/departments': () => ({
      status: 200,
      body: [NONE_DEPARTMENT, { id: 'd1', name: 'Emergency', data: {}, sort: 0 }],
    }),
    ...extra,
  });
}

describe('organization settings', () => {
  it('shows the bound code read-only and the upload link with its QR code', async () => {
    openSettings();
    const code = await screen.findByLabelText('Code');
    expect(code).toHaveProperty('disabled', true);
    expect(screen.getByText('The code is bound and cannot be changed.')).toBeTruthy();
    expect(await screen.findByText(`${window.location.origin}/upload?token=tok1`)).toBeTruthy();
    expect(document.querySelector('.ant-qrcode')).toBeTruthy();
  });

  it('issues a new upload token after confirmation', async () => {
    const api = openSettings({
      'POST buckets/b1/upload/token': () => ({
        status: 200,
        body: { token: 'tok2', uploadPath: '/upload?token=tok2', notifyAccountIds: [] },
      }),
    });
    const user = userEvent.setup();
    await user.click(await findButtonByText('Issue a new token'));
    const popup = (await screen.findByText(/stop working at once/)).closest('.ant-popover') as HTMLElement;
    await user.click(buttonByText('Confirm', popup));
    expect(await screen.findByText(`${window.location.origin}/upload?token=tok2`)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST' && r.path === 'buckets/b1/upload/token')).toBe(true);
  });

  it('shows the built-in department as "None" and never offers to edit it', async () => {
    openSettings();
    const none = await findRow('None');
    expect(within(none).getByText('Built-in')).toBeTruthy();
    expect(within(none).queryByText('Edit')).toBeNull();
    const emergency = await findRow('Emergency');
    expect(within(emergency).getByText('Edit')).toBeTruthy();
  });

  it('limits tags to 10 characters and marks a duplicate name', async () => {
    const api = openSettings({
      'GET buckets/b1/tags': () => ({ status: 200, body: [] }),
      'POST buckets/b1/tags': () => errorAnswer(409, 'Conflict'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Tags', { selector: '.ant-tabs-tab *' }));
    const tagsPanel = (await screen.findByText('No item yet.')).closest('.yyp-dictionary') as HTMLElement;
    await user.click(buttonByText('Add', tagsPanel));
    const modal = await findOverlay('Add to Tags');
    const name = within(modal).getByLabelText('Name');
    expect(name.getAttribute('maxlength')).toBe('10');
    await user.type(name, 'follow-up-case');
    expect(name).toHaveProperty('value', 'follow-up-');
    await user.click(buttonByText('Save', modal));
    expect(await within(modal).findByText('An item with this name already exists.')).toBeTruthy();
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'buckets/b1/tags' && r.method === 'POST')?.body).toEqual({
        name: 'follow-up-',
        data: {},
        sort: 0,
      }),
    );
  });

  it('adds a doctor with the physician type and a department', async () => {
    const api = openSettings({
      'GET buckets/b1/doctors': () => ({ status: 200, body: [] }),
      'POST buckets/b1/doctors': (request) => ({
        status: 201,
        body: { id: 'doc1', sort: 0, ...(request.body as object) },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Applying doctors', { selector: '.ant-tabs-tab *' }));
    const panel = (await screen.findByText('No item yet.')).closest('.yyp-dictionary') as HTMLElement;
    await user.click(buttonByText('Add', panel));
    const modal = await findOverlay('Add to Applying doctors');
    await user.type(within(modal).getByLabelText('Name'), 'Dr. Liu{Enter}');
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'buckets/b1/doctors' && r.method === 'POST')?.body).toEqual({
        name: 'Dr. Liu',
        data: { physicianType: 1, departmentId: '0' },
        sort: 0,
      }),
    );
  });
});
