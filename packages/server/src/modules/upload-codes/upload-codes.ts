import crypto from 'node:crypto';
import type { UploadCodeRow } from '../../db/schema.js';
import { AppError } from '../../platform/errors.js';

/**
 * Upload codes are rows, not signed tokens: a signature code must work once only and a code's
 * file count must hold across instances, which needs state in the database anyway; a row also
 * lets a new code end the old one. The code itself is 256 random bits shown once; the row keeps
 * only its SHA-256, so reading the table opens nothing.
 */
export type CodePurpose = UploadCodeRow['purpose'];
export type CodeProblem = 'invalid' | 'expired' | 'used';

export function newCode(): { code: string; hash: string } {
  const code = crypto.randomBytes(32).toString('base64url');
  return { code, hash: hashCode(code) };
}

export function hashCode(code: string): string {
  return crypto.createHash('sha256').update(code, 'utf8').digest('hex');
}

/**
 * The owner part of the keys a code's uploads get (`uploads/<kind>/code-<id>/…`): a code can
 * only hand in files uploaded through its own policies, never an account's or another code's.
 */
export function codeOwner(codeId: string): string {
  return `code-${codeId}`;
}

/** Why a code row cannot be used now for one of these purposes, or null when it can. */
export function codeProblem(
  row: Pick<UploadCodeRow, 'purpose' | 'expiresAt' | 'usedAt'> | undefined,
  purposes: readonly CodePurpose[],
  now: Date,
): CodeProblem | null {
  if (!row || !purposes.includes(row.purpose)) return 'invalid';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

const messages: Record<CodeProblem, string> = {
  invalid: 'The code is not valid; ask for a new link',
  expired: 'The code has expired; ask for a new link',
  used: 'The code has already been used; ask for a new link',
};

export function codeError(problem: CodeProblem): AppError {
  return new AppError('LinkInvalid', messages[problem], { problem });
}
