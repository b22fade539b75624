import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusAfterRefund } from './orders-payment.store.js';
import { needsPayment, visibleToExperts } from './orders.presenter.js';
import { newOrderNo } from './orders.service.js';

/** The orders module's pure rules: payment status after refunds, who waits for payment, who sees an order. */
describe('statusAfterRefund', () => {
  it('is refunding while a refund is pending, else paid, partly refunded or refunded by the amounts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 0, max: 1e9 }),
        fc.boolean(),
        (paid, refunded, pending) => {
          const s = statusAfterRefund(paid, refunded, pending);
          if (pending) expect(s).toBe(2);
          else if (refunded === 0) expect(s).toBe(1);
          else if (refunded >= paid) expect(s).toBe(3);
          else expect(s).toBe(4);
        },
      ),
    );
  });
});

describe('needsPayment and visibleToExperts', () => {
  const statuses = ['applied', 'reporting', 'reported', 'cancelled'] as const;
  it('an order waits for payment exactly when it costs something, is unpaid and not cancelled', () => {
    for (const status of statuses) {
      for (const paymentStatus of [0, 1, 2, 3, 4]) {
        for (const priceFen of [0, 1, 12_000]) {
          expect(needsPayment({ priceFen, paymentStatus, status })).toBe(
            priceFen > 0 && paymentStatus === 0 && status !== 'cancelled',
          );
        }
      }
    }
  });
  it("the experts see a report order once it was shared, a consultation's fee at once, either paid or free", () => {
    for (const type of ['expert', 'remote', 'consultation']) {
      for (const targetExamId of [null, 'x']) {
        for (const paymentStatus of [0, 1, 2, 3, 4]) {
          for (const priceFen of [0, 12_000]) {
            expect(visibleToExperts({ type, priceFen, paymentStatus, targetExamId })).toBe(
              (type === 'consultation' || targetExamId !== null) && (priceFen === 0 || paymentStatus !== 0),
            );
          }
        }
      }
    }
  });
});

describe('newOrderNo', () => {
  it('is R, the UTC date and 8 digits', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), (d) => {
        const no = newOrderNo(d);
        expect(no).toMatch(/^R\d{16}$/);
        expect(no.slice(1, 9)).toBe(d.toISOString().slice(0, 10).replace(/-/g, ''));
      }),
    );
  });
});
