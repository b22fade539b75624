// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { Report } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';
import { AppProviders } from '../../test/appProviders';
import { installFakeApi, tokenFor } from '../../test/fakeApi';
import { ShareReportButton } from './ShareReportButton';

/** Only what the button reads of a report: its organization and status. */
const approved = { id: 'e1', bucketId: 'b1', status: 'corrected' } as Report;

function renderButton(actions: string[]) {
  const api = installFakeApi({
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions }],
    }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders queryClient={queryClient}>
      <ShareReportButton report={approved} />
    </AppProviders>,
  );
  return { api, queryClient };
}

describe('ShareReportButton', () => {
  it('shows to a caller who prints the report and sees the exam', async () => {
    renderButton(['exam_get', 'report_print']);
    expect(await screen.findByTestId('share-report')).toBeTruthy();
  });

  it('hides from a note-taker who prints but does not see the exam (the server would answer 403)', async () => {
    const { queryClient } = renderButton(['report_print', 'report_upsert']);
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.permissions)).toBeDefined());
    expect(screen.queryByTestId('share-report')).toBeNull();
  });
});
