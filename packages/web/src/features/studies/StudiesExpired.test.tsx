// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { defaultDomainConfig, type ExamPage } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, errorAnswer, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';

const noExams: ExamPage = { exams: [], count: 0 };

describe('/studies behind the login-expired dialog', () => {
  it('does not say "no exams" when the list failed for want of a session', async () => {
    // The token has expired: every call answers 401 and the login-expired dialog opens.
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => errorAnswer(401, 'TokenExpiredError'),
      'POST exams/page-query': () => errorAnswer(401, 'TokenExpiredError'),
      'GET custom-search/my': () => errorAnswer(401, 'TokenExpiredError'),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    const dialog = await screen.findByRole('dialog', {}, { timeout: 20_000 });
    expect(within(dialog).getByText('Login expired')).toBeTruthy();
    expect(await screen.findByText('Log in again to see the exams.')).toBeTruthy();
    expect(screen.queryByText('No exams yet')).toBeNull();
    expect(screen.queryByText('No exams match these filters.')).toBeNull();
  });

  it('still says "no exams" when the signed-in list is empty', async () => {
    installFakeApi({
      'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
      'GET accounts/me': () => ({ status: 200, body: demoUser() }),
      'GET accounts/me/permissions': () => ({ status: 200, body: [] }),
      'POST exams/page-query': () => ({ status: 200, body: noExams }),
      'GET custom-search/my': () => ({ status: 200, body: [] }),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    renderApp('/studies');
    expect(await screen.findByText('No exams yet', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Log in again to see the exams.')).toBeNull();
  });
});
