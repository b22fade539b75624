// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACTION_CATALOGUE, defaultDomainConfig, type Role } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../../test/fakeApi';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../../test/queries';
import { renderApp } from '../../../test/renderApp';
import { catalogueAnswer, groupOf, organizationOf, orgMemberOf, roleOf } from '../../../test/tenancyFixtures';

function openRoles(roles: Role[], groupLevel = 1, orgLevel: 'admin' | 'member' = 'admin') {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: groupLevel })] }),
    'GET groups/g1': () => ({ status: 200, body: groupOf({ accessLevel: groupLevel }) }),
    'GET buckets/b1': () => ({ status: 200, body: organizationOf({ accessLevel: orgLevel }) }),
    'GET buckets/b1/roles': () => ({ status: 200, body: roles }),
    'GET buckets/b1/members': () => ({ status: 200, body: [orgMemberOf()] }),
    'GET actions/all': () => ({ status: 200, body: catalogueAnswer() }),
    'POST buckets/b1/roles': (request) => ({
      status: 201,
      body: { id: 'r-new', bucketId: 'b1', memberIds: [], ...(request.body as object) },
    }),
    'PUT roles/r1': (request) => ({ status: 200, body: { ...roles[0], ...(request.body as object) } }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp('/groups/g1/organizations/b1?tab=roles');
  return api;
}

describe('role editor', () => {
  it('creates a role from a whole category and single actions, in catalogue order', async () => {
    const api = openRoles([]);
    const user = userEvent.setup();
    await user.click(await findButtonByText('New role'));
    const drawer = await findOverlay('New role');
    await user.type(within(drawer).getByLabelText('Role name'), 'Approving');

    await user.click(await within(drawer).findByLabelText('All of Reports'));
    await user.click(within(drawer).getByLabelText(/View exams/));
    await user.click(within(drawer).getByLabelText(/Print reports/));
    const total = ACTION_CATALOGUE.report.length;
    expect(within(drawer).getByText(`${total - 1} of ${total}`)).toBeTruthy();
    expect(within(drawer).getByLabelText('All of Reports')).toHaveProperty('checked', false);

    await user.click(buttonByText('Save', drawer));
    await screen.findByText('Role Approving saved.');
    expect(api.requests.find((r) => r.method === 'POST' && r.path === 'buckets/b1/roles')?.body).toEqual({
      name: 'Approving',
      actions: ['exam_get', ...ACTION_CATALOGUE.report.filter((a) => a !== 'report_print')],
    });
    // No holders chosen: no mapping call.
    expect(api.requests.some((r) => r.path.endsWith('/mappings'))).toBe(false);
  });

  it('edits the actions of an existing role and shows them grouped and translated in the list', async () => {
    const api = openRoles([roleOf({ actions: ['exam_get', 'report_upsert'], memberIds: ['u-doctor'] })]);
    const user = userEvent.setup();
    const row = await findRow('Reporting');
    expect(within(row).getByText('Dr. Li')).toBeTruthy();
    expect(within(row).getByText('Exams · 1')).toBeTruthy();
    expect(within(row).getByText('Reports · 1')).toBeTruthy();
    await user.click(buttonByText('Edit', row));

    const drawer = await findOverlay('Edit role Reporting');
    expect(await within(drawer).findByLabelText(/View exams/)).toHaveProperty('checked', true);
    await user.click(within(drawer).getByLabelText(/Write reports/));
    await user.click(within(drawer).getByLabelText(/Approve reports/));
    await user.click(buttonByText('Save', drawer));

    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PUT' && r.path === 'roles/r1')?.body).toEqual({
        name: 'Reporting',
        actions: ['exam_get', 'report_approval'],
      }),
    );
    // Holders unchanged: no mapping call.
    expect(api.requests.some((r) => r.path.endsWith('/mappings'))).toBe(false);
  });

  it('shows roles read-only to a plain member of the organization', async () => {
    openRoles([roleOf()], 0, 'member');
    const user = userEvent.setup();
    const row = await findRow('Reporting');
    expect(screen.queryByText('New role')).toBeNull();
    expect(screen.queryByText('Settings', { selector: '.ant-tabs-tab *' })).toBeNull();
    await user.click(buttonByText('Open', row));
    const drawer = await findOverlay('Edit role Reporting');
    expect(await within(drawer).findByLabelText(/View exams/)).toHaveProperty('disabled', true);
    expect(within(drawer).queryByText('Save')).toBeNull();
  });
});
