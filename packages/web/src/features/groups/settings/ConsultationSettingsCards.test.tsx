// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callKey, consultationCalls, defaultDomainConfig, type Group } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor } from '../../../test/fakeApi';
import { renderApp } from '../../../test/renderApp';
import { groupOf, organizationOf } from '../../../test/tenancyFixtures';

/** A group admin's settings tab with consultations on; the fake keeps the targets and the rating config. */
function openSettings(options: { conflictOnce?: boolean } = {}) {
  let group: Group = groupOf({ settings: { enableConsultation: true, defaultConsultationBucketId: 'x1' } });
  let targets = [{ bucketId: 'x1', name: 'Expert Center', groupId: 'g2', isDefault: true }];
  let config = { labels: ['', '', '', '', ''], commentRequiredAtOrBelow: 0, version: 1 };
  let conflict = options.conflictOnce === true;
  const names: Record<string, string> = { b1: 'Radiology', b2: 'Ultrasound', 'x-9': 'Remote Hub' };
  const withDefault = () =>
    targets.map((t) => ({ ...t, isDefault: t.bucketId === group.settings.defaultConsultationBucketId }));
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'groupadmin', name: 'Zhou' }) }),
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    'GET groups/g1': () => ({ status: 200, body: group }),
    'PUT groups/g1': (r) => {
      const body = r.body as { settings?: Group['settings'] };
      group = { ...group, settings: { ...group.settings, ...body.settings } };
      return { status: 200, body: group };
    },
    'GET groups/g1/organizations': () => ({
      status: 200,
      body: [organizationOf({ id: 'b1', name: 'Radiology' }), organizationOf({ id: 'b2', name: 'Ultrasound' })],
    }),
    [callKey(consultationCalls.targets)]: () => ({ status: 200, body: { data: withDefault() } }),
    [callKey(consultationCalls.addTarget)]: (r) => {
      const bucketId = (r.body as { bucketId: string }).bucketId;
      targets = [...targets, { bucketId, name: names[bucketId] ?? bucketId, groupId: 'g1', isDefault: false }];
      return { status: 200, body: { data: withDefault() } };
    },
    [callKey(consultationCalls.removeTarget)]: (r) => {
      targets = targets.filter((t) => t.bucketId !== r.params.bucketId);
      return { status: 200, body: { data: withDefault() } };
    },
    [callKey(consultationCalls.ratingConfig)]: () => ({ status: 200, body: config }),
    [callKey(consultationCalls.saveRatingConfig)]: (r) => {
      if (conflict) {
        conflict = false;
        config = { ...config, version: 2 };
        return errorAnswer(409, 'Conflict');
      }
      config = { ...(r.body as typeof config), version: config.version + 1 };
      return { status: 200, body: config };
    },
  });
  sessionStore.signIn('groupadmin', tokenFor('groupadmin'));
  renderApp('/groups/g1?tab=settings');
  return { api };
}

describe('group settings: consultations', { timeout: 40_000 }, () => {
  it('saves the rating labels and the comment rule at the version read, reloading on a conflict', async () => {
    const { api } = openSettings({ conflictOnce: true });
    const card = (await screen.findByText('Consultation rating', {}, { timeout: 15_000 })).closest(
      '.ant-card',
    )! as HTMLElement;
    const fourth = await within(card).findByLabelText('4 star(s)');
    fireEvent.change(fourth, { target: { value: ' Very helpful ' } });
    fireEvent.mouseDown(within(card).getByRole('combobox', { name: 'Comment required at or below' }));
    fireEvent.click(await screen.findByTitle('2'));
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed these settings/)).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('4 star(s)'), { target: { value: ' Very helpful ' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        api.requests.filter((r) => r.path === 'groups/g1/rating-config' && r.method === 'PUT').map((r) => r.body),
      ).toEqual([
        { labels: ['', '', '', 'Very helpful', ''], commentRequiredAtOrBelow: 2, version: 1 },
        { labels: ['', '', '', 'Very helpful', ''], commentRequiredAtOrBelow: 0, version: 2 },
      ]),
    );
  });
});
