import { Card, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import { ChargePayment } from './ChargePayment';
import { takeChargeToken } from './chargeToken';
import './billing.css';

/**
 * /charge/{id} (spec 000 §2, public): the payer's page of one charge. The charge token arrives once
 * in the address and is kept in this tab's session storage (spec 001 §9); the page shows what is paid
 * for (never the patient), the amount and the WeChat QR with its live status (ChargePayment).
 */
export function ChargePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [taken] = useState(() => takeChargeToken(id, location.search, sessionStorage));
  const token = taken.token;
  useEffect(() => {
    if (location.search !== taken.cleanSearch) void navigate({ search: taken.cleanSearch }, { replace: true });
    // once, on opening: the token leaves the address bar
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <PublicUploadFrame>
      <Card title={t('billing.pay.title')} className="yyp-pay__card">
        {token ? (
          <ChargePayment chargeId={id} token={token} />
        ) : (
          <Result status="warning" title={t('billing.pay.message.noPermission')} subTitle={t('billing.pay.noToken')} />
        )}
      </Card>
    </PublicUploadFrame>
  );
}
