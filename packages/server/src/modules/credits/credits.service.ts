import {
  CURRENCIES,
  MAX_CREDIT_EXPORT,
  creditSpendRefusal,
  ledgerAccount,
  topupPosting,
  type BucketCredit,
  type CreditFilters,
  type CreditLine,
  type CreditPage,
  type CreditSums,
  type CreditToken,
  type CreditTopUpResult,
  type Currency,
  type GroupCredit,
  type LedgerEntry,
  type Language,
  ORDER_APPLY_ACTION,
} from '@yyp/contracts';
import type {
  createCreditTokenSchema,
  creditExportSchema,
  creditPageQuerySchema,
  creditTopUpSchema,
} from '@yyp/contracts';
import type { z } from 'zod';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { getDomainConfig } from '../domain/index.js';
import {
  groupCreditBalance,
  issueCreditToken,
  postTxn,
  statement,
  statementSums,
  type StatementFilter,
} from '../ledger/index.js';
import { orderForPayment } from '../orders/index.js';
import { CreditAccess, BILLING_ACTIONS, type CreditCaller } from './credits.access.js';
import { creditLinesWorkbook, creditSumsWorkbook } from './credits-export.js';

/**
 * Group credits (spec 001 §7 Credits; issue 24): balances, the statement and its exports, the
 * Charge-Authorization bearers of credits/charge, and platform admins' offline top-ups. The balance
 * is the ledger's (modules/ledger), never a stored number.
 */
export class CreditsService {
  private readonly access: CreditAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly maxExport = MAX_CREDIT_EXPORT,
  ) {
    this.access = new CreditAccess(db);
  }

  private async balances(groupId: string): Promise<GroupCredit['balances']> {
    const out: GroupCredit['balances'] = [];
    for (const currency of CURRENCIES) {
      out.push({ currency, amountFen: await groupCreditBalance(this.db, groupId, currency) });
    }
    return out;
  }

  private async creditOf(groupId: string, enabled: boolean): Promise<GroupCredit> {
    const balances = await this.balances(groupId);
    return { groupId, enabled, currency: 'CNY', amountFen: balances[0]!.amountFen, balances };
  }

  /** GET credits/group-credit: the route checked group membership; billing view and the flag here. */
  async groupCredit(caller: CreditCaller, groupId: string): Promise<GroupCredit> {
    await this.access.requireBillingView(caller, groupId);
    await this.access.requireCreditOn(caller, groupId);
    return this.creditOf(groupId, true);
  }

  /** GET buckets/{id}/credit: for the apply page; a group with credit off answers enabled false, no balance. */
  async bucketCredit(caller: CreditCaller, bucketId: string): Promise<BucketCredit> {
    const groupId = await this.access.requireInBucket(caller, bucketId, BILLING_ACTIONS);
    const enabled = (await this.access.creditEnabled(groupId)) === true;
    if (!enabled) {
      const zero = CURRENCIES.map((currency) => ({ currency, amountFen: 0 }));
      return { bucketId, groupId, enabled, currency: 'CNY', amountFen: 0, balances: zero };
    }
    return { bucketId, ...(await this.creditOf(groupId, true)) };
  }

  /** POST credits/create-token: a single-use bearer for an unpaid order's price, or for an amount. */
  async createToken(caller: CreditCaller, body: z.infer<typeof createCreditTokenSchema>): Promise<CreditToken> {
    let target: { groupId: string; bucketId: string; orderId: string | null; amountFen: number; currency: Currency };
    if ('orderId' in body) {
      const order = await orderForPayment(this.db, body.orderId);
      if (!order) throw errors.notFound('Order');
      const groupId = await this.access.requireInBucket(caller, order.requestBucketId, [
        ORDER_APPLY_ACTION[order.type],
      ]);
      if (order.status === 'cancelled') throw errors.conflict('The order is cancelled');
      if (order.paymentStatus !== 0 || order.priceFen <= 0) {
        throw new AppError('OrderAlreadyPaid', 'The order is paid or needs no payment');
      }
      target = {
        groupId,
        bucketId: order.requestBucketId,
        orderId: order.id,
        amountFen: order.priceFen,
        currency: order.currency,
      };
    } else {
      const groupId = await this.access.requireInBucket(caller, body.bucketId, BILLING_ACTIONS);
      target = { groupId, bucketId: body.bucketId, orderId: null, amountFen: body.amountFen, currency: body.currency };
    }
    if (!(await getDomainConfig(this.db)).enablePaymentService) {
      throw new AppError('PaymentServiceDisabled', 'The payment service is not enabled');
    }
    await this.access.requireCreditOn(caller, target.groupId, target.bucketId);
    const balanceFen = await groupCreditBalance(this.db, target.groupId, target.currency);
    if (creditSpendRefusal(balanceFen, target.amountFen)) {
      throw new AppError('InsufficientCredit', 'The group balance does not cover the amount', {
        balanceFen,
        amountFen: target.amountFen,
      });
    }
    const now = this.clock.now();
    const issued = await issueCreditToken(this.db, { ...target, accountId: caller.account.id, now });
    await writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action: 'credit.token',
        category: 'security',
        targetType: target.orderId ? 'order' : 'bucket',
        targetId: target.orderId ?? target.bucketId,
        bucketId: target.bucketId,
        details: { amountFen: target.amountFen, currency: target.currency, expiresAt: issued.expiresAt.toISOString() },
      }),
    );
    return {
      token: issued.token,
      expiresAt: issued.expiresAt.toISOString(),
      amountFen: target.amountFen,
      currency: target.currency,
      balanceFen,
    };
  }

  /**
   * POST credits/top-up (platform admins): an offline transfer into a group's balance, posted once per
   * Idempotency-Key (required: a retried request must not add the money twice) and audited with it.
   */
  async topUp(
    caller: CreditCaller,
    key: string | undefined,
    body: z.infer<typeof creditTopUpSchema>,
  ): Promise<CreditTopUpResult> {
    if (!key) throw errors.validation('A top-up needs an Idempotency-Key header', { header: 'idempotency-key' });
    await this.access.requireCreditOn(caller, body.groupId);
    const request = { accountId: caller.account.id, key, call: 'POST credits/top-up', body };
    return idempotent(this.db, request, async (tx) => {
      const now = this.clock.now();
      const posted = await postTxn(tx, {
        kind: 'topup',
        ref: `manual-${crypto.randomUUID()}`,
        groupId: body.groupId,
        memo: body.memo,
        actorId: caller.account.id,
        lines: topupPosting({
          source: 'manual',
          groupId: body.groupId,
          amountFen: body.amountFen,
          currency: body.currency,
        }),
        at: now,
      });
      const balanceFen = await groupCreditBalance(tx, body.groupId, body.currency);
      await writeAudit(
        tx,
        caller.ctx,
        actorAudit(caller.account, {
          action: 'credit.topup',
          category: 'security',
          targetType: 'group',
          targetId: body.groupId,
          details: {
            amountFen: body.amountFen,
            currency: body.currency,
            txnId: posted.txnId,
            memo: body.memo,
            balanceFen,
          },
        }),
      );
      return {
        txnId: posted.txnId,
        groupId: body.groupId,
        amountFen: body.amountFen,
        currency: body.currency,
        balanceFen,
        created: now.toISOString(),
      };
    });
  }

  private async statementFilter(caller: CreditCaller, groupId: string, f: CreditFilters): Promise<StatementFilter> {
    await this.access.requireBillingView(caller, groupId);
    await this.access.requireCreditOn(caller, groupId);
    const from = f.from ? new Date(f.from) : undefined;
    const to = f.to ? new Date(f.to) : undefined;
    if (from && to && from > to) throw errors.validation('from must not be after to');
    return { account: ledgerAccount.groupCredit(groupId), currency: f.currency, kinds: f.kinds, from, to };
  }

  /** POST credits/page-query: the group's statement, newest first, each line the change of its balance. */
  async page(caller: CreditCaller, groupId: string, body: z.infer<typeof creditPageQuerySchema>): Promise<CreditPage> {
    const filter = await this.statementFilter(caller, groupId, body.filters);
    const { entries, count } = await statement(this.db, filter, { limit: body.limit, offset: body.skip });
    return { data: entries.map(creditLine), count };
  }

  /** POST credits/page-query-sum: the filtered lines summed per kind and currency, and the net per currency. */
  async sums(caller: CreditCaller, groupId: string, filters: CreditFilters): Promise<CreditSums> {
    const filter = await this.statementFilter(caller, groupId, filters);
    const data = (await statementSums(this.db, filter)).map((s) => ({
      kind: s.kind,
      currency: s.currency,
      amountFen: -s.sumFen,
      count: s.count,
    }));
    const totals = CURRENCIES.filter((c) => data.some((d) => d.currency === c)).map((currency) => ({
      currency,
      amountFen: data.filter((d) => d.currency === currency).reduce((s, d) => s + d.amountFen, 0),
    }));
    return { data, totals };
  }

  /** POST credits/export-excel: the filtered lines as .xlsx (at most MAX_CREDIT_EXPORT). */
  async exportLines(caller: CreditCaller, groupId: string, body: z.infer<typeof creditExportSchema>) {
    const filter = await this.statementFilter(caller, groupId, body.filters);
    const { entries, count } = await statement(this.db, filter, { limit: this.maxExport, offset: 0 });
    if (count > this.maxExport) {
      throw new AppError('ExportLimitExceeded', `At most ${this.maxExport} lines per export`, {
        count,
        limit: this.maxExport,
      });
    }
    const now = this.clock.now();
    const file = await creditLinesWorkbook(entries.map(creditLine), this.language(caller, body.language), now);
    return { body: file, filename: `credits-${stamp(now)}.xlsx`, count };
  }

  /** POST credits/export-excel-sum: the sums per kind as .xlsx. */
  async exportSums(caller: CreditCaller, groupId: string, body: z.infer<typeof creditExportSchema>) {
    const sums = await this.sums(caller, groupId, body.filters);
    const now = this.clock.now();
    const file = await creditSumsWorkbook(sums.data, this.language(caller, body.language), now);
    return { body: file, filename: `credit-sums-${stamp(now)}.xlsx`, count: sums.data.length };
  }

  private language(caller: CreditCaller, asked: Language | undefined): Language {
    return asked ?? caller.account.preferences.language ?? 'chs';
  }
}

const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/** A ledger line of the group's credit account as the change of its balance (a liability: minus). */
function creditLine(e: LedgerEntry): CreditLine {
  return {
    txnId: e.txnId,
    kind: e.kind,
    ref: e.ref,
    orderId: e.orderId,
    memo: e.memo,
    currency: e.currency,
    amountFen: -e.amountFen,
    created: e.created,
  };
}
