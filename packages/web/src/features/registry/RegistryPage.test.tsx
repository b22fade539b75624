// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  callKey,
  defaultDomainConfig,
  hospitalDate,
  patientCalls,
  procedureCalls,
  registryCalls,
  type RegistryItem,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../test/fakeApi';
import { buttonByText, findOverlay, findRow } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { bucketOf, itemOf } from '../../test/registryFixtures';
import { groupOf } from '../../test/tenancyFixtures';

const ALL = ['registry_create', 'registry_arrive', 'registry_update', 'registry_delete'];

function signedIn(actions: string[], items: RegistryItem[], extra: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'registrar', name: 'Zhao' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    [callKey(registryCalls.buckets)]: () => ({ status: 200, body: [bucketOf(actions)] }),
    [callKey(registryCalls.query)]: (r) => {
      const { skip = 0, limit = 10 } = r.body as { skip?: number; limit?: number };
      return { status: 200, body: { items: items.slice(skip, skip + limit), count: items.length } };
    },
    ...extra,
  });
  sessionStore.signIn('registrar', tokenFor('registrar'));
  return { api, ...renderApp('/registry') };
}

/** The row of `text`, once the page's chunk and the list have loaded. */
async function firstRow(text: string) {
  await screen.findByText(text, {}, { timeout: 15_000 });
  return findRow(text);
}

const rowButtons = (row: HTMLElement) =>
  within(row)
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('/registry', () => {
  // The file's first render imports the registry's route and its forms (4–8 s for the tests after it;
  // 30.7 s on a busy machine on 2026-11-28): 60 s.
  it('lists the scheduled exams with the actions each status allows', { timeout: 60_000 }, async () => {
    const scheduled = itemOf({ patient: { ...itemOf().patient, name: 'Wang Fang' } });
    const performed = itemOf({
      status: 'Performed',
      patient: { ...itemOf().patient, name: 'Li Lei' },
      deviceName: '',
      stationAeTitle: 'CT_ROOM2',
    });
    const { api } = signedIn([...ALL], [scheduled, performed]);
    const row = await firstRow('Wang Fang');
    expect(within(row).getByText('Scheduled')).toBeTruthy();
    expect(within(row).getByText('CT-1')).toBeTruthy();
    // No device chosen: the station the procedure names.
    expect(within(await findRow('Li Lei')).getByText('CT_ROOM2')).toBeTruthy();
    expect(within(row).getByText(scheduled.accessionNumber)).toBeTruthy();
    expect(rowButtons(row)).toEqual(['Arrive', 'Revoke', 'Delete', 'Edit', 'Label', 'Referral form']);
    // Performed: confirming is done; cancelling its arrival needs exam_delete as well.
    expect(rowButtons(await findRow('Li Lei'))).not.toContain('Cancel arrival');
    const query = api.requests.find((r) => r.path === 'buckets/b1/registry/query');
    expect(query?.body).toMatchObject({
      source: 'internal',
      skip: 0,
      limit: 10,
      sort: { field: 'created', direction: 'desc' },
    });
    // The navbar shows the registry to a registrar.
    expect(screen.getByRole('navigation', { name: 'Main navigation' }).textContent).toContain('Registry');
  });

  it('warns that cancelling a Performed arrival deletes its exam and report', { timeout: 30_000 }, async () => {
    const performed = itemOf({ status: 'Performed', patient: { ...itemOf().patient, name: 'Li Lei' } });
    const { api } = signedIn([...ALL, 'exam_delete'], [performed], {
      [callKey(registryCalls.status)]: () => ({ status: 200, body: { ...performed, status: 'Scheduled' } }),
    });
    const row = await firstRow('Li Lei');
    const user = userEvent.setup();
    await user.click(buttonByText('Cancel arrival', row));
    const dialog = await findOverlay('Cancel the arrival?');
    expect(within(dialog).getByText(/its exam and report are deleted/)).toBeTruthy();
    await user.click(buttonByText('Cancel arrival', dialog));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'registry/exam/status')?.body).toEqual({
        id: performed.id,
        action: 'cancelArrival',
      }),
    );
  });

  it('registers a walk-in from the keyboard and sends patient, source ids and exams', { timeout: 60_000 }, async () => {
    const { api } = signedIn([...ALL], [], {
      [callKey(registryCalls.create)]: (r) => {
        const body = r.body as { exams: object[] };
        return {
          status: 201,
          body: { exams: body.exams.map((_, i) => ({ accessionNumber: `A${i}` })) },
        };
      },
    });
    await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
    fireEvent.keyDown(window, { key: 'F2' });
    const drawer = await findOverlay('Register a patient');
    const user = userEvent.setup();
    await waitFor(() => expect(document.activeElement).toBe(within(drawer).getByLabelText('Name')));
    await user.keyboard('Zhang San{Enter}');
    // Enter moved on to the next field instead of submitting.
    expect(document.activeElement).not.toBe(within(drawer).getByLabelText('Name'));
    expect(api.requests.some((r) => r.path === 'registry')).toBe(false);
    await user.type(within(drawer).getByLabelText('Outpatient ID'), 'MZ001');
    await user.type(within(drawer).getByLabelText('Modality'), 'CT');
    await user.type(within(drawer).getByLabelText('Body part'), 'Head');
    await user.click(buttonByText('Register and arrive', drawer));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'registry')).toBe(true), { timeout: 5_000 });
    const body = api.requests.find((r) => r.path === 'registry')?.body;
    expect(body).toMatchObject({
      bucketId: 'b1',
      arrive: true,
      patient: { name: 'Zhang San', gender: 'U', birthDate: '' },
      patientSource: 'O',
      outpatientId: 'MZ001',
      inpatientId: '',
      exams: [
        {
          procedureId: null,
          modality: 'CT',
          bodyPart: 'Head',
          scheduledDate: hospitalDate(new Date()),
          scheduledTime: '',
          deviceId: null,
        },
      ],
    });
  });

  it(
    'fills the patient from the search and picks a procedure; without devices, no device field',
    { timeout: 60_000 },
    async () => {
      const known = itemOf().patient;
      const { api } = signedIn([...ALL], [], {
        [callKey(patientCalls.query)]: () => ({
          status: 200,
          body: { patients: [{ ...known, name: 'Zhao Lei', phone: '13800000000', birthDate: '19900505' }], count: 1 },
        }),
        [callKey(procedureCalls.procedures.list)]: () => ({
          status: 200,
          body: [
            {
              id: 'pr1',
              bucketId: 'b1',
              name: 'Head CT',
              code: 'CT-H',
              enName: '',
              price: 0,
              scanTech: '',
              isEnhanced: false,
              bodyPartCount: 1,
              modality: 'CT',
              aeTitle: '',
              deviceGroupIds: [],
              steps: [],
              reportDuringExam: false,
              showLocalVideo: false,
              imagingOptional: false,
              sort: 0,
            },
          ],
        }),
        [callKey(procedureCalls.devices.list)]: () => ({ status: 500, body: { code: 'InternalError', message: 'x' } }),
        [callKey(registryCalls.create)]: () => ({ status: 201, body: { exams: [{ accessionNumber: 'A1' }] } }),
      });
      await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
      fireEvent.keyDown(window, { key: 'n', altKey: true });
      const drawer = await findOverlay('Register a patient');
      const user = userEvent.setup();
      await user.type(within(drawer).getByLabelText('Name'), 'zl');
      await user.click(await screen.findByText(`Zhao Lei · ${known.patientId} · 13800000000`));
      expect((within(drawer).getByLabelText('Phone') as HTMLInputElement).value).toBe('13800000000');
      // The devices could not be loaded: no device field; the procedure list still shows.
      expect(within(drawer).queryByLabelText('Device')).toBeNull();
      await user.click(within(drawer).getByLabelText('Procedure'));
      await user.click(await screen.findByText('Head CT (CT)'));
      expect((within(drawer).getByLabelText('Modality') as HTMLInputElement).value).toBe('CT');
      await user.click(buttonByText('Register', drawer));
      await waitFor(() => expect(api.requests.some((r) => r.path === 'registry')).toBe(true), { timeout: 5_000 });
      expect(api.requests.find((r) => r.path === 'registry')?.body).toMatchObject({
        arrive: false,
        patient: { id: known.id, name: 'Zhao Lei', birthDate: '19900505', phone: '13800000000' },
        exams: [{ procedureId: 'pr1', modality: 'CT' }],
      });
      expect(api.requests.find((r) => r.path === 'patients/query')?.body).toMatchObject({ bucketId: 'b1', q: 'zl' });
    },
  );

  it(
    'refuses a scheduled date before today and a malformed birth date before calling',
    { timeout: 60_000 },
    async () => {
      const { api } = signedIn([...ALL], []);
      await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
      fireEvent.keyDown(window, { key: 'F2' });
      const drawer = await findOverlay('Register a patient');
      const user = userEvent.setup();
      await user.type(within(drawer).getByLabelText('Name'), 'Zhang San');
      await user.type(within(drawer).getByLabelText('Birth date'), '1990-1');
      await user.type(within(drawer).getByLabelText('Modality'), 'CT');
      fireEvent.change(within(drawer).getByLabelText('Date'), { target: { value: '2020-01-01' } });
      await user.click(buttonByText('Register', drawer));
      expect(await within(drawer).findByText('Not before today')).toBeTruthy();
      expect(within(drawer).getByText('A date YYYYMMDD')).toBeTruthy();
      expect(api.requests.some((r) => r.path === 'registry')).toBe(false);
    },
  );

  it('shows a refusal on the field it names', { timeout: 60_000 }, async () => {
    signedIn([...ALL], [], {
      [callKey(registryCalls.create)]: () => errorAnswer(400, 'ValidationError', { field: 'exams.0.modality' }),
    });
    await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
    await userEvent.setup().click(screen.getByText('Register (F2)'));
    const drawer = await findOverlay('Register a patient');
    const user = userEvent.setup();
    await user.type(within(drawer).getByLabelText('Name'), 'Zhang San');
    await user.type(within(drawer).getByLabelText('Modality'), 'XX');
    await user.keyboard('{Control>}{Enter}{/Control}');
    const item = within(drawer).getByLabelText('Modality').closest('.ant-form-item') as HTMLElement;
    await waitFor(() => expect(item.querySelector('.ant-form-item-explain-error')).toBeTruthy(), { timeout: 5_000 });
  });

  it('edits a registration through the same form, with its version', { timeout: 60_000 }, async () => {
    const row = itemOf({ patient: { ...itemOf().patient, name: 'Wang Fang' } });
    const registration = {
      id: row.registrationId,
      version: 4,
      bucketId: 'b1',
      groupId: 'g1',
      source: 'internal',
      passCode: row.passCode,
      patient: row.patient,
      patientSource: 'I',
      inpatientId: 'ZY7',
      bedNum: '3',
      outpatientId: '',
      physicalExamId: '',
      applyDept: 'Neurology',
      orderPlacer: 'Dr. Sun',
      clinicImpression: '',
      urgent: false,
      note: '',
      weight: null,
      height: null,
      registrarName: 'Zhao',
      orderId: null,
      created: row.created,
      updated: row.updated,
      exams: [
        {
          ...row,
          passCode: undefined,
          source: undefined,
          patient: undefined,
          patientSource: undefined,
          applyDept: undefined,
          orderPlacer: undefined,
          urgent: undefined,
          registrarName: undefined,
        },
      ],
    };
    const { api } = signedIn([...ALL], [row], {
      [callKey(registryCalls.passCode)]: () => ({ status: 200, body: registration }),
      [callKey(registryCalls.update)]: () => ({ status: 200, body: registration }),
    });
    const user = userEvent.setup();
    await user.click(buttonByText('Edit', await firstRow('Wang Fang')));
    const drawer = await findOverlay('Edit the registration');
    // The inpatient's fields show once the form has read the registration's source.
    const bed = (await within(drawer).findByLabelText('Bed', {}, { timeout: 5_000 })) as HTMLInputElement;
    expect(bed.value).toBe('3');
    await user.clear(within(drawer).getByLabelText('Bed'));
    await user.type(within(drawer).getByLabelText('Bed'), '5');
    await user.click(buttonByText('Save', drawer));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true), { timeout: 5_000 });
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({
      id: row.registrationId,
      version: 4,
      patient: { id: row.patient.id, name: 'Wang Fang' },
      patientSource: 'I',
      inpatientId: 'ZY7',
      bedNum: '5',
      applyDept: 'Neurology',
      exams: [{ id: row.id, modality: 'CT', scheduledDate: row.scheduledDate }],
    });
  });

  it('revokes only with a reason', { timeout: 60_000 }, async () => {
    const row = itemOf({ patient: { ...itemOf().patient, name: 'Wang Fang' } });
    const { api } = signedIn([...ALL], [row], {
      'POST scheduled-exams/:id/revoke': () => ({ status: 200, body: { ...row, status: 'Cancelled' } }),
    });
    const user = userEvent.setup();
    await user.click(buttonByText('Revoke', await firstRow('Wang Fang')));
    const dialog = await findOverlay('Revoke the appointment');
    expect(buttonByText('Revoke', dialog).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Reason'), 'Patient asked');
    await user.click(buttonByText('Revoke', dialog));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === `scheduled-exams/${row.id}/revoke`)?.body).toEqual({
        reason: 'Patient asked',
      }),
    );
  });

  it('arrives and confirms the selected exams, at most 15 at once', { timeout: 60_000 }, async () => {
    const items = Array.from({ length: 20 }, (_, i) =>
      itemOf({ status: 'Arrived', patient: { ...itemOf().patient, name: `Row ${i + 1}` } }),
    );
    const { api } = signedIn([...ALL], items, {
      [callKey(registryCalls.confirm)]: () => ({ status: 200, body: [] }),
      [callKey(registryCalls.arrive)]: () => ({ status: 200, body: [] }),
    });
    await firstRow('Row 1');
    const user = userEvent.setup();
    const selectAll = () => document.querySelector('thead .ant-checkbox-input') as HTMLInputElement;
    await user.click(selectAll());
    expect(buttonByText('Confirm selected (10)').disabled).toBe(false);
    await user.click(buttonByText('Arrive selected (10)'));
    await waitFor(() =>
      expect((api.requests.find((r) => r.path === 'registry/arrive')?.body as { ids: string[] }).ids).toEqual(
        items.slice(0, 10).map((i) => i.id),
      ),
    );
    await user.click(selectAll());
    await user.click(screen.getByTitle('2'));
    await findRow('Row 11');
    await user.click(selectAll());
    expect(buttonByText('Confirm selected (20)').disabled).toBe(true);
    expect(buttonByText('Arrive selected (20)').disabled).toBe(true);
    expect(screen.getAllByText('At most 15 at once').length).toBeGreaterThan(0);
  });
});
