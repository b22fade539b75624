import { useQueryClient } from '@tanstack/react-query';
import { ENTRY_REFUSALS, type EntryRefusal, type EntryToken, type EntryType } from '@yyp/contracts';
import { Button, Result, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { logout } from '../../api/accounts';
import { exchangeEntry } from '../../api/entries';
import { hasCode } from '../../api/errors';
import { clearUserData } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';
import { forgetAccountPending } from '../../shared/upload/pendingUploads';
import { AuthLayout } from './AuthLayout';
import { useCompleteSignIn } from './useCompleteSignIn';

type Problem = EntryRefusal | 'failed';

/**
 * An entry is single use: the exchange of one signed payload runs once per page load even when
 * React mounts the page twice (StrictMode) or the effect runs again, and its answer is shared.
 */
const exchanges = new Map<string, Promise<EntryToken>>();
function exchangeOnce(signed: string, type: EntryType, source: string | undefined): Promise<EntryToken> {
  const key = `${type}\n${signed}`;
  let running = exchanges.get(key);
  if (!running) {
    running = exchangeEntry(signed, type, source);
    exchanges.set(key, running);
  }
  return running;
}

function problemOf(error: unknown): Problem {
  if (hasCode(error, 'LinkInvalid')) {
    const reason = (error.details as { reason?: unknown } | undefined)?.reason;
    return (ENTRY_REFUSALS as readonly unknown[]).includes(reason) ? (reason as EntryRefusal) : 'invalid';
  }
  return hasCode(error, 'ValidationError') ? 'invalid' : 'failed';
}

/**
 * /ss-login?t and /go?data&source (spec 000 §2): a hospital system's signed entry (contracts
 * entry.ts). /go first signs out whoever is signed in here (the server session too), then both
 * exchange the payload for a session (GET tokens) and go where it says: the study list, or an
 * exam's report. An expired, changed or used link says so.
 */
export function SignedEntryPage({ type }: { type: EntryType }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const signed = params.get(type === 'go' ? 'data' : 't') ?? '';
  const source = params.get('source') || undefined;
  const queryClient = useQueryClient();
  const completeSignIn = useCompleteSignIn();
  const [step, setStep] = useState<'leaving' | 'working'>(type === 'go' ? 'leaving' : 'working');
  const [problem, setProblem] = useState<Problem | null>(signed ? null : 'invalid');

  const enter = useCallback(async () => {
    if (type === 'go') {
      const previous = sessionStore.getAccessToken();
      if (previous) await logout(previous).catch(() => undefined);
      sessionStore.signOut('user');
      forgetAccountPending();
      clearUserData(queryClient);
    }
    setStep('working');
    const token = await exchangeOnce(signed, type, source);
    await completeSignIn(token.username, token, token.target);
  }, [type, signed, source, queryClient, completeSignIn]);

  useEffect(() => {
    if (!signed) return;
    enter().catch((error: unknown) => setProblem(problemOf(error)));
    // One entry per payload: the page does not run it again when the callbacks change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signed, type]);

  function retry() {
    // Only a failure to reach the server is retried: the payload may not have been used.
    exchanges.delete(`${type}\n${signed}`);
    setProblem(null);
    enter().catch((error: unknown) => setProblem(problemOf(error)));
  }

  return (
    <AuthLayout title={t('entry.title')}>
      {problem ? (
        <Result
          status={problem === 'failed' ? 'error' : 'warning'}
          title={t(`entry.${problem}Title`)}
          subTitle={t(`entry.${problem}Hint`)}
          extra={[
            problem === 'failed' ? (
              <Button key="retry" type="primary" onClick={retry}>
                {t('entry.retry')}
              </Button>
            ) : null,
            <Link key="login" to="/login">
              {t('entry.toLogin')}
            </Link>,
          ]}
        />
      ) : (
        <div style={{ textAlign: 'center', padding: '32px 0' }} role="status">
          <Spin />
          <div style={{ marginTop: 12 }}>{t(step === 'leaving' ? 'entry.leaving' : 'entry.working')}</div>
        </div>
      )}
    </AuthLayout>
  );
}
