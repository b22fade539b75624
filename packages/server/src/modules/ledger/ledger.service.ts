import {
  CREDIT_TOKEN_TTL_SECONDS,
  checkBalanced,
  groupBalanceFromSum,
  ledgerAccount,
  type Currency,
  type LedgerEntry,
  type LedgerKind,
  type LedgerLine,
} from '@yyp/contracts';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db.js';
import { insertCreditToken, useCreditToken, type CreditTokenRow } from './credit-tokens.store.js';
import {
  advisoryLockGroupCredit,
  entriesOfOrder,
  insertEntries,
  insertTxnOnce,
  sumOf,
  txnIdOf,
} from './ledger.store.js';

/** Lines that do not balance are a bug of the caller: nothing is posted. */
export class LedgerUnbalancedError extends Error {
  constructor(kind: string, ref: string, reason: string) {
    super(`ledger txn ${kind}/${ref} refused: ${reason}`);
    this.name = 'LedgerUnbalancedError';
  }
}

export interface PostTxnInput {
  kind: LedgerKind;
  ref: string;
  groupId?: string;
  orderId?: string;
  memo?: string;
  actorId?: string;
  lines: LedgerLine[];
  /** when it happened (default now) */
  at?: Date;
}

/**
 * Posts a double-entry transaction once per (kind, ref): a repeat (a retried call, a notification
 * delivered twice, two at once) answers the first txn with posted false and writes nothing. The txn
 * and its lines are written in one transaction (a savepoint when db already is one).
 */
export async function postTxn(db: Db, txn: PostTxnInput): Promise<{ txnId: string; posted: boolean }> {
  const check = checkBalanced(txn.lines);
  if (!check.balanced) {
    throw new LedgerUnbalancedError(txn.kind, txn.ref, check.reason);
  }
  const at = txn.at ?? new Date();
  return db.transaction(async (tx) => {
    const id = crypto.randomUUID();
    const inserted = await insertTxnOnce(tx, {
      id,
      kind: txn.kind,
      ref: txn.ref,
      groupId: txn.groupId ?? null,
      orderId: txn.orderId ?? null,
      memo: txn.memo ?? '',
      actorId: txn.actorId ?? null,
      created: at,
    });
    if (!inserted) {
      const existing = await txnIdOf(tx, txn.kind, txn.ref);
      if (!existing) {
        throw new Error(`ledger txn ${txn.kind}/${txn.ref} conflicted but cannot be read`);
      }
      return { txnId: existing, posted: false };
    }
    await insertEntries(tx, id, txn.lines, at);
    return { txnId: id, posted: true };
  });
}

/** The raw signed sum of an account (debit positive). */
export function balanceOf(db: Db, account: string, currency: Currency): Promise<number> {
  return sumOf(db, account, currency);
}

/** A group's prepaid balance in fen: minus the sum of its credit account. */
export async function groupCreditBalance(db: Db, groupId: string, currency: Currency): Promise<number> {
  return groupBalanceFromSum(await sumOf(db, ledgerAccount.groupCredit(groupId), currency));
}

/** An order's ledger lines (payment, refunds, SLA credit), oldest first, for its detail. */
export function entriesForOrder(db: Db, orderId: string): Promise<LedgerEntry[]> {
  return entriesOfOrder(db, orderId);
}

/**
 * Serialises spends of a group's balance: call inside the transaction that reads the balance and
 * posts the spend; the lock is held until it ends. (PGlite has one connection, so it serialises anyway.)
 */
export function lockGroupCredit(db: Db, groupId: string): Promise<void> {
  return advisoryLockGroupCredit(db, groupId);
}

/** Only the SHA-256 of a bearer is stored, so the table's rows cannot be replayed as tokens. */
const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssueCreditTokenInput {
  groupId: string;
  bucketId?: string | null;
  accountId: string;
  orderId?: string | null;
  amountFen: number;
  currency: Currency;
  now: Date;
  ttlSeconds?: number;
}

/** credits/create-token: a short-lived single-use bearer for one amount of one group's balance. */
export async function issueCreditToken(db: Db, i: IssueCreditTokenInput): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(i.now.getTime() + (i.ttlSeconds ?? CREDIT_TOKEN_TTL_SECONDS) * 1000);
  await insertCreditToken(db, {
    id: tokenDigest(token),
    groupId: i.groupId,
    bucketId: i.bucketId ?? null,
    accountId: i.accountId,
    orderId: i.orderId ?? null,
    amountFen: i.amountFen,
    currency: i.currency,
    expiresAt,
    created: i.now,
  });
  return { token, expiresAt };
}

export type CreditTokenGrant = Omit<CreditTokenRow, 'id'>;

/**
 * The Charge-Authorization bearer, used: answers what it authorises and marks it used, or null when
 * it is unknown, used or expired. Run it in the charge's transaction so a failed charge keeps it unused.
 */
export async function consumeCreditToken(db: Db, token: string, now: Date): Promise<CreditTokenGrant | null> {
  if (!token || token.length > 200) {
    return null;
  }
  const row = await useCreditToken(db, tokenDigest(token), now);
  if (!row) {
    return null;
  }
  const { id: _id, ...rest } = row;
  return rest;
}
