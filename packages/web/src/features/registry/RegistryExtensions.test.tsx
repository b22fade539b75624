// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  callKey,
  defaultDomainConfig,
  registryCalls,
  scheduledExamExtensionCalls,
  type ExamExtensionConfig,
  type RegistryItem,
  type ScheduledExamExtension,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { bucketOf, itemOf } from '../../test/registryFixtures';
import { groupOf } from '../../test/tenancyFixtures';

/** The exam extension fields in the registration form when it is edited (issue 22: scheduled-exams extensions). */
const ALL = ['registry_create', 'registry_arrive', 'registry_update', 'registry_delete'];

const field = (id: string, overrides: Partial<ExamExtensionConfig>): ExamExtensionConfig => ({
  id,
  bucketId: 'b1',
  name: id,
  label: id,
  type: 'text',
  options: [],
  required: false,
  sort: 0,
  ...overrides,
});
const configs = [
  field('history', { label: 'History', required: true }),
  field('contrast', { label: 'Contrast', type: 'select', options: ['Iohexol', 'Gadolinium'] }),
];

function registrationOf(row: RegistryItem) {
  const { passCode, source, patient, patientSource, applyDept, orderPlacer, urgent, registrarName, ...exam } = row;
  return {
    id: row.registrationId,
    version: 1,
    bucketId: 'b1',
    groupId: 'g1',
    source,
    passCode,
    patient,
    patientSource,
    inpatientId: '',
    bedNum: '',
    outpatientId: 'MZ1',
    physicalExamId: '',
    applyDept,
    orderPlacer,
    clinicImpression: '',
    urgent,
    note: '',
    weight: null,
    height: null,
    registrarName,
    orderId: null,
    created: row.created,
    updated: row.updated,
    exams: [exam],
  };
}

async function openEdit(row: RegistryItem, initial: ScheduledExamExtension['values']) {
  let values = { ...initial };
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'registrar', name: 'Zhao' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    [callKey(registryCalls.buckets)]: () => ({ status: 200, body: [bucketOf(ALL)] }),
    [callKey(registryCalls.query)]: () => ({ status: 200, body: { items: [row], count: 1 } }),
    [callKey(registryCalls.passCode)]: () => ({ status: 200, body: registrationOf(row) }),
    [callKey(scheduledExamExtensionCalls.get)]: () => ({
      status: 200,
      body: { scheduledExamId: row.id, values, configs },
    }),
    [callKey(scheduledExamExtensionCalls.upsert)]: (r) => {
      const { configId, value } = r.body as { configId: string; value: string };
      values = { ...values, [configId]: value };
      return { status: 200, body: { scheduledExamId: row.id, values, configs } };
    },
  });
  sessionStore.signIn('registrar', tokenFor('registrar'));
  renderApp('/registry');
  await screen.findByText(row.accessionNumber, {}, { timeout: 15_000 });
  const user = userEvent.setup();
  await user.click(buttonByText('Edit', await findRow(row.accessionNumber)));
  const drawer = await findOverlay('Edit the registration');
  return { api, user, drawer };
}

describe('/registry extension fields', () => {
  it('shows the fields with their values and saves one as it is left', { timeout: 60_000 }, async () => {
    const row = itemOf();
    const { api, user, drawer } = await openEdit(row, { history: 'Hypertension' });
    const history = (await within(drawer).findByLabelText('History', {}, { timeout: 5_000 })) as HTMLInputElement;
    expect(history.value).toBe('Hypertension');
    expect(within(drawer).getByText('History *')).toBeTruthy();
    await user.clear(history);
    await user.type(history, 'Diabetes');
    await user.tab();
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === `scheduled-exams/${row.id}/upsert-extension`)?.body).toEqual({
        configId: 'history',
        value: 'Diabetes',
      }),
    );
    // Leaving a field unchanged sends nothing.
    const before = api.requests.length;
    await user.click(history);
    await user.tab();
    expect(api.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('is read only once the exam has its images', { timeout: 60_000 }, async () => {
    const row = itemOf({ status: 'Performed', examId: 'e1' });
    const { drawer } = await openEdit(row, { history: 'Hypertension' });
    const history = (await within(drawer).findByLabelText('History', {}, { timeout: 5_000 })) as HTMLInputElement;
    expect(history.disabled).toBe(true);
    expect(within(drawer).getByText(/The exam has its images/)).toBeTruthy();
  });
});
