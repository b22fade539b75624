import { QRCode } from 'antd';

/**
 * A payment QR code (WeChat Pay Native's code_url, issue 24), drawn in the browser as SVG by antd's
 * QRCode (no extra dependency, nothing fetched). `expired` greys it out with antd's own "expired"
 * overlay and its refresh button.
 */
export function PaymentQr({
  value,
  expired = false,
  onRefresh,
  size = 200,
}: {
  value: string;
  expired?: boolean;
  onRefresh?: () => void;
  size?: number;
}) {
  return (
    <QRCode
      value={value}
      type="svg"
      size={size}
      errorLevel="M"
      status={expired ? 'expired' : 'active'}
      onRefresh={onRefresh}
      data-testid="payment-qr"
      data-code-url={value}
    />
  );
}
