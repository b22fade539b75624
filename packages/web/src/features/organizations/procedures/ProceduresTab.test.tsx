// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GROUP_ACCESS_LEVELS, defaultDomainConfig } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../../test/fakeApi';
import { procedureHandlers, procedureOf, procedureState, type ProcedureState } from '../../../test/procedureFixtures';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../../test/queries';
import { renderApp } from '../../../test/renderApp';
import { groupOf, organizationOf } from '../../../test/tenancyFixtures';

/** The organization page on its procedure management tab, as an admin (or a plain member). */
function openProcedures(state: ProcedureState, role: 'admin' | 'member' = 'admin') {
  const group = groupOf({ accessLevel: role === 'admin' ? GROUP_ACCESS_LEVELS.admin : GROUP_ACCESS_LEVELS.member });
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    'GET groups/g1': () => ({ status: 200, body: group }),
    'GET buckets/b1': () => ({ status: 200, body: organizationOf({ accessLevel: role }) }),
    ...procedureHandlers(state),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp('/groups/g1/organizations/b1?tab=procedures');
  return api;
}

/** An icon button by its aria-label (role queries by name are very slow in jsdom, see test/queries). */
const iconButton = (container: HTMLElement, label: string) =>
  container.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement;

const requestsTo = (api: ReturnType<typeof openProcedures>, method: string, path: string) =>
  api.requests.filter((r) => r.method === method && r.path === path);

// Each test drives the whole signed-in shell through drawers: slow on a busy machine.
describe('procedure management tab', { timeout: 60_000 }, () => {
  it('lists the procedures with every field of spec 000 §3', async () => {
    openProcedures(procedureState());
    const row = await findRow('Head CT');
    for (const text of ['CT-HEAD', 'CT head plain', 'CT', '120.00', 'Helical', 'CT_ROOM1', 'CT scanners']) {
      expect(within(row).getByText(text), text).toBeTruthy();
    }
    expect(within(row).getByText('Position → Scan')).toBeTruthy();
    // enhanced: No, report during the exam: Yes, show local video: No
    expect(within(row).getAllByText('Yes')).toHaveLength(1);
    expect(within(row).getAllByText('No')).toHaveLength(2);
  });

  it('adds a procedure through the drawer: price in yuan sent in fen, groups and steps, then lists it', async () => {
    const state = procedureState();
    const api = openProcedures(state);
    const user = userEvent.setup();
    await user.click(await findButtonByText('Add procedure'));
    const drawer = await findOverlay('New procedure');
    await user.type(within(drawer).getByLabelText('Name'), 'Chest CT');
    await user.type(within(drawer).getByLabelText('Code'), 'CT-CHEST');
    await user.type(within(drawer).getByLabelText('Modality'), 'CT');
    const price = within(drawer).getByLabelText('Price (yuan)');
    await user.clear(price);
    await user.type(price, '180.5');
    await user.type(within(drawer).getByLabelText('Steps'), 'Position{Enter}Scan{Enter}');
    await user.click(within(drawer).getByLabelText('Device groups'));
    await user.click(await screen.findByText('CT scanners', { selector: '.ant-select-item-option-content' }));
    await user.click(within(drawer).getByLabelText('Enhanced'));
    await user.click(buttonByText('Save', drawer));

    await screen.findByText('Procedure Chest CT saved.');
    expect(requestsTo(api, 'POST', 'buckets/b1/procedures')[0]?.body).toEqual({
      name: 'Chest CT',
      code: 'CT-CHEST',
      enName: '',
      modality: 'CT',
      price: 18050,
      scanTech: '',
      isEnhanced: true,
      bodyPartCount: 1,
      aeTitle: '',
      deviceGroupIds: ['dg1'],
      steps: ['Position', 'Scan'],
      reportDuringExam: false,
      showLocalVideo: false,
      imagingOptional: false,
    });
    expect(await findRow('Chest CT')).toBeTruthy();
    expect(state.procedures.map((p) => p.code)).toEqual(['CT-HEAD', 'CT-CHEST']);
  });

  it('refuses what the contract refuses before sending, and marks a taken code', async () => {
    const api = openProcedures(procedureState());
    const user = userEvent.setup();
    await user.click(await findButtonByText('Add procedure'));
    const drawer = await findOverlay('New procedure');
    await user.click(buttonByText('Save', drawer));
    expect(await within(drawer).findByText('Name is required')).toBeTruthy();
    expect(await within(drawer).findByText('Code is required')).toBeTruthy();
    expect(await within(drawer).findByText('Modality is required')).toBeTruthy();

    await user.type(within(drawer).getByLabelText('Name'), 'x'.repeat(65));
    await user.type(within(drawer).getByLabelText('AE title'), 'BAD\\AE');
    await user.click(buttonByText('Save', drawer));
    expect(await within(drawer).findByText('At most 64 characters.')).toBeTruthy();
    // Each field's message shows when its own validation ends: waited for, not assumed with the first.
    expect(
      await within(drawer).findByText('An AE title has 1–16 printable ASCII characters and no backslash.'),
    ).toBeTruthy();
    expect(requestsTo(api, 'POST', 'buckets/b1/procedures')).toHaveLength(0);

    // a code another procedure has (any case): the server's 409 lands on the code field
    await user.clear(within(drawer).getByLabelText('Name'));
    await user.type(within(drawer).getByLabelText('Name'), 'Head CT again');
    await user.clear(within(drawer).getByLabelText('AE title'));
    await user.type(within(drawer).getByLabelText('Code'), 'ct-head');
    await user.type(within(drawer).getByLabelText('Modality'), 'CT');
    await user.click(buttonByText('Save', drawer));
    expect(await within(drawer).findByText('A procedure with this code already exists.')).toBeTruthy();
    expect(requestsTo(api, 'POST', 'buckets/b1/procedures')).toHaveLength(1);
  });

  it('edits a procedure, moves it down (resort with every id) and deletes it after confirming', async () => {
    const state = procedureState({
      procedures: [procedureOf(), procedureOf({ id: 'p2', name: 'Knee MR', code: 'MR-KNEE', modality: 'MR', sort: 1 })],
    });
    const api = openProcedures(state);
    const user = userEvent.setup();

    await user.click(iconButton(await findRow('Head CT'), 'Move down'));
    await screen.findByText('The order of the procedures was saved.');
    expect(requestsTo(api, 'POST', 'buckets/b1/procedures/resort')[0]?.body).toEqual({ ids: ['p2', 'p1'] });
    await waitFor(() => expect(document.querySelector('tbody tr.ant-table-row')?.textContent).toContain('Knee MR'));

    await user.click(buttonByText('Edit', await findRow('Knee MR')));
    const drawer = await findOverlay('Edit procedure Knee MR');
    const price = within(drawer).getByLabelText('Price (yuan)');
    await user.clear(price);
    await user.type(price, '300');
    await user.click(buttonByText('Save', drawer));
    await screen.findByText('Procedure Knee MR saved.');
    expect(requestsTo(api, 'PUT', 'buckets/b1/procedures/p2')[0]?.body).toMatchObject({
      code: 'MR-KNEE',
      price: 30000,
    });

    await user.click(buttonByText('Delete', await findRow('Head CT')));
    const confirm = (await screen.findByText(/Delete the procedure Head CT\?/)).closest('.ant-popover') as HTMLElement;
    await user.click(buttonByText('Delete', confirm));
    await screen.findByText('Procedure Head CT deleted.');
    expect(requestsTo(api, 'DELETE', 'buckets/b1/procedures/p1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Head CT', { selector: 'td' })).toBeNull());
  });

  it('searches by name, code or modality and stops reordering while searching', async () => {
    openProcedures(
      procedureState({
        procedures: [
          procedureOf(),
          procedureOf({ id: 'p2', name: 'Knee MR', code: 'MR-KNEE', modality: 'MR', sort: 1 }),
        ],
      }),
    );
    const user = userEvent.setup();
    await findRow('Head CT');
    await user.type(screen.getByPlaceholderText('Search by name, code, English name or modality'), 'mr-');
    await waitFor(() => expect(screen.queryByText('Head CT', { selector: 'td' })).toBeNull());
    const knee = await findRow('Knee MR');
    // the order is of all procedures: no moving within a filtered list
    expect(iconButton(knee, 'Move up')).toBeNull();
    expect(screen.getByText('Clear the search to change the order.')).toBeTruthy();
    await user.clear(screen.getByPlaceholderText('Search by name, code, English name or modality'));
    await user.type(screen.getByPlaceholderText('Search by name, code, English name or modality'), 'nothing');
    expect(await screen.findByText('No procedure matches the search.')).toBeTruthy();
  });

  it('is read-only for a member: no add, edit, delete, reorder or import', async () => {
    const api = openProcedures(procedureState(), 'member');
    const row = await findRow('Head CT');
    expect(screen.getByText(/only administrators of the organization or of the group can change it/)).toBeTruthy();
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(iconButton(row, 'Move down')).toBeNull();
    expect(screen.queryByText('Add procedure')).toBeNull();
    expect(screen.queryByText('Import from Excel')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByText('Devices', { selector: '.ant-tabs-tab *' }));
    expect(await findRow('CT room 1')).toBeTruthy();
    expect(screen.queryByText('Add device')).toBeNull();
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });
});
