import { PAYMENT_STATUS, type PaymentStatus } from '@yyp/contracts';
import { isApiError, type ApiErrorCode } from '../../api/errors';

/** How often the payer's page asks for the payment status while a QR is open (issue 24). */
export const PAYMENT_POLL_MS = 2000;

/**
 * What the payment page shows: waiting for the scan (QR and live status), the QR has expired (offer a
 * new one), paid (success), or a refund state for an order paid earlier.
 */
export type PaymentPhase = 'awaiting' | 'expired' | 'paid' | 'refunding' | 'refunded';

export interface PaymentSnapshot {
  paymentStatus: PaymentStatus;
  /** when the open QR stops being payable (ISO); null when no QR is open */
  expiresAt?: string | null;
}

export function paymentPhase(snapshot: PaymentSnapshot, now: number): PaymentPhase {
  switch (snapshot.paymentStatus) {
    case PAYMENT_STATUS.paid:
      return 'paid';
    case PAYMENT_STATUS.refunding:
      return 'refunding';
    case PAYMENT_STATUS.refunded:
    case PAYMENT_STATUS.partiallyRefunded:
      return 'refunded';
    default:
      return snapshot.expiresAt && Date.parse(snapshot.expiresAt) <= now ? 'expired' : 'awaiting';
  }
}

/** Polling runs only while a payer may still scan; it stops once paid or expired (issue 24). */
export function shouldPoll(phase: PaymentPhase): boolean {
  return phase === 'awaiting';
}

/** Whole seconds until the QR expires (0 once passed; null without an expiry). */
export function secondsLeft(expiresAt: string | null | undefined, now: number): number | null {
  if (!expiresAt) return null;
  // whole seconds, rounded down: a fresh 30-minute code reads 29:59, never 30:01
  return Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
}

/** The payment messages of spec 001 §8, each a key under billing.pay.message. */
export type PaymentMessage =
  'orderError' | 'refreshRetry' | 'qrExpired' | 'serverNotResponding' | 'completeInfo' | 'alreadyPaid' | 'noPermission';

const BY_CODE: Partial<Record<ApiErrorCode, PaymentMessage>> = {
  OrderAlreadyPaid: 'alreadyPaid',
  NoPermissionToPay: 'noPermission',
  InsufficientPermissions: 'noPermission',
  PaymentServiceDisabled: 'noPermission',
  PaymentExpired: 'qrExpired',
  PaymentChannelError: 'serverNotResponding',
  RequestTimeout: 'serverNotResponding',
  NetworkError: 'serverNotResponding',
  ValidationError: 'completeInfo',
  NotFound: 'orderError',
  OrderNotCancellable: 'orderError',
  IdempotencyKeyReused: 'refreshRetry',
};

/** The §8 payment message for a failed payment call. */
export function paymentMessage(error: unknown): PaymentMessage {
  if (!isApiError(error)) return 'refreshRetry';
  const known = BY_CODE[error.code];
  if (known) return known;
  if (error.status >= 500) return 'serverNotResponding';
  if (error.status === 401 || error.status === 403) return 'noPermission';
  return error.status >= 400 ? 'orderError' : 'refreshRetry';
}
