import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChargeStatus, PrePaidOrder } from '@yyp/contracts';
import { Alert, Button, Result, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../ui/Money';
import { PaymentQr } from '../../ui/PaymentQr';
import { PAYMENT_POLL_MS, paymentMessage, paymentPhase, secondsLeft, shouldPoll } from './paymentState';

/** Where a payment panel reads its QR and status: the public charge (token) or the requester's order. */
export interface PaymentSource {
  key: readonly unknown[];
  qr: (refresh: boolean, signal?: AbortSignal) => Promise<PrePaidOrder>;
  status: (signal?: AbortSignal) => Promise<ChargeStatus>;
  confirm: () => Promise<ChargeStatus>;
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * WeChat Pay Native for one order (issue 24): the code_url as a QR code, its time left, live status
 * (payment-status every 2 s while the QR may be scanned; polling stops once paid or expired), an
 * expired QR → a new one (pre-paid-order?refresh=1), "I have paid" (paid-confirm asks the channel),
 * and the spec 001 §8 payment messages when a call fails.
 */
export function PaymentPanel({ source, onPaid }: { source: PaymentSource; onPaid?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const now = useNow(1000);
  const qrKey = [...source.key, 'qr'];
  const statusKey = [...source.key, 'status'];
  const qr = useQuery({ queryKey: qrKey, queryFn: ({ signal }) => source.qr(false, signal), staleTime: Infinity });
  const status = useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => source.status(signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return PAYMENT_POLL_MS;
      const phase = paymentPhase({ paymentStatus: data.paymentStatus, expiresAt: qr.data?.expiresAt }, Date.now());
      return shouldPoll(phase) && !qr.data?.expired ? PAYMENT_POLL_MS : false;
    },
  });
  const refresh = useMutation({
    mutationFn: () => source.qr(true),
    onSuccess: (fresh) => queryClient.setQueryData(qrKey, fresh),
  });
  const confirm = useMutation({
    mutationFn: () => source.confirm(),
    onSuccess: (fresh) => queryClient.setQueryData(statusKey, fresh),
  });

  const paymentStatus = status.data?.paymentStatus ?? 0;
  const phase =
    qr.data?.expired && paymentStatus === 0
      ? 'expired'
      : paymentPhase({ paymentStatus, expiresAt: qr.data?.expiresAt }, now);
  useEffect(() => {
    if (phase === 'paid') onPaid?.();
    // once, when it becomes paid
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  const failure = refresh.error ?? confirm.error ?? qr.error ?? status.error;
  const alert = failure ? (
    <Alert
      type={paymentMessage(failure) === 'alreadyPaid' ? 'info' : 'error'}
      showIcon
      role="alert"
      title={t(`billing.pay.message.${paymentMessage(failure)}`)}
      action={
        <Button size="small" onClick={() => void Promise.all([qr.refetch(), status.refetch()])}>
          {t('billing.pay.retry')}
        </Button>
      }
    />
  ) : null;

  if (phase === 'paid' || phase === 'refunding' || phase === 'refunded') {
    return (
      <Result
        status="success"
        title={t(`billing.pay.phase.${phase}`)}
        subTitle={
          status.data?.paidAt
            ? t('billing.pay.paidAt', { time: new Date(status.data.paidAt).toLocaleString() })
            : undefined
        }
        data-testid="payment-paid"
      />
    );
  }

  const left = secondsLeft(qr.data?.expiresAt, now);
  // the simulator's scan page, when the server runs WeChat Pay in sim mode (the demo)
  const scan = qr.data?.simScanUrl;
  return (
    <Space orientation="vertical" size="middle" align="center" className="yyp-pay" style={{ width: '100%' }}>
      {alert}
      {qr.data && (
        <Typography.Title level={2} className="yyp-pay__amount">
          <Money fen={qr.data.amountFen} currency={qr.data.currency} />
        </Typography.Title>
      )}
      {qr.data?.codeUrl ? (
        <PaymentQr value={qr.data.codeUrl} expired={phase === 'expired'} onRefresh={() => refresh.mutate()} />
      ) : (
        qr.data && (
          <Button type="primary" loading={refresh.isPending} onClick={() => refresh.mutate()}>
            {t('billing.pay.newQr')}
          </Button>
        )
      )}
      <Typography.Text data-testid="payment-phase">
        {phase === 'expired'
          ? t('billing.pay.message.qrExpired')
          : t('billing.pay.scanHint', {
              minutes: Math.floor((left ?? 0) / 60),
              seconds: String((left ?? 0) % 60).padStart(2, '0'),
            })}
      </Typography.Text>
      <Space>
        {phase === 'expired' && qr.data?.codeUrl && (
          <Button type="primary" loading={refresh.isPending} onClick={() => refresh.mutate()}>
            {t('billing.pay.newQr')}
          </Button>
        )}
        <Button loading={confirm.isPending} onClick={() => confirm.mutate()}>
          {t('billing.pay.confirm')}
        </Button>
      </Space>
      {scan && phase === 'awaiting' && (
        <a href={scan} target="_blank" rel="noreferrer" data-testid="sim-scan-link">
          {t('billing.pay.simScan')}
        </a>
      )}
    </Space>
  );
}
