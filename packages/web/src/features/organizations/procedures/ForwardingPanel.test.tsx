// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  GROUP_ACCESS_LEVELS,
  callKey,
  defaultDomainConfig,
  forwardingCalls,
  type DicomSend,
  type ForwardingRule,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from '../../../test/fakeApi';
import { deviceOf, procedureHandlers, procedureState, type ProcedureState } from '../../../test/procedureFixtures';
import { buttonByText, findButtonByText, findOverlay, findRow } from '../../../test/queries';
import { renderApp } from '../../../test/renderApp';
import { groupOf, organizationOf } from '../../../test/tenancyFixtures';

function ruleOf(overrides: Partial<ForwardingRule> = {}): ForwardingRule {
  return {
    id: 'r1',
    bucketId: 'b1',
    name: 'CT to archive',
    destinationId: 'd2',
    destinationAe: 'PACS_B',
    modality: 'CT',
    sourceAe: '',
    bodyPart: '',
    enabled: true,
    updated: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function sendOf(overrides: Partial<DicomSend> = {}): DicomSend {
  return {
    id: 'x1',
    examId: 'exam-0001',
    destinationId: 'd2',
    destinationAe: 'PACS_B',
    seriesUids: null,
    trigger: 'rule',
    ruleId: 'r1',
    status: 'running',
    total: 10,
    sent: 4,
    failed: 0,
    failedInstances: [],
    attempts: 1,
    lastError: null,
    created: '2026-01-02T08:00:00.000Z',
    finished: null,
    ...overrides,
  };
}

/** The forwarding rules and sends of organization b1, answered as the server would (forwardingCalls). */
function forwardingHandlers(
  state: ProcedureState,
  rules: ForwardingRule[],
  sends: DicomSend[],
): Record<string, FakeHandler> {
  const ruleFrom = (body: Record<string, unknown>, id: string): ForwardingRule => {
    const device = state.devices.find((d) => d.id === body.destinationId);
    return { ...ruleOf(), ...body, id, destinationAe: device?.aeTitle ?? '' } as ForwardingRule;
  };
  return {
    ...procedureHandlers(state),
    [callKey(forwardingCalls.listRules)]: () => ({ status: 200, body: rules }),
    [callKey(forwardingCalls.createRule)]: (r) => {
      const rule = ruleFrom(r.body as Record<string, unknown>, `r${rules.length + 1}`);
      rules.push(rule);
      return { status: 201, body: rule };
    },
    [callKey(forwardingCalls.updateRule)]: (r) => {
      const rule = ruleFrom(r.body as Record<string, unknown>, r.params.id ?? '');
      rules.splice(
        rules.findIndex((x) => x.id === rule.id),
        1,
        rule,
      );
      return { status: 200, body: rule };
    },
    // each read moves a running send on by 3 images, to done
    [callKey(forwardingCalls.listSends)]: () => {
      sends.splice(
        0,
        sends.length,
        ...sends.map((s) =>
          s.status === 'running'
            ? s.sent + 3 >= s.total
              ? { ...s, sent: s.total, status: 'done' as const }
              : { ...s, sent: s.sent + 3 }
            : s,
        ),
      );
      return { status: 200, body: sends.map((s) => ({ ...s })) };
    },
  };
}

/** Procedure management's forwarding tab as an organization admin, or a plain member. */
async function openForwarding(
  state: ProcedureState,
  rules: ForwardingRule[],
  sends: DicomSend[],
  role: 'admin' | 'member' = 'admin',
) {
  const group = groupOf({ accessLevel: role === 'admin' ? GROUP_ACCESS_LEVELS.admin : GROUP_ACCESS_LEVELS.member });
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [group] }),
    'GET groups/g1': () => ({ status: 200, body: group }),
    'GET buckets/b1': () => ({ status: 200, body: organizationOf({ accessLevel: role }) }),
    ...forwardingHandlers(state, rules, sends),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp('/groups/g1/organizations/b1?tab=procedures');
  const user = userEvent.setup();
  await user.click(await screen.findByText('Forwarding rules', { selector: '.ant-tabs-tab *' }));
  return { api, user };
}

const archive = deviceOf({ id: 'd2', name: 'Archive B', aeTitle: 'PACS_B', host: '10.0.0.9', port: 11112 });
const noAddress = deviceOf({ id: 'd1', name: 'CT room 1', host: null, port: null });

// Each test drives the whole signed-in shell through dialogs: slow on a busy machine.
describe('forwarding rules and recent sends (procedure management)', { timeout: 60_000 }, () => {
  it('lists the rules with their destination and filters, and the recent sends until done', async () => {
    const state = procedureState({ devices: [noAddress, archive] });
    await openForwarding(
      state,
      [
        ruleOf(),
        ruleOf({ id: 'r2', name: 'From MR1', modality: '', sourceAe: 'MR1', bodyPart: 'KNEE', enabled: false }),
      ],
      [sendOf()],
    );
    const ct = await findRow('CT to archive');
    expect(within(ct).getByText('PACS_B')).toBeTruthy();
    expect(within(ct).getByText(/Archive B/)).toBeTruthy();
    expect(within(ct).getByText('CT')).toBeTruthy();
    // '' matches anything: shown as Any
    expect(within(ct).getAllByText('Any')).toHaveLength(2);
    expect(within(ct).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    const mr = await findRow('From MR1');
    expect(within(mr).getByText('MR1')).toBeTruthy();
    expect(within(mr).getByText('KNEE')).toBeTruthy();
    expect(within(mr).getAllByText('Any')).toHaveLength(1);
    expect(within(mr).getByRole('switch').getAttribute('aria-checked')).toBe('false');

    // the recent send, named by its rule, read again while under way: 7 of 10, then 10 of 10
    const send = await findRow('Rule: CT to archive');
    expect(within(send).getByText('Whole study')).toBeTruthy();
    expect(await screen.findByText('7 / 10 images', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('10 / 10 images', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(await findRow('Rule: CT to archive')).getByText('Done')).toBeTruthy();
  });

  it('adds a rule with a destination that has a host and port, and switches one off', async () => {
    const state = procedureState({ devices: [noAddress, archive] });
    const rules = [ruleOf()];
    const { api, user } = await openForwarding(state, rules, []);
    await user.click(await findButtonByText('Add forwarding rule'));
    const modal = await findOverlay('New forwarding rule');
    await user.type(within(modal).getByLabelText('Name'), 'Knees from MR1');
    await user.click(within(modal).getByLabelText('Destination'));
    expect(await screen.findByText('Archive B · PACS_B (10.0.0.9:11112)')).toBeTruthy();
    // a device without host and port is not offered
    expect(screen.queryByText(/CT room 1/, { selector: '.ant-select-item-option-content' })).toBeNull();
    await user.click(screen.getByText('Archive B · PACS_B (10.0.0.9:11112)'));
    await user.type(within(modal).getByLabelText('Source AE title'), 'MR1');
    await user.type(within(modal).getByLabelText('Body part'), 'KNEE');
    await user.click(buttonByText('Save', modal));
    await screen.findByText('Forwarding rule Knees from MR1 saved.');
    const created = api.requests.filter((r) => r.method === 'POST' && r.path === 'buckets/b1/forwarding-rules');
    expect(created[0]?.body).toEqual({
      name: 'Knees from MR1',
      destinationId: 'd2',
      modality: '',
      sourceAe: 'MR1',
      bodyPart: 'KNEE',
      enabled: true,
    });
    expect(await findRow('Knees from MR1')).toBeTruthy();

    await user.click(within(await findRow('CT to archive')).getByRole('switch'));
    await screen.findByText('Forwarding rule CT to archive disabled.');
    const put = api.requests.find((r) => r.method === 'PUT' && r.path === 'buckets/b1/forwarding-rules/r1');
    expect(put?.body).toEqual({
      name: 'CT to archive',
      destinationId: 'd2',
      modality: 'CT',
      sourceAe: '',
      bodyPart: '',
      enabled: false,
    });
    await waitFor(() =>
      expect(
        within(document.querySelector('tr[data-row-key="r1"]') as HTMLElement)
          .getByRole('switch')
          .getAttribute('aria-checked'),
      ).toBe('false'),
    );
  });

  it('says where to give a device its host and port when no device can receive', async () => {
    const state = procedureState({ devices: [noAddress] });
    const { user } = await openForwarding(state, [], []);
    expect(await screen.findByText('No forwarding rule yet.')).toBeTruthy();
    expect(screen.getByText('Nothing has been sent yet.')).toBeTruthy();
    await user.click(await findButtonByText('Add forwarding rule'));
    const modal = await findOverlay('New forwarding rule');
    expect(
      within(modal).getByText(
        'No device can receive studies yet: first fill in a device’s host and port under Devices.',
      ),
    ).toBeTruthy();
  });

  it('is read-only for a member: no add, edit, delete, and the switch does not change', async () => {
    const state = procedureState({ devices: [archive] });
    const { api } = await openForwarding(state, [ruleOf()], [sendOf({ status: 'done', sent: 10 })], 'member');
    const row = await findRow('CT to archive');
    expect(screen.queryByText('Add forwarding rule')).toBeNull();
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(within(row).queryByText('Delete')).toBeNull();
    expect((within(row).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    expect(await findRow('Rule: CT to archive')).toBeTruthy();
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
  });
});
