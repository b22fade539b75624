import { CHARGE_TOKEN_SCHEME, CHARGE_TOKEN_TTL_MINUTES } from '@yyp/contracts';
import { AppError } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';

/**
 * The public /charge/{id} page's credential (spec 001 §8: the charge token, kept in session
 * storage): an HMAC-signed payload naming one charge (payment row), valid CHARGE_TOKEN_TTL_MINUTES.
 * It is sent as `Authorization: Charge <token>`; a token of another charge, a forged or an expired
 * one is refused as an invalid link (never a login error: the page may be open beside a session).
 */
const PURPOSE = 'charge';

export function issueChargeToken(signer: Signer, chargeId: string, now: Date): { token: string; expires: number } {
  return signer.sign(PURPOSE, { c: chargeId }, new Date(now.getTime() + CHARGE_TOKEN_TTL_MINUTES * 60_000));
}

/** The token of `Authorization: Charge <token>`, '' when the header is absent or of another scheme. */
export function chargeTokenOf(header: string | undefined): string {
  const match = header ? new RegExp(`^${CHARGE_TOKEN_SCHEME}\\s+(\\S+)\\s*$`, 'i').exec(header) : null;
  return match ? match[1]! : '';
}

/** Passes when `token` is a valid, unexpired charge token of `chargeId`; else LinkInvalid (403). */
export function requireChargeToken(signer: Signer, token: string, chargeId: string, now: Date): void {
  const payload = token ? signer.verify(PURPOSE, token, now) : null;
  if (!payload || payload.c !== chargeId) {
    throw new AppError('LinkInvalid', 'The payment link is invalid or expired; open it again from the order');
  }
}
