import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimError, SimLedger, type NativeOrderRequest } from './ledger.js';

const now = new Date('2026-11-27T10:00:00Z');
const native = (no: string, total: number): NativeOrderRequest => ({
  appid: 'wx1',
  mchid: '1900000109',
  description: 'd',
  out_trade_no: no,
  time_expire: '2026-11-27T18:30:00+08:00',
  notify_url: 'http://127.0.0.1/n',
  amount: { total, currency: 'CNY' },
});

describe('the simulator books', () => {
  it('never refunds more than was paid, whatever refunds are asked (retries included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.array(fc.record({ no: fc.integer({ min: 0, max: 6 }), fen: fc.integer({ min: -5, max: 60_000 }) }), {
          maxLength: 12,
        }),
        (total, asks) => {
          const ledger = new SimLedger();
          ledger.createNative(native('ORDER01', total), now);
          ledger.pay('ORDER01', now);
          const accepted = new Map<string, number>();
          for (const ask of asks) {
            const outRefundNo = `R${ask.no}`;
            try {
              const r = ledger.refund(
                {
                  out_trade_no: 'ORDER01',
                  out_refund_no: outRefundNo,
                  amount: { refund: ask.fen, total, currency: 'CNY' },
                },
                now,
              );
              accepted.set(outRefundNo, r.refund);
            } catch (err) {
              expect(err).toBeInstanceOf(SimError);
            }
          }
          const sum = [...accepted.values()].reduce((a, b) => a + b, 0);
          expect(sum).toBeLessThanOrEqual(total);
          for (const fen of accepted.values()) expect(fen).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('closes an unpaid order once past its time_expire', () => {
    const ledger = new SimLedger();
    ledger.createNative(native('ORDER02', 100), now);
    expect(ledger.order('ORDER02', new Date('2026-11-27T10:29:59Z')).state).toBe('NOTPAY');
    expect(ledger.order('ORDER02', new Date('2026-11-27T10:30:00Z')).state).toBe('CLOSED');
    expect(() => ledger.pay('ORDER02', new Date('2026-11-27T10:31:00Z'))).toThrow(/关闭/);
    expect(() => ledger.createNative(native('ORDER03', 100), new Date('2026-11-27T11:00:00Z'))).toThrow(SimError);
  });

  it('finds an order by its code_url only', () => {
    const ledger = new SimLedger();
    const { code_url } = ledger.createNative(native('ORDER04', 100), now);
    expect(ledger.orderByCodeUrl(code_url)?.outTradeNo).toBe('ORDER04');
    expect(ledger.orderByCodeUrl(`${code_url}x`)).toBeUndefined();
    expect(ledger.orderByCodeUrl('ORDER04')).toBeUndefined();
  });
});
