// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  callingCalls,
  callingSettingsCalls,
  callKey,
  DEFAULT_CALLING_SETTINGS,
  screenTokenCalls,
  type QueueType,
  type ScreenToken,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { queueTypeOf } from '../../test/callingFixtures';
import { openOrganizationTab } from '../../test/openPage';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { groupOf, orgMemberOf } from '../../test/tenancyFixtures';

const tokenOf = (over: Partial<ScreenToken> = {}): ScreenToken => ({
  id: 'st1',
  bucketId: 'b1',
  label: 'Hall TV',
  createdByName: 'Admin',
  created: '2026-11-27T01:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
  ...over,
});

/** The organization's settings tab with its call queues (issue 23), the group's calling on or off. */
function openSettings(enableCalling = true) {
  const types: QueueType[] = [queueTypeOf()];
  const tokens: ScreenToken[] = [tokenOf()];
  const group = groupOf({ settings: { ...groupOf().settings, enableCalling } });
  return openOrganizationTab('settings', {
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    'GET groups/g1': () => ({ status: 200, body: group }),
    'GET buckets/b1/members': () => ({ status: 200, body: [orgMemberOf()] }),
    [callKey(callingCalls.queueTypes)]: () => ({ status: 200, body: types }),
    [callKey(callingCalls.addQueueType)]: (r) => {
      const added = queueTypeOf({ ...(r.body as object), id: 't9' });
      types.push(added);
      return { status: 201, body: added };
    },
    [callKey(callingSettingsCalls.get)]: () => ({ status: 200, body: DEFAULT_CALLING_SETTINGS }),
    [callKey(callingSettingsCalls.update)]: (r) => ({ status: 200, body: r.body }),
    [callKey(screenTokenCalls.list)]: () => ({ status: 200, body: tokens }),
    [callKey(screenTokenCalls.issue)]: (r) => {
      const issued = tokenOf({ id: 'st2', label: (r.body as { label: string }).label });
      tokens.push(issued);
      return { status: 201, body: { screenToken: issued, token: 'secret-token' } };
    },
    [callKey(screenTokenCalls.revoke)]: () => {
      tokens[0] = tokenOf({ revokedAt: '2026-11-27T02:00:00.000Z' });
      return { status: 200, body: tokens[0] };
    },
  });
}

/** The settings tab has loaded (its chunk and the calls): the call queues card's title shows. */
const loaded = () => screen.findByText('Call queues', {}, { timeout: 15_000 });

describe('organization settings → call queues', () => {
  it('adds a queue type and saves the announcement template', { timeout: 60_000 }, async () => {
    const api = openSettings();
    await loaded();
    await findRow('CT 1');
    fireEvent.click(buttonByText('Add queue'));
    const dialog = await findOverlay('Add a queue');
    await userEvent.type(within(dialog).getByLabelText('Display name'), 'MR');
    await userEvent.type(within(dialog).getByLabelText('Modality'), 'MR');
    await userEvent.type(within(dialog).getByLabelText('Room (spoken and shown)'), 'MR 1');
    fireEvent.click(buttonByText('Save', dialog));
    await findRow('MR 1');
    expect(api.requests.find((r) => r.path === 'queue-types/add')?.body).toEqual({
      bucketId: 'b1',
      displayName: 'MR',
      modality: 'MR',
      roomName: 'MR 1',
      urgentFirst: true,
    });

    const template = screen.getByLabelText('Announcement template');
    expect(screen.getByText('Example: 请 3 号 王*东 到 CT 1 检查')).toBeTruthy();
    await userEvent.clear(template);
    await userEvent.type(template, '{{病人} 请到 {{诊室}');
    fireEvent.click(buttonByText('Save', template.closest('form') as HTMLElement));
    // An unknown placeholder is refused before anything is sent.
    await screen.findByText('Placeholders: {号} queue number, {姓名} name, {诊室} room.', {
      selector: '.ant-form-item-explain-error',
    });
    await userEvent.clear(template);
    await userEvent.type(template, '{{号}号 {{姓名} 请到 {{诊室}');
    fireEvent.click(screen.getByRole('switch', { name: 'Speak full names' }));
    await waitFor(() =>
      expect(document.querySelector('.yyp-callqueues__preview')?.textContent).toBe(
        'Example: 3号 王晓东 请到 CT 1Preview',
      ),
    );
    fireEvent.click(buttonByText('Save', template.closest('form') as HTMLElement));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
        announcementTemplate: '{号}号 {姓名} 请到 {诊室}',
        speakFullName: true,
      }),
    );
  });

  it('issues a screen address shown once, and revokes a screen', { timeout: 60_000 }, async () => {
    const api = openSettings();
    await loaded();
    await findRow('Hall TV');
    await userEvent.type(screen.getByLabelText('Screen label'), 'Second floor');
    fireEvent.click(buttonByText('Issue screen address'));
    const dialog = await findOverlay('Screen address issued');
    expect(within(dialog).getByText(/\/calling\/b1\/screen-show\?token=secret-token$/)).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'buckets/b1/screen-tokens' && r.method === 'POST')?.body).toEqual({
      label: 'Second floor',
    });
    fireEvent.click(buttonByText('Close', dialog));
    await findRow('Second floor');

    fireEvent.click(buttonByText('Revoke', await findRow('Hall TV')));
    fireEvent.click(
      buttonByText(
        'Revoke',
        (await screen.findByText(/Revoke the screen "Hall TV"/)).closest('.ant-popover') as HTMLElement,
      ),
    );
    await waitFor(() => expect(api.requests.some((r) => r.path === 'screen-tokens/st1/revoke')).toBe(true));
    expect(await within(await findRow('Hall TV')).findByText('Revoked')).toBeTruthy();
  });

  it('says calling is off when the group has it switched off', { timeout: 60_000 }, async () => {
    const api = openSettings(false);
    await screen.findByText('Calling is switched off for this group (group settings).');
    expect(api.requests.some((r) => r.path.includes('queue-types'))).toBe(false);
  });
});
