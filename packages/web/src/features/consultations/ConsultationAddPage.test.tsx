// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { callKey, consultationCalls, examCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { examDetailOf } from '../../test/reportEditorFixture';
import { locationOf } from '../../test/renderApp';
import { detailOf, openConsultations } from './consultationFixtures';

function openAdd() {
  return openConsultations('/consultations/add?examId=e1&reportId=e1', {
    [callKey(examCalls.detail)]: () => ({
      status: 200,
      body: examDetailOf({
        id: 'e1',
        bucketId: 'b1',
        clinicImpression: 'Cough for two weeks',
        patientPhone: '138 0000',
      }),
    }),
    [callKey(consultationCalls.create)]: () => ({ status: 201, body: detailOf({ id: 'c9' }) }),
    [callKey(consultationCalls.detail)]: () => ({ status: 200, body: detailOf({ id: 'c9' }) }),
  });
}

describe('/consultations/add', { timeout: 40_000 }, () => {
  it('starts from the exam, refuses without start time and reason, then posts the request and opens it', async () => {
    const { api, router, container } = openAdd();
    const name = await screen.findByLabelText('Patient name', {}, { timeout: 15_000 });
    expect((name as HTMLInputElement).value).toBe('Zhang San');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Zhang San CT CHEST');
    expect((screen.getByLabelText('Age') as HTMLInputElement).value).toBe('45Y');
    expect((screen.getByLabelText('Clinical impression') as HTMLTextAreaElement).value).toBe('Cough for two weeks');
    expect(screen.getByText('Expert Center (default)')).toBeTruthy();
    // The chosen target sells consultations: its fee is said before the request is made.
    expect(screen.getByTestId('consultation-target-price').textContent).toMatch(
      /charges a consultation fee \(MDT consultation\).*300\.00/,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Submit request' }));
    expect(await screen.findByText('Start time is required')).toBeTruthy();
    expect(screen.getByText('Reason is required')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'consultations' && r.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Nodule, second opinion' } });
    const time = container.querySelector<HTMLInputElement>('#consultationAdd_scheduledAt')!;
    fireEvent.mouseDown(time);
    fireEvent.change(time, { target: { value: '2026-12-01 10:30' } });
    fireEvent.keyDown(time, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByText('Start time is required')).toBeNull());
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Experts' }));
    fireEvent.click(await screen.findByTitle('Dr. Zhou'));

    fireEvent.click(screen.getByRole('button', { name: 'Submit request' }));
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c9'));
    const posted = api.requests.find((r) => r.path === 'consultations' && r.method === 'POST')!;
    expect(posted.body).toMatchObject({
      title: 'Zhang San CT CHEST',
      patient: { name: 'Zhang San', age: '45Y', gender: 'M', tel: '138 0000' },
      reason: 'Nodule, second opinion',
      clinicImpression: 'Cough for two weeks',
      sourceBucketId: 'b1',
      targetBucketId: 'x1',
      experts: ['e2'],
      examId: 'e1',
      reportId: 'e1',
    });
    const at = new Date((posted.body as { scheduledAt: string }).scheduledAt);
    expect([at.getFullYear(), at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes()]).toEqual([
      2026, 12, 1, 10, 30,
    ]);
  });
});
