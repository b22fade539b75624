// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { callKey, consultationCalls, type ConsultationDetail, type ConsultationOp } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { detailOf, openConsultations } from './consultationFixtures';

/** The header's buttons by op, as the detail names them. */
const HEADER_ACTIONS: Partial<Record<ConsultationOp, string>> = {
  schedule: 'Accept and schedule',
  complete: 'Complete',
  print: 'Print',
  cancel: 'Cancel consultation',
  delete: 'Delete',
};

function openDetail(detail: ConsultationDetail, handlers: Parameters<typeof openConsultations>[1] = {}) {
  return openConsultations(`/consultations/${detail.id}`, {
    [callKey(consultationCalls.detail)]: () => ({ status: 200, body: detail }),
    [callKey(consultationCalls.ratingConfig)]: () => ({
      status: 200,
      body: { labels: ['', '', '', 'Very helpful', ''], commentRequiredAtOrBelow: 2, version: 1 },
    }),
    ...handlers,
  });
}

async function headerButtons(): Promise<string[]> {
  await screen.findByRole('heading', { name: 'Chest CT review' }, { timeout: 15_000 });
  return Object.values(HEADER_ACTIONS).filter(
    (name) => screen.queryByRole('button', { name: new RegExp(`(^| )${name}$`) }) !== null,
  );
}

describe('/consultations/{id}', { timeout: 40_000 }, () => {
  it.each<[string, ConsultationOp[]]>([
    ['the requester of a pending one', ['view', 'print', 'update', 'visit', 'cancel', 'delete', 'addCase']],
    ['the target of a pending one', ['view', 'print', 'setMembers', 'schedule', 'cancel']],
    ['an expert of a scheduled one', ['view', 'print', 'complete', 'suggest', 'writeResult', 'video']],
    ['a joiner', ['view']],
  ])('shows exactly the actions in can: %s', async (_who, can) => {
    openDetail(detailOf({ can }));
    const shown = await headerButtons();
    expect(shown.sort()).toEqual(
      can
        .map((op) => HEADER_ACTIONS[op])
        .filter(Boolean)
        .sort(),
    );
    // the sections' edits follow the same ops
    expect(screen.queryByRole('button', { name: /Add case document/ }) !== null).toBe(can.includes('addCase'));
    expect(screen.queryByRole('button', { name: /Edit members/ }) !== null).toBe(can.includes('setMembers'));
    expect(screen.queryByRole('button', { name: /Add exams/ }) !== null).toBe(can.includes('bindExam'));
    expect(screen.queryAllByText('Video').length > 0).toBe(can.includes('video'));
    expect(screen.queryAllByRole('button', { name: /Edit$/ }).length).toBe(
      ['update', 'visit', 'suggest', 'writeResult'].filter((op) => can.includes(op as ConsultationOp)).length,
    );
  });

  it('cancels only with a reason, warning that it cannot be undone', async () => {
    const detail = detailOf({ can: ['view', 'print', 'cancel'] });
    const { api } = openDetail(detail, {
      [callKey(consultationCalls.cancel)]: (r) => ({
        status: 200,
        body: detailOf({ status: 3, can: ['view', 'print'], cancelReason: (r.body as { reason: string }).reason }),
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /Cancel consultation/ }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancelling cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel consultation' }));
    expect(await within(dialog).findByText('Reason is required')).toBeTruthy();
    expect(api.requests.some((r) => r.path === 'consultations/c1/cancel')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Patient transferred' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel consultation' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.path === 'consultations/c1/cancel')?.body).toEqual({
        reason: 'Patient transferred',
        version: 3,
      }),
    );
    expect(await screen.findByText('Patient transferred')).toBeTruthy();
    expect(screen.getAllByText('Canceled').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /Cancel consultation/ })).toBeNull();
  });

  it('rates once with the group labels, a comment where required, then shows the rating read-only', async () => {
    const detail = detailOf({ status: 2, result: 'Benign', can: ['view', 'print', 'rate'] });
    const { api, container } = openDetail(detail, {
      [callKey(consultationCalls.rate)]: (r) => {
        const body = r.body as { score: number; comment: string };
        return {
          status: 200,
          body: detailOf({
            status: 2,
            result: 'Benign',
            rating: body.score,
            ratingDetail: { ...body, ratedAt: '2026-11-28T03:00:00.000Z', ratedByName: 'Dr. Li' },
            can: ['view', 'print'],
          }),
        };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Submit rating' }, { timeout: 15_000 }));
    expect(await screen.findByText('Choose a score.')).toBeTruthy();

    // two stars: at or below the config's 2 a comment is required
    const stars = () => container.querySelectorAll<HTMLElement>('.ant-rate-star > div');
    fireEvent.click(stars()[1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Submit rating' }));
    expect(await screen.findByText('A comment is required for this score.')).toBeTruthy();
    fireEvent.click(stars()[3]!);
    expect(await screen.findByText('Very helpful')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Comment'), { target: { value: 'Thanks' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit rating' }));

    expect(await screen.findByText(/Rated by Dr. Li/)).toBeTruthy();
    const rated = api.requests.filter((r) => r.path === 'consultations/c1/rating');
    expect(rated.map((r) => r.body)).toEqual([{ score: 4, comment: 'Thanks' }]);
    expect(screen.queryByRole('button', { name: 'Submit rating' })).toBeNull();
    expect(screen.getByText('Very helpful')).toBeTruthy();
  });

  it('tells of a stale version (409 Conflict) and reloads', async () => {
    let version = 3;
    const { api } = openConsultations('/consultations/c1', {
      [callKey(consultationCalls.detail)]: () => ({
        status: 200,
        body: detailOf({
          version,
          title: version === 3 ? 'Chest CT review' : 'Changed elsewhere',
          can: ['view', 'update'],
        }),
      }),
      [callKey(consultationCalls.update)]: () => {
        version = 4;
        return { status: 409, body: { code: 'Conflict', message: 'Conflict' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Edit$/ }, { timeout: 15_000 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed this consultation/)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Changed elsewhere' })).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'consultations/c1' && r.method === 'PUT')?.body).toMatchObject({
      version: 3,
    });
  });

  it('shows a linked history consultation read only, with the way back', async () => {
    openConsultations('/consultations/c1/related/l1', {
      [callKey(consultationCalls.related)]: () => ({
        status: 200,
        body: detailOf({ id: 'c0', status: 2, can: ['view', 'print', 'cancel', 'update'] }),
      }),
    });
    expect(await headerButtons()).toEqual([]);
    expect(screen.getByText('History consultation (read only)')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the consultation/ }).getAttribute('href')).toBe(
      '/consultations/c1',
    );
    expect(screen.queryByRole('button', { name: /Edit$/ })).toBeNull();
  });
});
