// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROCEDURE_IMPORT_MAX_BYTES, XLSX_CONTENT_TYPE } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { procedureHandlers, procedureState, type ProcedureState } from '../../../test/procedureFixtures';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../../test/queries';
import { openOrganizationTab } from '../../../test/openPage';

/** The procedure management tab as a group admin, on one of its sections. */
async function openSection(state: ProcedureState, section?: string) {
  const api = openOrganizationTab('procedures', procedureHandlers(state));
  const user = userEvent.setup();
  if (section) {
    await user.click(await screen.findByText(section, { selector: '.ant-tabs-tab *' }));
  }
  return { api, user };
}

// Each test drives the whole signed-in shell through dialogs: slow on a busy machine.
describe('devices, device groups and the modality dictionary', { timeout: 60_000 }, () => {
  it('adds a device with its worklist character set and group, and marks an AE title in use', async () => {
    const state = procedureState();
    const { api, user } = await openSection(state, 'Devices');
    expect(within(await findRow('CT room 1')).getByText('UTF-8 (ISO_IR 192)')).toBeTruthy();

    await user.click(await findButtonByText('Add device'));
    const modal = await findOverlay('New device');
    await user.type(within(modal).getByLabelText('Name'), 'DR room 2');
    await user.type(within(modal).getByLabelText('AE title'), 'ct_room1');
    await user.type(within(modal).getByLabelText('Host'), '10.0.0.22');
    await user.type(within(modal).getByLabelText('Port'), '11112');
    await user.type(within(modal).getByLabelText('Modality'), 'DX');
    await user.type(within(modal).getByLabelText('Room'), 'Room 2');
    await user.click(within(modal).getByLabelText('Device group'));
    await user.click(await screen.findByText('CT scanners', { selector: '.ant-select-item-option-content' }));
    await user.click(within(modal).getByLabelText('Worklist character set'));
    await user.click(await screen.findByText('Chinese (GB18030)', { selector: '.ant-select-item-option-content' }));
    await user.click(buttonByText('Save', modal));
    // AE titles are unique whatever the case: the 409 lands on the field
    expect(await within(modal).findByText('A device with this AE title already exists.')).toBeTruthy();

    await user.clear(within(modal).getByLabelText('AE title'));
    await user.type(within(modal).getByLabelText('AE title'), 'DR_ROOM2');
    await user.click(buttonByText('Save', modal));
    await screen.findByText('Device DR room 2 saved.');
    const posts = api.requests.filter((r) => r.method === 'POST' && r.path === 'buckets/b1/devices');
    expect(posts.at(-1)?.body).toEqual({
      name: 'DR room 2',
      aeTitle: 'DR_ROOM2',
      host: '10.0.0.22',
      port: 11112,
      modality: 'DX',
      room: 'Room 2',
      deviceGroupId: 'dg1',
      charset: 'GB18030',
    });
    const row = await findRow('DR room 2');
    expect(within(row).getByText('Chinese (GB18030)')).toBeTruthy();
    expect(within(row).getByText('CT scanners')).toBeTruthy();
  });

  it('adds and renames device groups, listing the devices each holds', async () => {
    const state = procedureState();
    const { api, user } = await openSection(state, 'Device groups');
    expect(within(await findRow('CT scanners')).getByText('CT room 1')).toBeTruthy();
    await user.click(await findButtonByText('Add device group'));
    const modal = await findOverlay('New device group');
    await user.type(within(modal).getByLabelText('Name'), 'MR scanners');
    await user.click(buttonByText('Save', modal));
    await screen.findByText('Device group MR scanners saved.');
    expect(await findRow('MR scanners')).toBeTruthy();

    await user.click(buttonByText('Edit', await findRow('MR scanners')));
    const rename = await findOverlay('Rename device group MR scanners');
    await user.clear(within(rename).getByLabelText('Name'));
    await user.type(within(rename).getByLabelText('Name'), 'ct SCANNERS');
    await user.click(buttonByText('Save', rename));
    expect(await within(rename).findByText('A device group with this name already exists.')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('checks modality codes as the contract does before adding one', async () => {
    const state = procedureState();
    const { api, user } = await openSection(state, 'Modality dictionary');
    expect(await findRow('Computed tomography')).toBeTruthy();
    await user.click(await findButtonByText('Add modality'));
    const modal = await findOverlay('New modality');
    await user.type(within(modal).getByLabelText('Modality code'), 'mr');
    await user.type(within(modal).getByLabelText('Display name'), 'Magnetic resonance');
    await user.click(buttonByText('Save', modal));
    expect(await within(modal).findByText('Use upper-case letters, digits and _ only.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.clear(within(modal).getByLabelText('Modality code'));
    await user.type(within(modal).getByLabelText('Modality code'), 'MR');
    await user.click(buttonByText('Save', modal));
    await screen.findByText('Modality MR saved.');
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      modalityCode: 'MR',
      displayName: 'Magnetic resonance',
    });
    expect(await findRow('Magnetic resonance')).toBeTruthy();
  });
});

const sheet = (name = 'procedures.xlsx') =>
  new File([new Uint8Array([80, 75, 3, 4])], name, { type: XLSX_CONTENT_TYPE });

describe('the Excel import', { timeout: 60_000 }, () => {
  async function openImport(state: ProcedureState) {
    const opened = await openSection(state);
    await opened.user.click(await findButtonByText('Import from Excel'));
    const modal = await findOverlay('Import procedures from Excel');
    const input = modal.querySelector('input[type=file]') as HTMLInputElement;
    return { ...opened, modal, input };
  }

  it('lists the refused rows by row, column and problem; nothing is imported', async () => {
    const state = procedureState({
      importAnswer: {
        rows: [
          { row: 3, column: 'code', problem: 'duplicateCode', value: '2', message: 'the code of row 2' },
          {
            row: 4,
            column: 'deviceGroups',
            problem: 'unknownDeviceGroup',
            value: 'MR',
            message: 'not a device group of this organization: MR',
          },
        ],
      },
    });
    const { api, user, modal, input } = await openImport(state);
    await user.upload(input, sheet());
    expect(
      await within(modal).findByText(
        'Nothing was imported from procedures.xlsx: 2 problems. Correct them in the file and import it again.',
      ),
    ).toBeTruthy();
    // Each problem in the user's language, from its code.
    const row = (await within(modal).findByText('The same code as row 2')).closest('tr') as HTMLElement;
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByText('Code')).toBeTruthy();
    expect(within(modal).getByText('Device groups')).toBeTruthy();
    expect(within(modal).getByText('Not a device group of this organization: MR')).toBeTruthy();
    const post = api.requests.find((r) => r.method === 'POST' && r.path === 'buckets/b1/procedures/import');
    expect(post?.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
  });

  it('shows the counts of an accepted sheet and refreshes the list', async () => {
    const state = procedureState({ importAnswer: { created: 2, updated: 1 } });
    const { api, user, modal, input } = await openImport(state);
    const listsBefore = api.requests.filter((r) => r.method === 'GET' && r.path === 'buckets/b1/procedures').length;
    await user.upload(input, sheet('desk.xlsx'));
    expect(await within(modal).findByText('Imported from desk.xlsx: 2 added, 1 updated.')).toBeTruthy();
    await waitFor(() =>
      expect(api.requests.filter((r) => r.method === 'GET' && r.path === 'buckets/b1/procedures').length).toBe(
        listsBefore + 1,
      ),
    );
  });

  it('refuses a file over 5 MB without sending it', async () => {
    const { api, user, modal, input } = await openImport(procedureState());
    const big = new File([new Uint8Array(PROCEDURE_IMPORT_MAX_BYTES + 1)], 'big.xlsx', { type: XLSX_CONTENT_TYPE });
    await user.upload(input, big);
    expect(await within(modal).findByText('The file is larger than 5.0 MB.')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'buckets/b1/procedures/import')).toBe(false);
  });
});
