import { PAYMENT_STATUS, type PaymentStatus } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { chargePagePath, chargeTokenKey, forgetChargeToken, storeChargeToken, takeChargeToken } from './chargeToken';
import { paymentMessage, paymentPhase, secondsLeft, shouldPoll } from './paymentState';

const NOW = Date.parse('2026-11-27T10:00:00Z');
const later = new Date(NOW + 60_000).toISOString();
const earlier = new Date(NOW - 1).toISOString();

describe('paymentPhase and polling', () => {
  it.each<[PaymentStatus, string | null, string, boolean]>([
    [PAYMENT_STATUS.unpaid, later, 'awaiting', true],
    [PAYMENT_STATUS.unpaid, null, 'awaiting', true],
    [PAYMENT_STATUS.unpaid, earlier, 'expired', false],
    [PAYMENT_STATUS.unpaid, new Date(NOW).toISOString(), 'expired', false],
    [PAYMENT_STATUS.paid, earlier, 'paid', false],
    [PAYMENT_STATUS.paid, later, 'paid', false],
    [PAYMENT_STATUS.refunding, later, 'refunding', false],
    [PAYMENT_STATUS.refunded, later, 'refunded', false],
    [PAYMENT_STATUS.partiallyRefunded, null, 'refunded', false],
  ])('status %s expiring %s → %s (poll %s)', (paymentStatus, expiresAt, phase, poll) => {
    const got = paymentPhase({ paymentStatus, expiresAt }, NOW);
    expect(got).toBe(phase);
    expect(shouldPoll(got)).toBe(poll);
  });

  it('counts the seconds left, never below zero', () => {
    expect(secondsLeft(later, NOW)).toBe(60);
    expect(secondsLeft(new Date(NOW + 1500).toISOString(), NOW)).toBe(1);
    expect(secondsLeft(earlier, NOW)).toBe(0);
    expect(secondsLeft(null, NOW)).toBeNull();
  });
});

describe('paymentMessage (spec 001 §8)', () => {
  it.each([
    [new ApiError('OrderAlreadyPaid', 409), 'alreadyPaid'],
    [new ApiError('NoPermissionToPay', 403), 'noPermission'],
    [new ApiError('InsufficientPermissions', 403), 'noPermission'],
    [new ApiError('PaymentServiceDisabled', 403), 'noPermission'],
    [new ApiError('PaymentExpired', 409), 'qrExpired'],
    [new ApiError('PaymentChannelError', 502), 'serverNotResponding'],
    [new ApiError('RequestTimeout', 0), 'serverNotResponding'],
    [new ApiError('NetworkError', 0), 'serverNotResponding'],
    [new ApiError('UnknownError', 503), 'serverNotResponding'],
    [new ApiError('ValidationError', 400), 'completeInfo'],
    [new ApiError('NotFound', 404), 'orderError'],
    [new ApiError('InvalidJson', 400), 'orderError'],
    [new ApiError('UnknownError', 401), 'noPermission'],
    [new ApiError('IdempotencyKeyReused', 409), 'refreshRetry'],
    [new Error('boom'), 'refreshRetry'],
  ])('%s → %s', (error, message) => {
    expect(paymentMessage(error)).toBe(message);
  });
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('the charge token (session storage)', () => {
  it('takes the token from the address, keeps it and cleans the address', () => {
    const storage = memoryStorage();
    expect(takeChargeToken('c1', '?token=abc&x=1', storage)).toEqual({ token: 'abc', cleanSearch: '?x=1' });
    expect(storage.map.get(chargeTokenKey('c1'))).toBe('abc');
    expect(takeChargeToken('c1', '', storage)).toEqual({ token: 'abc', cleanSearch: '' });
    expect(takeChargeToken('c2', '', storage).token).toBeNull();
  });

  it('keeps tokens per charge and forgets one', () => {
    const storage = memoryStorage();
    storeChargeToken('c1', 't1', storage);
    storeChargeToken('c2', 't2', storage);
    forgetChargeToken('c1', storage);
    expect(takeChargeToken('c1', '', storage).token).toBeNull();
    expect(takeChargeToken('c2', '', storage).token).toBe('t2');
  });

  it('survives a storage that refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(takeChargeToken('c1', '?token=t', refusing).token).toBe('t');
    expect(takeChargeToken('c1', '', refusing).token).toBeNull();
    expect(() => forgetChargeToken('c1', refusing)).not.toThrow();
  });

  it('builds the page address with the token encoded', () => {
    expect(chargePagePath('a/b')).toBe('/charge/a%2Fb');
    expect(chargePagePath('c1', 't+1')).toBe('/charge/c1?token=t%2B1');
  });
});
