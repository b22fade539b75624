// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bindingCalls, callKey, type MatchCandidate, type MatchResult } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { examItemOf, openStudiesAs, type StudiesCaller } from '../../test/studiesFixture';

const free: MatchCandidate = {
  id: 's1',
  status: 'Scheduled',
  accessionNumber: 'A555',
  modality: 'CT',
  procedureName: 'Chest CT',
  studyDesc: '',
  scheduledDate: '2026-01-02',
  scheduledTime: '09:00',
  patientName: 'Li^Na',
  patientId: 'REG-1',
  patientGender: 'F',
  patientBirthDate: '19700102',
  examId: null,
  instanceCount: 0,
  created: '2026-01-01T08:00:00.000Z',
};
const held: MatchCandidate = {
  ...free,
  id: 's2',
  status: 'Performed',
  accessionNumber: 'A777',
  patientName: 'Wu^Gang',
  patientId: 'REG-2',
  examId: 'e9',
  instanceCount: 12,
};
const resultOf = (c: MatchCandidate, replaced: number): MatchResult => ({
  examId: c.examId ?? 'e1',
  scheduledId: c.id,
  status: 'Performed',
  accessionNumber: c.accessionNumber,
  storeUid: 's1',
  seriesCount: 1,
  instanceCount: 10,
  replacedInstances: replaced,
});

function openAs(caller: StudiesCaller) {
  return openStudiesAs(caller, examItemOf(), {
    [callKey(bindingCalls.candidates)]: (r) => ({
      status: 200,
      body: r.search.includes('q=Wu') ? [held] : [free, held],
    }),
    [callKey(bindingCalls.match)]: () => ({ status: 200, body: resultOf(free, 0) }),
    [callKey(bindingCalls.bind)]: () => ({ status: 200, body: resultOf(held, 12) }),
  });
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
  await user.click(await screen.findByText('Match to scheduled exam'));
  return screen.findByRole('dialog');
}

const admin = { username: 'admin', name: 'Admin', level: 'admin', actions: ['exam_get', 'exam_bind'] };
const registrar = { username: 'desk', name: 'Desk', level: 'member', actions: ['exam_get', 'registry_arrive'] };

describe('matching an exam to a scheduled exam (study list row menu)', { timeout: 60_000 }, () => {
  it('lets an admin bind over a scheduled exam’s images after typing its accession number', async () => {
    const user = userEvent.setup();
    const { api } = openAs(admin);
    const dialog = await openDialog(user);
    await user.type(
      within(dialog).getByRole('searchbox', { name: 'Name, patient ID or accession number' }),
      'Wu{Enter}',
    );
    await waitFor(() => expect(api.requests.some((r) => r.search === '?q=Wu')).toBe(true));
    await user.click(await within(dialog).findByText('A777'));
    expect(
      within(dialog).getByText(/has 12 images already\. Binding deletes them and what was derived from them/),
    ).toBeTruthy();
    const ok = within(dialog).getByTestId('binding-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByTestId('binding-confirm'), 'A77');
    expect(within(dialog).getByText('The accession number does not match.')).toBeTruthy();
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByTestId('binding-confirm'), '7');
    expect(ok.textContent).toContain('Replace images');
    await user.click(ok);
    expect(await screen.findByText('Bound to A777; 12 former images deleted.')).toBeTruthy();
    const bind = api.requests.find((r) => r.method === 'POST' && r.path === 'exams/e1/match/s2');
    expect(bind?.body).toEqual({ confirm: 'A777' });
  });

  it('lets the desk match a scheduled exam without images, not replace one that has them', async () => {
    const user = userEvent.setup();
    const { api } = openAs(registrar);
    const dialog = await openDialog(user);
    await user.click(await within(dialog).findByText('A777'));
    expect(
      within(dialog).getByText('Only an organization admin can replace the images of a scheduled exam.'),
    ).toBeTruthy();
    await user.type(within(dialog).getByTestId('binding-confirm'), 'A777');
    expect((within(dialog).getByTestId('binding-ok') as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByText('A555'));
    await user.type(within(dialog).getByTestId('binding-confirm'), 'A555');
    await user.click(within(dialog).getByTestId('binding-ok'));
    expect(await screen.findByText('Matched to A555.')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST' && r.path === 'exams/e1/schedules/s1')).toBe(true);
    expect(api.requests.some((r) => r.path.includes('/match/'))).toBe(false);
  });

  it('is not offered to a caller holding neither the desk’s action nor exam_bind', async () => {
    const user = userEvent.setup();
    openAs({ username: 'doc', name: 'Doc', level: 'member', actions: ['exam_get', 'study_package'] });
    await user.click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    expect(await screen.findByText('Download')).toBeTruthy();
    expect(screen.queryByText('Match to scheduled exam')).toBeNull();
  });
});
