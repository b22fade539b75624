import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Money } from './Money';
import { PaymentQr } from './PaymentQr';
import { YuanInput } from './YuanInput';

describe('Money', () => {
  it('shows fen in yuan with the currency symbol', () => {
    render(
      <>
        <Money fen={1250} currency="CNY" />
        <Money fen={1250} currency="USD" />
        <Money fen={-5} currency="CNY" />
      </>,
    );
    expect(screen.getByText('¥12.50')).toBeTruthy();
    expect(screen.getByText('$12.50')).toBeTruthy();
    expect(screen.getByText('-¥0.05')).toBeTruthy();
  });
});

function Harness({ initial }: { initial: number | null }) {
  const [fen, setFen] = useState<number | null>(initial);
  return (
    <>
      <YuanInput aria-label="amount" currency="CNY" value={fen} onChange={setFen} />
      <output data-testid="fen">{String(fen)}</output>
      <button type="button" onClick={() => setFen(999)}>
        set
      </button>
    </>
  );
}

describe('YuanInput', () => {
  it('hands on fen for yuan typed, null for anything else, and keeps the text as typed', () => {
    render(<Harness initial={1250} />);
    const input = screen.getByLabelText<HTMLInputElement>('amount');
    expect(input.value).toBe('12.50');
    fireEvent.change(input, { target: { value: '12.5' } });
    expect(screen.getByTestId('fen').textContent).toBe('1250');
    expect(input.value).toBe('12.5');
    fireEvent.change(input, { target: { value: '0.015' } });
    expect(screen.getByTestId('fen').textContent).toBe('null');
    expect(input.value).toBe('0.015');
    fireEvent.change(input, { target: { value: '3' } });
    expect(screen.getByTestId('fen').textContent).toBe('300');
  });

  it('follows a value set from outside', () => {
    render(<Harness initial={null} />);
    const input = screen.getByLabelText<HTMLInputElement>('amount');
    expect(input.value).toBe('');
    fireEvent.click(screen.getByText('set'));
    expect(input.value).toBe('9.99');
  });
});

describe('PaymentQr', () => {
  it('draws the code_url as an SVG QR code', () => {
    const { container } = render(<PaymentQr value="weixin://wxpay/bizpayurl?pr=abc" />);
    expect(container.querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('payment-qr').getAttribute('data-code-url')).toBe('weixin://wxpay/bizpayurl?pr=abc');
  });

  it('greys an expired code out and offers a refresh', () => {
    let refreshed = 0;
    render(<PaymentQr value="weixin://x" expired onRefresh={() => (refreshed += 1)} />);
    fireEvent.click(screen.getByRole('button'));
    expect(refreshed).toBe(1);
  });
});
