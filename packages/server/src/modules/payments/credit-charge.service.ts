import crypto from 'node:crypto';
import type { CreditChargeResult, Currency } from '@yyp/contracts';
import type { PaymentRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { consumeCreditToken, groupCreditBalance, lockGroupCredit } from '../ledger/index.js';
import { lockOrderRow, orderForPayment } from '../orders/index.js';
import type { ChargeService } from './charge.service.js';
import { orderAlreadyPaid } from './charge.service.js';
import type { WechatChannel } from './channel.js';
import type { PayCaller } from './payments.access.js';
import * as store from './payments.store.js';
import { settlePayment } from './settle.js';

/** `Charge-Authorization: Bearer <token>`'s token, '' when absent or of another scheme. */
export function creditTokenOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match ? match[1]! : '';
}

const refused = (why: string) => new AppError('NoPermissionToPay', `The charge authorization ${why}`);

/**
 * POST credits/charge: pays an order from its group's balance with the single-use bearer of
 * credits/create-token. One transaction: the token is used (a failed charge leaves it unused), the
 * order row and the group's balance are locked (lockGroupCredit), the balance read, the charge
 * refused with InsufficientCredit when short, else a credit payment row settles (settle.ts). Two
 * spends of one group at once run one after the other, so the balance never goes below zero.
 */
export class CreditChargeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly charges: ChargeService,
    private readonly wechat: WechatChannel | null,
  ) {}

  async charge(caller: PayCaller, token: string, orderId: string): Promise<CreditChargeResult> {
    if (!token) throw refused('is missing (Charge-Authorization: Bearer <token>)');
    await this.charges.payable(caller, orderId);
    const now = this.clock.now();
    const { result, closed } = await this.db.transaction(async (tx) => {
      const grant = await consumeCreditToken(tx, token, now);
      if (!grant) throw refused('is unknown, used or expired');
      if (grant.accountId && grant.accountId !== caller.account.id) throw refused('is another account’s');
      if (grant.orderId && grant.orderId !== orderId) throw refused('is for another order');
      await lockOrderRow(tx, orderId);
      const order = (await orderForPayment(tx, orderId))!;
      if (order.paymentStatus !== 0) throw orderAlreadyPaid();
      if (grant.groupId !== order.groupId) throw refused("is not the ordering group's");
      if (grant.amountFen !== order.priceFen || grant.currency !== order.currency) {
        throw refused('is for another amount');
      }
      await lockGroupCredit(tx, order.groupId);
      const balance = await groupCreditBalance(tx, order.groupId, order.currency);
      if (balance < order.priceFen) {
        throw new AppError('InsufficientCredit', 'The group balance is not enough for this order', {
          balanceFen: balance,
          amountFen: order.priceFen,
        });
      }
      const row = await store.insertPayment(tx, {
        id: crypto.randomUUID(),
        paymentNo: store.newNumber('YP', now),
        purpose: 'order',
        orderId,
        groupId: order.groupId,
        bucketId: order.requestBucketId,
        channel: 'credit',
        amountFen: order.priceFen,
        currency: order.currency,
        status: 'pending',
        createdBy: caller.account.id,
        created: now,
        updated: now,
      });
      const outcome = await settlePayment(
        tx,
        { id: row.id },
        { amountFen: row.amountFen, currency: row.currency, transactionId: null, paidAt: now },
        { source: 'credit', channel: 'credit', ctx: caller.ctx, actor: caller.account, now },
      );
      if (outcome.result !== 'settled') throw new Error(`credit payment ${row.paymentNo} did not settle`);
      // The order's open QR codes are of no use now: closed here, and at WeChat after the commit.
      const open = (await store.pendingPaymentsOf(tx, orderId)).filter((p) => p.id !== row.id);
      for (const p of open) await store.markClosed(tx, p.id, now);
      return {
        result: {
          paymentNo: row.paymentNo,
          orderId,
          amountFen: row.amountFen,
          currency: row.currency as Currency,
          balanceFen: balance - row.amountFen,
        },
        closed: open,
      };
    });
    await this.closeAtWechat(closed);
    return result;
  }

  /** Best effort: a code that was paid in the meantime settles as a duplicate and is refunded. */
  private async closeAtWechat(rows: PaymentRow[]): Promise<void> {
    const wechat = this.wechat;
    if (!wechat) return;
    for (const row of rows.filter((r) => r.codeUrl)) {
      try {
        await wechat.provider.closeOrder(row.paymentNo);
      } catch {
        // Not closed: if it was paid, its notification settles it as a duplicate.
      }
    }
  }
}
