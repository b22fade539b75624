import crypto from 'node:crypto';
import {
  invoiceApplySchema,
  invoiceConfigInputSchema,
  type Invoice,
  type InvoiceApply,
  type InvoiceConfig,
  type InvoiceConfigInput,
  type InvoiceIssue,
} from '@yyp/contracts';
import { writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { requireIn, type PayCaller } from './payments.access.js';
import { presentInvoice } from './payments.presenter.js';
import { moveOrdersInvoice } from '../orders/index.js';
import * as store from './invoices.store.js';

const refuse = (code: ConstructorParameters<typeof AppError>[0], message: string, orderIds: string[]) =>
  new AppError(code, message, { orderIds });

/**
 * Invoices (spec 000 §4 none → applied → issued, issued irreversible; §5 the rules; §6 issue_invoice;
 * spec 001 §8 the invoice messages). The requester applies for paid weixin orders of one expert
 * organization that invoices; that organization's issuers issue it once.
 */
export class InvoicesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async config(bucketId: string): Promise<InvoiceConfig> {
    const row = await store.invoiceConfigOf(this.db, bucketId);
    return {
      bucketId,
      supportsInvoice: row?.supportsInvoice ?? false,
      issuerName: row?.issuerName ?? '',
      taxNo: row?.taxNo ?? '',
      note: row?.note ?? '',
      updated: row?.updated.toISOString() ?? null,
      version: row?.version ?? 0,
    };
  }

  async updateConfig(caller: PayCaller, bucketId: string, input: InvoiceConfigInput): Promise<InvoiceConfig> {
    const { version, ...c } = invoiceConfigInputSchema.parse(input);
    if (!(await store.saveInvoiceConfigAt(this.db, bucketId, c, version, this.clock.now()))) {
      throw errors.conflict('The invoice settings were changed by someone else since this version');
    }
    await writeAudit(this.db, caller.ctx, {
      action: 'invoice.config_updated',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      targetType: 'bucket',
      targetId: bucketId,
      bucketId,
      details: { supportsInvoice: c.supportsInvoice },
    });
    return this.config(bucketId);
  }

  /** POST payments/apply-invoice: each rule of spec 000 §5 refuses with its own code. */
  async apply(caller: PayCaller, input: InvoiceApply): Promise<Invoice> {
    const body = invoiceApplySchema.parse(input);
    const ids = [...new Set(body.orderIds)];
    const rows = await store.ordersForInvoice(this.db, ids);
    if (rows.length !== ids.length) throw errors.notFound('Order');
    for (const bucketId of new Set(rows.map((r) => r.requestBucketId))) {
      await requireIn(this.db, caller, bucketId, ['apply_expert_report', 'apply_remote_report']);
    }
    const which = (test: (r: (typeof rows)[number]) => boolean) => rows.filter(test).map((r) => r.id);
    const unpaid = which((r) => r.paymentStatus !== 1 && r.paymentStatus !== 4);
    if (unpaid.length) throw refuse('InvoiceOrderUnpaid', 'Only paid orders can be invoiced', unpaid);
    const wrong = which((r) => r.channel !== 'weixin');
    if (wrong.length) throw refuse('InvoiceWrongChannel', 'Only orders paid by WeChat can be invoiced', wrong);
    const experts = new Set(rows.map((r) => r.targetBucketId));
    if (experts.size > 1) {
      throw refuse('InvoiceMixedExperts', 'The orders are of different expert organizations', ids);
    }
    const bucketId = rows[0]!.targetBucketId;
    if (!(await store.invoiceConfigOf(this.db, bucketId))?.supportsInvoice) {
      throw refuse('InvoiceNotSupported', 'The expert organization does not issue invoices', ids);
    }
    const issued = which((r) => r.invoiceStatus === 'issued');
    if (issued.length) throw refuse('InvoiceAlreadyIssued', 'An invoice was already issued for the orders', issued);
    const applied = which((r) => r.invoiceStatus !== 'none');
    if (applied.length) throw refuse('InvoiceAlreadyApplied', 'An invoice was already applied for', applied);
    if (new Set(rows.map((r) => r.currency)).size > 1 || new Set(rows.map((r) => r.requestBucketId)).size > 1) {
      throw errors.validation('One invoice covers orders of one organization in one currency');
    }
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const invoice = await store.insertInvoice(tx, {
        id: crypto.randomUUID(),
        bucketId,
        requestBucketId: rows[0]!.requestBucketId,
        status: 'applied',
        title: body.title,
        taxNo: body.taxNo,
        phone: body.phone,
        email: body.email,
        amountFen: rows.reduce((sum, r) => sum + r.paidFen - r.refundedFen, 0),
        currency: rows[0]!.currency,
        appliedBy: caller.account.id,
        appliedAt: now,
      });
      // Another application took one of the orders in the meantime: this one changes nothing.
      if ((await moveOrdersInvoice(tx, { orderIds: ids }, 'none', 'applied', invoice.id, now)) !== ids.length) {
        throw refuse('InvoiceAlreadyApplied', 'An invoice was already applied for', ids);
      }
      await writeAudit(tx, caller.ctx, {
        action: 'invoice.applied',
        outcome: 'success',
        actorId: caller.account.id,
        actorUsername: caller.account.username,
        targetType: 'invoice',
        targetId: invoice.id,
        bucketId: invoice.requestBucketId ?? undefined,
        details: { orderIds: ids, amountFen: invoice.amountFen, currency: invoice.currency, expertBucketId: bucketId },
      });
      return invoice;
    });
    return presentInvoice(row, [...ids].sort());
  }

  /** POST payments/issue-invoice: once (InvoiceAlreadyIssued after), by issue_invoice in the expert organization. */
  async issue(caller: PayCaller, input: InvoiceIssue): Promise<Invoice> {
    const found = await store.invoiceById(this.db, input.invoiceId);
    if (!found) throw errors.notFound('Invoice');
    await requireIn(this.db, caller, found.bucketId, ['issue_invoice']);
    if (found.status === 'issued') throw refuse('InvoiceAlreadyIssued', 'The invoice was already issued', []);
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const issued = await store.issueInvoice(tx, found.id, {
        invoiceNo: input.invoiceNo,
        issuedBy: caller.account.id,
        issuedAt: now,
      });
      if (!issued) throw refuse('InvoiceAlreadyIssued', 'The invoice was already issued', []);
      await moveOrdersInvoice(tx, { invoiceId: found.id }, 'applied', 'issued', found.id, now);
      await writeAudit(tx, caller.ctx, {
        action: 'invoice.issued',
        outcome: 'success',
        actorId: caller.account.id,
        actorUsername: caller.account.username,
        targetType: 'invoice',
        targetId: found.id,
        bucketId: found.bucketId,
        details: { invoiceNo: input.invoiceNo, amountFen: issued.amountFen, currency: issued.currency },
      });
      return issued;
    });
    return presentInvoice(row, await store.orderIdsOfInvoice(this.db, row.id));
  }
}
