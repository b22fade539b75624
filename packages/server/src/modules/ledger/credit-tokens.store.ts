import type { Currency } from '@yyp/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { creditChargeTokens } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

export interface CreditTokenRow {
  id: string;
  groupId: string;
  bucketId: string | null;
  accountId: string | null;
  orderId: string | null;
  amountFen: number;
  currency: Currency;
  expiresAt: Date;
}

export async function insertCreditToken(db: Db, row: CreditTokenRow & { created: Date }): Promise<void> {
  await db.insert(creditChargeTokens).values(row);
}

/** Marks the token used if it is unused and unexpired; answers it then, else nothing. Runs once per token. */
export async function useCreditToken(db: Db, id: string, now: Date): Promise<CreditTokenRow | undefined> {
  const rows = await db
    .update(creditChargeTokens)
    .set({ usedAt: now })
    .where(and(eq(creditChargeTokens.id, id), isNull(creditChargeTokens.usedAt), gt(creditChargeTokens.expiresAt, now)))
    .returning({
      id: creditChargeTokens.id,
      groupId: creditChargeTokens.groupId,
      bucketId: creditChargeTokens.bucketId,
      accountId: creditChargeTokens.accountId,
      orderId: creditChargeTokens.orderId,
      amountFen: creditChargeTokens.amountFen,
      currency: creditChargeTokens.currency,
      expiresAt: creditChargeTokens.expiresAt,
    });
  const r = rows[0];
  return r ? { ...r, amountFen: Number(r.amountFen), currency: r.currency as Currency } : undefined;
}
