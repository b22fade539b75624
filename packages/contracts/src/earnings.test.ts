import { describe, expect, it } from 'vitest';
import { earningsCalls } from './earnings-calls.js';
import {
  earningsExportQuerySchema,
  earningsInstants,
  earningsMonthOf,
  earningsPageQuerySchema,
  earningsRangeRefusal,
} from './earnings.js';
import { invoiceCalls } from './invoice-calls.js';
import { invoicesPageQuerySchema } from './invoices.js';

describe('earnings and invoice list contracts', () => {
  it('are at their paths', () => {
    expect(
      [...Object.values(earningsCalls), ...Object.values(invoiceCalls)].map((c) => `${c.method} ${c.path}`),
    ).toEqual(['POST earnings/page-query', 'GET earnings/export-excel', 'POST invoices/page-query']);
  });

  it('counts days and months in China time (UTC+8)', () => {
    expect(earningsInstants('2026-11-01', '2026-11-30')).toEqual({
      from: new Date('2026-10-31T16:00:00Z'),
      to: new Date('2026-11-30T16:00:00Z'),
    });
    expect(earningsMonthOf(new Date('2026-11-30T15:59:59Z'))).toBe('2026-11');
    expect(earningsMonthOf(new Date('2026-11-30T16:00:00Z'))).toBe('2026-12');
  });

  it('refuses a range that ends before it starts or is longer than 366 days', () => {
    expect(earningsRangeRefusal('2026-11-01', '2026-11-01')).toBeNull();
    expect(earningsRangeRefusal('2026-11-02', '2026-11-01')).toBe('order');
    expect(earningsRangeRefusal('2024-01-01', '2024-12-31')).toBeNull();
    expect(earningsRangeRefusal('2024-01-01', '2025-01-01')).toBe('tooLong');
    expect(earningsPageQuerySchema.safeParse({ from: '2026-11-02', to: '2026-11-01' }).success).toBe(false);
    expect(earningsPageQuerySchema.parse({ from: '2026-11-01', to: '2026-11-27' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-27',
      limit: 10,
      skip: 0,
    });
    expect(earningsExportQuerySchema.safeParse({ bucketId: 'b', from: '2026-11-01', to: '2027-11-27' }).success).toBe(
      false,
    );
  });

  it('filters invoices by status applied or issued only', () => {
    expect(invoicesPageQuerySchema.safeParse({ filters: { status: 'none' } }).success).toBe(false);
    expect(invoicesPageQuerySchema.parse({})).toEqual({ filters: {}, limit: 10, skip: 0 });
  });
});
