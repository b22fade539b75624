import { LoginOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { fetchChargeDetail } from '../../api/billing';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import { loginRedirectPath } from '../../shared/session/guards';
import { PageSpinner } from '../../ui/PageSpinner';
import { ChargePayment, chargeDetailKey } from './ChargePayment';
import { storedChargeTokens } from './chargeToken';
import './billing.css';

/**
 * /exams/{examId}/apply-report/{applicationId} with nobody signed in (spec 000 §2 lists it among the
 * public routes: "pay for an order"). It shows no PHI: when this tab keeps the charge token of the
 * order's charge (opened from a payment link, spec 001 §8), the payment view of /charge/{id};
 * otherwise it asks to sign in (and comes back here) or to open the payment link.
 */
export function PublicPayOrderPage() {
  const { t } = useTranslation();
  const { applicationId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [stored] = useState(() => storedChargeTokens(sessionStorage));
  // The charge of this order among the tokens this tab keeps (asked with each token; none shows PHI).
  const charge = useQuery({
    queryKey: ['charge', 'of-order', applicationId, stored.map((s) => s.chargeId)],
    queryFn: async ({ signal }) => {
      for (const s of stored) {
        const detail = await fetchChargeDetail(s.chargeId, s.token, signal).catch(() => null);
        if (detail?.orderId === applicationId) {
          queryClient.setQueryData(chargeDetailKey(s.chargeId), detail);
          return s;
        }
      }
      return null;
    },
    enabled: stored.length > 0,
  });

  let body;
  if (stored.length > 0 && charge.isPending) {
    body = <PageSpinner />;
  } else if (charge.data) {
    body = <ChargePayment chargeId={charge.data.chargeId} token={charge.data.token} />;
  } else {
    body = (
      <Result
        status="info"
        title={t('billing.pay.signedOut.title')}
        subTitle={t('billing.pay.signedOut.hint')}
        data-testid="apply-report-signed-out"
        extra={
          <Button
            type="primary"
            icon={<LoginOutlined />}
            onClick={() => void navigate(loginRedirectPath(location.pathname + location.search))}
          >
            {t('billing.pay.signedOut.signIn')}
          </Button>
        }
      />
    );
  }
  return (
    <PublicUploadFrame>
      <Card title={t('billing.pay.orderTitle')} className="yyp-pay__card">
        {body}
      </Card>
    </PublicUploadFrame>
  );
}
