import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newNumber } from './payments.store.js';

describe('payment and refund numbers', () => {
  it("fit WeChat's out_trade_no / out_refund_no (6–32 of [A-Za-z0-9_-|*]) and carry their time", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.constantFrom('YP' as const, 'YR' as const),
        (at, prefix) => {
          const no = newNumber(prefix, at);
          expect(no).toMatch(/^[A-Za-z0-9_\-|*]{6,32}$/);
          expect(no.startsWith(prefix + at.toISOString().replace(/\D/g, '').slice(0, 14))).toBe(true);
        },
      ),
    );
  });
  it('differ when made in the same second', () => {
    const at = new Date('2026-11-27T08:00:00Z');
    const many = new Set(Array.from({ length: 2000 }, () => newNumber('YP', at)));
    expect(many.size).toBe(2000);
  });
});
