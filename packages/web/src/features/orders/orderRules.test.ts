import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBody, invoiceRefusal, ordersQueryBody, refundableFen, remaining, splitMinutes } from './orderRules';

describe('splitMinutes and remaining', () => {
  it('splits a turnaround', () => {
    expect(splitMinutes(null)).toBeNull();
    expect(splitMinutes(120)).toEqual({ hours: 2, minutes: 0 });
    expect(splitMinutes(95)).toEqual({ hours: 1, minutes: 35 });
    expect(splitMinutes(45)).toEqual({ hours: 0, minutes: 45 });
  });

  it('counts time to the deadline and past it', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(remaining(null, now)).toBeNull();
    expect(remaining('2026-11-27T11:30:30Z', now)).toEqual({ overdue: false, hours: 1, minutes: 30 });
    expect(remaining('2026-11-27T09:45:00Z', now)).toEqual({ overdue: true, hours: 0, minutes: 15 });
  });

  it('hours and minutes always add back up (whole minutes)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (m) => {
        const s = splitMinutes(m);
        expect(s && s.hours * 60 + s.minutes).toBe(m);
        expect(s && s.minutes < 60).toBe(true);
      }),
    );
  });
});

describe('applyBody', () => {
  it('trims and leaves out what is not chosen', () => {
    expect(applyBody('e1', { productId: 'p1', reason: ' read ', applicantMobile: ' 13800000000 ' })).toEqual({
      examId: 'e1',
      productId: 'p1',
      reason: 'read',
      applicantMobile: '13800000000',
      applicantEmail: '',
    });
    expect(applyBody('e1', {})).toEqual({ examId: 'e1', reason: '', applicantMobile: '', applicantEmail: '' });
  });
});

describe('ordersQueryBody', () => {
  it('pages by 10, newest first, with only the filters set', () => {
    expect(ordersQueryBody({}, 1)).toEqual({
      filters: {},
      limit: 10,
      skip: 0,
      sorts: [{ field: 'created', direction: 'desc' }],
    });
    const body = ordersQueryBody(
      {
        status: ['applied'],
        paymentStatus: [1, 4],
        patientName: ' 张 ',
        orderNo: '',
        dates: ['2026-11-01', '2026-11-02'],
      },
      3,
    );
    expect(body.skip).toBe(20);
    expect(body.filters).toMatchObject({ status: ['applied'], paymentStatus: [1, 4], patientName: '张' });
    expect(body.filters?.orderNo).toBeUndefined();
    // the last day is inclusive: to is the start of the day after
    expect(Date.parse(body.filters?.to ?? '') - Date.parse(body.filters?.from ?? '')).toBe(2 * 86_400_000);
  });
});

describe('refunds and invoices', () => {
  it('refundable is paid minus refunded, never negative', () => {
    expect(refundableFen({ paidFen: 5000, refundedFen: 1200 })).toBe(3800);
    expect(refundableFen({ paidFen: 5000, refundedFen: 6000 })).toBe(0);
  });

  const paid = { paymentStatus: 1 as const, channel: 'weixin', invoiceStatus: 'none', targetBucketId: 'x1' };
  it.each([
    [[], 'none'],
    [[paid], null],
    [[paid, { ...paid }], null],
    [[paid, { ...paid, paymentStatus: 0 as const }], 'InvoiceOrderUnpaid'],
    [[paid, { ...paid, channel: 'credit' }], 'InvoiceWrongChannel'],
    [[{ ...paid, invoiceStatus: 'applied' }], 'InvoiceAlreadyApplied'],
    [[{ ...paid, invoiceStatus: 'issued' }], 'InvoiceAlreadyApplied'],
    [[paid, { ...paid, targetBucketId: 'x2' }], 'InvoiceMixedExperts'],
  ])('%j → %s', (orders, refusal) => {
    expect(invoiceRefusal(orders)).toBe(refusal);
  });
});
