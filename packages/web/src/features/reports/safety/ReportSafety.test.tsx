// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  EMPTY_REPORT_CONTENT,
  type CriticalValueList,
  type Report,
  type ReportQualityAnswer,
  type ReportRatings,
} from '@yyp/contracts';
import { ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { AppProviders } from '../../../test/appProviders';
import { errorAnswer, installFakeApi, tokenFor, type FakeHandler } from '../../../test/fakeApi';
import { criticalValueOf } from '../../../test/safetyFixtures';
import { ReportFeedback, ReportSafetyPanel } from './ReportSafetyPanel';

const report = {
  id: 'e1',
  examId: 'e1',
  bucketId: 'b1',
  status: 'corrected',
  transitions: ['recall'],
  content: EMPTY_REPORT_CONTENT,
} as unknown as Report;

function show(ui: 'panel' | 'feedback', handlers: Record<string, FakeHandler>) {
  const api = installFakeApi(handlers);
  sessionStore.signIn('doctor', tokenFor('doctor'));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProviders queryClient={queryClient}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        {ui === 'panel' ? <ReportSafetyPanel report={report} /> : <ReportFeedback report={report} />}
      </ConfigProvider>
    </AppProviders>,
  );
  return api;
}

const noQuality: FakeHandler = () => errorAnswer(403, 'InsufficientPermissions');

describe('critical values section', () => {
  it('records the read-back of a sent critical value, then its handling', { timeout: 30_000 }, async () => {
    let item = criticalValueOf();
    const list = (): CriticalValueList => ({ items: [item], canReport: true, canFollow: true });
    const api = show('panel', {
      'GET reports/e1/critical-values': () => ({ status: 200, body: list() }),
      'GET reports/e1/quality': noQuality,
      'POST reports/e1/critical-values/cv1/receive': (r) => {
        item = { ...item, ...(r.body as object), status: 'received', receivedAt: '2026-11-22T08:05:00.000Z' };
        return { status: 200, body: item };
      },
      'POST reports/e1/critical-values/cv1/handle': () => {
        item = {
          ...item,
          status: 'handled',
          handledAt: '2026-11-22T08:20:00.000Z',
          handler: { id: 'u2', name: 'Dr. Wang' },
        };
        return { status: 200, body: item };
      },
    });
    const section = await screen.findByTestId('critical-values');
    expect(within(section).getByText('1 open')).toBeTruthy();
    expect(within(section).getByText('Awaiting receipt')).toBeTruthy();
    expect(within(section).getByText('Emergency')).toBeTruthy();

    await userEvent.click(within(section).getByRole('button', { name: 'Record receipt' }));
    const dialog = await screen.findByRole('dialog');
    // The read-back is required.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    // The form shows its three messages as each field's validation settles: wait for all of them.
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(3));
    await userEvent.type(within(dialog).getByLabelText('Received by'), 'Nurse Zhang');
    await userEvent.type(within(dialog).getByLabelText('Read-back confirmed by'), 'Dr. Liu');
    await userEvent.type(within(dialog).getByLabelText('Read-back'), 'Right pneumothorax, read back');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    await waitFor(() =>
      expect(api.requests.some((r) => r.path === 'reports/e1/critical-values/cv1/receive')).toBe(true),
    );
    expect(api.requests.find((r) => r.path.endsWith('/receive'))?.body).toEqual({
      receiver: 'Nurse Zhang',
      confirmor: 'Dr. Liu',
      readbackOpinion: 'Right pneumothorax, read back',
    });
    expect(await within(section).findByText('Received')).toBeTruthy();

    await userEvent.click(within(section).getByRole('button', { name: 'Mark handled' }));
    const handleDialog = await screen.findByRole('dialog');
    await userEvent.type(within(handleDialog).getByLabelText('Handling note'), 'Chest drain placed');
    await userEvent.click(within(handleDialog).getByRole('button', { name: 'Mark handled' }));
    expect(await within(section).findByText('Handled')).toBeTruthy();
    expect(api.requests.find((r) => r.path.endsWith('/handle'))?.body).toEqual({ handleNote: 'Chest drain placed' });
    expect(within(section).queryByText('1 open')).toBeNull();
  });

  it('reports one picked from the organization’s dictionary', async () => {
    const api = show('panel', {
      'GET reports/e1/critical-values': () => ({ status: 200, body: { items: [], canReport: true, canFollow: true } }),
      'GET reports/e1/quality': noQuality,
      'GET buckets/b1/critical-values': () => ({
        status: 200,
        body: [{ id: 'd1', name: 'Pneumothorax', data: { level: 'high' }, sort: 0 }],
      }),
      'POST reports/e1/critical-value': () => ({
        status: 201,
        body: criticalValueOf({ itemId: 'd1', text: 'Pneumothorax' }),
      }),
    });
    const section = await screen.findByTestId('critical-values');
    expect(within(section).getByText('No critical value reported.')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: /Report critical value/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText('Dictionary entry'));
    await userEvent.click(await screen.findByTitle('Pneumothorax'));
    // The entry fills the text with its name and the level field with its level: never one string.
    expect((within(dialog).getByLabelText('Critical value') as HTMLTextAreaElement).value).toBe('Pneumothorax');
    expect(within(dialog).getByTitle('High')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report and notify' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST' && r.path === 'reports/e1/critical-value')?.body).toEqual({
        text: 'Pneumothorax',
        itemId: 'd1',
        level: 'high',
      }),
    );
  });

  it('is left out for a caller who may neither see nor report them', async () => {
    show('panel', {
      'GET reports/e1/critical-values': () => errorAnswer(403, 'InsufficientPermissions'),
      'GET reports/e1/quality': noQuality,
    });
    await waitFor(() => expect(screen.queryByTestId('critical-values')).toBeNull());
    expect(screen.queryByTestId('report-quality')).toBeNull();
  });
});

describe('quality section', () => {
  it('lets a quality reviewer grade the report', async () => {
    const answer: ReportQualityAnswer = { quality: null, canUpsert: true, canDelete: false, gradable: true };
    const api = show('panel', {
      'GET reports/e1/critical-values': () => ({
        status: 200,
        body: { items: [], canReport: false, canFollow: false },
      }),
      'GET reports/e1/quality': () => ({ status: 200, body: answer }),
      'POST reports/e1/quality': (r) => ({ status: 200, body: r.body }),
    });
    const section = await screen.findByTestId('report-quality');
    await userEvent.click(within(section).getByText('B (good)'));
    await userEvent.type(within(section).getByLabelText('Suggestion'), 'State the size');
    await userEvent.click(within(section).getByRole('button', { name: 'Save grade' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST' && r.path === 'reports/e1/quality')?.body).toEqual({
        level: 'B',
        suggestion: 'State the size',
        unsatisfactoryItems: [],
      }),
    );
  });
});

describe('ratings and comments', () => {
  it('rates once and says so when the server refuses a second rating', async () => {
    const ratings: ReportRatings = { items: [], average: null, canRate: true };
    const api = show('feedback', {
      'GET reports/e1/ratings': () => ({ status: 200, body: ratings }),
      'GET reports/e1/comments': () => errorAnswer(403, 'ReportCommentsDisabled'),
      'POST reports/e1/rating': () => errorAnswer(409, 'RatingAlreadySubmitted'),
    });
    const section = await screen.findByTestId('report-ratings');
    expect(within(section).getByText('A rating cannot be changed once submitted.')).toBeTruthy();
    const stars = within(section).getAllByRole('radio');
    await userEvent.click(stars[stars.length - 2]!);
    await userEvent.click(within(section).getByRole('button', { name: 'Submit rating' }));
    expect(await screen.findByText('You have already rated this report; a rating cannot be changed.')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'reports/e1/rating')?.body).toEqual({ score: 4, comment: '' });
    expect(screen.getByText('Report comments are turned off for this group.')).toBeTruthy();
  });

  it('adds a comment and deletes the caller’s own', async () => {
    let items = [
      {
        id: 'c1',
        reportId: 'e1',
        author: { id: 'u2', name: 'Dr. Wang' },
        text: 'Compare with prior',
        createdAt: '2026-11-22T08:00:00.000Z',
        mine: false,
      },
    ];
    const api = show('feedback', {
      'GET reports/e1/ratings': () => ({ status: 200, body: { items: [], average: null, canRate: false } }),
      'GET reports/e1/comments': () => ({ status: 200, body: { items } }),
      'POST reports/e1/comment': (r) => {
        const made = {
          id: 'c2',
          reportId: 'e1',
          author: { id: 'u1', name: 'Dr. Li' },
          text: (r.body as { text: string }).text,
          createdAt: '2026-11-22T09:00:00.000Z',
          mine: true,
        };
        items = [...items, made];
        return { status: 201, body: made };
      },
      'DELETE reports/e1/comments/c2': () => {
        items = items.filter((c) => c.id !== 'c2');
        return { status: 204 };
      },
    });
    const section = await screen.findByTestId('report-comments');
    expect(screen.queryByTestId('report-ratings')).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Delete' })).toBeNull();
    await userEvent.type(within(section).getByLabelText('Write a comment on this report'), 'Agree');
    await userEvent.click(within(section).getByRole('button', { name: 'Comment' }));
    expect(await within(section).findByText('Agree')).toBeTruthy();
    expect(api.requests.find((r) => r.path === 'reports/e1/comment')?.body).toEqual({ text: 'Agree' });
    await userEvent.click(within(section).getByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(within(section).queryByText('Agree')).toBeNull());
  });
});
