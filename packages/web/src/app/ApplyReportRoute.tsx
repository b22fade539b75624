import { isSessionValid } from '@yyp/contracts';
import { nowSeconds } from '../api/sessionStore';
import { PayOrderPage } from '../features/billing/PayOrderPage';
import { PublicPayOrderPage } from '../features/billing/PublicPayOrderPage';
import { useSessionState } from '../shared/session/useSessionState';
import { AppShell } from './shell/AppShell';

/**
 * /exams/{examId}/apply-report/{applicationId} is a public route (spec 000 §2): signed in, the
 * requester's payment page inside the app shell (while the login-expired dialog is open too);
 * signed out, the public page that shows no PHI (the payment of this tab's charge, or sign in).
 */
export function ApplyReportRoute() {
  const state = useSessionState();
  if (isSessionValid(state.session, nowSeconds()) || state.expiryDialogOpen) {
    return (
      <AppShell>
        <PayOrderPage />
      </AppShell>
    );
  }
  return <PublicPayOrderPage />;
}
