import crypto from 'node:crypto';
import {
  formatMoney,
  type ownChargesQuerySchema,
  planPackageById,
  type ChargeCreated,
  type Currency,
  type OwnCharge,
  type OwnCharges,
  type PaymentPurpose,
  type PlanBuy,
  type WeixinTopUp,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { PaymentRow } from '../../db/schema.js';
import { actionsInBucket, callerScope } from '../../platform/access.js';
import { denialAudit, writeAudit } from '../../platform/audit.js';
import { decideGroup } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { getDomainConfig } from '../domain/index.js';
import { findGroup } from '../groups/index.js';
import { requireWechat, type WechatChannel } from './channel.js';
import { issueChargeToken } from './charge-token.js';
import type { PayCaller } from './payments.access.js';
import * as store from './payments.store.js';
import { ownCharges, type OwnChargeRow } from './purchases.store.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What WeChat shows the payer for a purchase that is not an order (≤ 127 characters). */
export function purchaseDescription(row: Pick<PaymentRow, 'purpose' | 'packageId' | 'amountFen' | 'currency'>) {
  return row.purpose === 'plan'
    ? `影像云套餐 ${row.packageId ?? ''}`.trim()
    : `影像云余额充值 ${formatMoney(row.amountFen, row.currency as Currency)}`;
}

/**
 * Purchases paid by WeChat Native that are not orders (issue 24, /settings/billing): a group admin's
 * top-up of the group's balance (credits/weixin-top-up) and a private organization's admin's plan
 * package (packages/buy). Each opens a charge (a payment row, purpose topup or plan) and answers
 * its id and charge token; its QR, status and paid-confirm are the charge/{id}/* calls, and the
 * notification settles it once (settle.ts → settle-purchase.ts). Also charge/request: the caller's
 * own charges.
 */
export class PurchasesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly wechat: WechatChannel | null,
  ) {}

  /** POST credits/weixin-top-up: the group's admins; the group keeps credit on. */
  async weixinTopUp(caller: PayCaller, input: WeixinTopUp): Promise<ChargeCreated> {
    const scope = await callerScope(this.db, caller.account);
    const decision = decideGroup(scope.access, 'group_manage', input.groupId);
    if (decision !== 'allow') {
      await writeAudit(this.db, caller.ctx, {
        ...denialAudit(caller.account, undefined, 'group_manage', decision),
        targetType: 'group',
        targetId: input.groupId,
      });
      throw decision === 'notFound' ? errors.notFound('Group') : errors.forbidden('group_manage');
    }
    const group = await findGroup(this.db, input.groupId);
    if (!group) throw errors.notFound('Group');
    if (group.settings.enableCredit !== true) {
      throw new AppError('InsufficientPermissions', "The group's credit is off (enableCredit)", {
        action: 'enableCredit',
      });
    }
    return this.open(caller, { purpose: 'topup', groupId: group.id, bucketId: null, packageId: null }, input.amountFen);
  }

  /** POST packages/buy: an admin of the private organization (or of its group). */
  async buyPackage(caller: PayCaller, input: PlanBuy): Promise<ChargeCreated> {
    const found = await actionsInBucket(this.db, caller.account, input.bucketId);
    if (!found || !found.actions.has('bucket_manage')) {
      const decision = found ? 'forbidden' : 'notFound';
      await writeAudit(this.db, caller.ctx, denialAudit(caller.account, input.bucketId, 'bucket_manage', decision));
      throw found ? errors.forbidden('bucket_manage') : errors.notFound('Organization');
    }
    const pkg = planPackageById(input.packageId);
    if (!pkg) throw errors.validation('No such package', { packageId: input.packageId });
    if (!found.bucket.isPrivate) throw new AppError('Conflict', 'A public organization needs no plan');
    return this.open(
      caller,
      { purpose: 'plan', groupId: found.bucket.groupId, bucketId: found.bucket.id, packageId: pkg.id },
      pkg.priceFen,
      pkg.currency,
    );
  }

  private async open(
    caller: PayCaller,
    what: { purpose: 'topup' | 'plan'; groupId: string; bucketId: string | null; packageId: string | null },
    amountFen: number,
    currency: Currency = 'CNY',
  ): Promise<ChargeCreated> {
    if (!(await getDomainConfig(this.db)).enablePaymentService) {
      throw new AppError('PaymentServiceDisabled', 'The payment service is not enabled');
    }
    requireWechat(this.wechat);
    const now = this.clock.now();
    const row = await store.insertPayment(this.db, {
      id: crypto.randomUUID(),
      paymentNo: store.newNumber('YP', now),
      ...what,
      orderId: null,
      channel: 'weixin',
      amountFen,
      currency,
      status: 'pending',
      createdBy: caller.account.id,
      created: now,
      updated: now,
    });
    await writeAudit(this.db, caller.ctx, {
      action: what.purpose === 'topup' ? 'payment.topup_applied' : 'payment.plan_applied',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      targetType: 'payment',
      targetId: row.paymentNo,
      ...(what.bucketId ? { bucketId: what.bucketId } : {}),
      details: { groupId: what.groupId, packageId: what.packageId, amountFen, currency },
    });
    const { token, expires } = issueChargeToken(this.signer, row.id, now);
    return { id: row.id, token, tokenExpires: expires };
  }

  /** GET charge/request: the payments the caller created, newest first. */
  async mine(caller: PayCaller, query: z.infer<typeof ownChargesQuerySchema>): Promise<OwnCharges> {
    const { rows, count } = await ownCharges(this.db, caller.account.id, query);
    return { data: rows.map(presentOwnCharge), count };
  }
}

function presentOwnCharge(r: OwnChargeRow): OwnCharge {
  return {
    ...r,
    purpose: r.purpose as PaymentPurpose,
    currency: r.currency as Currency,
    channel: r.channel as OwnCharge['channel'],
    status: r.status as OwnCharge['status'],
    created: r.created.toISOString(),
    paidAt: iso(r.paidAt),
  };
}
