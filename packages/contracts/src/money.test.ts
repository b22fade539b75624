import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_FEN, fenToYuanText, formatMoney, parseYuan } from './money.js';

describe('money', () => {
  it('formats fen as yuan with the currency symbol and two decimals', () => {
    expect(formatMoney(1250, 'CNY')).toBe('¥12.50');
    expect(formatMoney(1250, 'USD')).toBe('$12.50');
    expect(formatMoney(5, 'CNY')).toBe('¥0.05');
    expect(formatMoney(0, 'CNY')).toBe('¥0.00');
    expect(formatMoney(123456700, 'CNY')).toBe('¥1,234,567.00');
    expect(formatMoney(-1250, 'CNY')).toBe('-¥12.50');
  });

  it('parses what people type in yuan, and refuses anything else', () => {
    expect(parseYuan('12')).toBe(1200);
    expect(parseYuan('12.5')).toBe(1250);
    expect(parseYuan(' 12.05 ')).toBe(1205);
    expect(parseYuan('0.01')).toBe(1);
    for (const bad of ['', '-1', '1.234', '1e3', '12,50', 'abc', '+3', '.5', '100000001']) {
      expect(parseYuan(bad)).toBeNull();
    }
  });

  it('round-trips every amount through its yuan text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_FEN }), (fen) => {
        expect(parseYuan(fenToYuanText(fen))).toBe(fen);
      }),
    );
  });
});
