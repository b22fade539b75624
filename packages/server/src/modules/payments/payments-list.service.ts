import {
  fenToYuanText,
  MAX_PAYMENTS_EXPORT,
  paymentsExportQuerySchema,
  paymentsPageQuerySchema,
  type PaymentItem,
  type PaymentsPage,
  type PaymentsPageQuery,
} from '@yyp/contracts';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { BucketAction } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { requireIn, type PayCaller } from './payments.access.js';
import { presentPaymentItem, type PaymentListRow } from './payments.presenter.js';
import { paymentsCount, paymentsPage, type PaymentScope } from './payments-list.store.js';
import { refundsOfPayments } from './refunds.store.js';
import { xlsxSheet, type XlsxColumn } from '../../platform/xlsx.js';

/** Who reads an organization's payments: its orderers (payer side), its refunders and issuers (expert side), its admins. */
const READERS: Record<PaymentScope['side'], BucketAction[]> = {
  payer: ['apply_expert_report', 'apply_remote_report', 'bucket_manage'],
  expert: ['payment_refund', 'issue_invoice', 'bucket_manage'],
};

const COLUMNS: XlsxColumn<PaymentItem>[] = [
  { header: { chs: '支付单号', en: 'Payment no.', tib: 'དངུལ་སྤྲོད་ཨང་།' }, width: 30, cell: (p) => p.paymentNo },
  { header: { chs: '申请单号', en: 'Order no.', tib: 'རེ་ཞུའི་ཨང་།' }, width: 24, cell: (p) => p.orderNo ?? '' },
  { header: { chs: '产品', en: 'Product', tib: 'ཐོན་རྫས།' }, width: 24, cell: (p) => p.productName },
  { header: { chs: '支付渠道', en: 'Channel', tib: 'དངུལ་སྤྲོད་ལམ།' }, width: 10, cell: (p) => p.channel },
  { header: { chs: '金额', en: 'Amount', tib: 'དངུལ་གྲངས།' }, width: 12, cell: (p) => fenToYuanText(p.amountFen) },
  { header: { chs: '币种', en: 'Currency', tib: 'དངུལ་རིགས།' }, width: 8, cell: (p) => p.currency },
  { header: { chs: '已退款', en: 'Refunded', tib: 'ཕྱིར་སློག་ཟིན།' }, width: 12, cell: (p) => fenToYuanText(p.refundedFen) },
  {
    header: { chs: '支付状态', en: 'Payment status', tib: 'དངུལ་སྤྲོད་གནས་སྟངས།' },
    width: 10,
    cell: (p) => String(p.paymentStatus),
  },
  {
    header: { chs: '交易号', en: 'Transaction id', tib: 'ཚོང་འབྲེལ་ཨང་།' },
    width: 32,
    cell: (p) => p.transactionId ?? '',
  },
  { header: { chs: '发票', en: 'Invoice', tib: 'ཐོ་ཤོག' }, width: 10, cell: (p) => p.invoiceStatus },
  {
    header: { chs: '创建时间', en: 'Created', tib: 'བཟོས་པའི་དུས།' },
    width: 20,
    cell: (p) => p.created.replace('T', ' ').slice(0, 19),
  },
  {
    header: { chs: '支付时间', en: 'Paid', tib: 'སྤྲོད་པའི་དུས།' },
    width: 20,
    cell: (p) => (p.paidAt ?? '').replace('T', ' ').slice(0, 19),
  },
];

/** payments/page-query and export-excel (spec 001 §7; export ≤ 1000, spec 000 §5). */
export class PaymentsListService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async page(caller: PayCaller, scope: PaymentScope, input: PaymentsPageQuery): Promise<PaymentsPage> {
    await requireIn(this.db, caller, scope.bucketId, READERS[scope.side]);
    const q = paymentsPageQuerySchema.parse(input);
    const [rows, n] = await Promise.all([paymentsPage(this.db, scope, q), paymentsCount(this.db, scope, q.filters)]);
    return { data: await this.items(rows), count: n };
  }

  async exportExcel(
    caller: PayCaller,
    query: z.input<typeof paymentsExportQuerySchema>,
  ): Promise<{ body: Buffer; filename: string; count: number }> {
    const q = paymentsExportQuerySchema.parse(query);
    const scope: PaymentScope = { bucketId: q.bucketId, side: q.side };
    await requireIn(this.db, caller, scope.bucketId, READERS[scope.side]);
    const filters = {
      ...(q.status ? { status: q.status } : {}),
      ...(q.channel ? { channel: q.channel } : {}),
      ...(q.from ? { from: q.from } : {}),
      ...(q.to ? { to: q.to } : {}),
      ...(q.no ? { no: q.no } : {}),
    };
    const n = await paymentsCount(this.db, scope, filters);
    if (n > MAX_PAYMENTS_EXPORT) {
      throw new AppError('ExportLimitExceeded', `At most ${MAX_PAYMENTS_EXPORT} payments can be exported`, {
        count: n,
        limit: MAX_PAYMENTS_EXPORT,
      });
    }
    const rows = await paymentsPage(this.db, scope, { filters, limit: MAX_PAYMENTS_EXPORT, skip: 0, sorts: [] });
    const items = await this.items(rows);
    const now = this.clock.now();
    const body = await xlsxSheet('payments', COLUMNS, items, q.language, now);
    await writeAudit(this.db, caller.ctx, {
      action: 'payments.exported',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      bucketId: scope.bucketId,
      details: { side: scope.side, count: items.length },
    });
    const day = now.toISOString().slice(0, 10).replace(/-/g, '');
    return { body, filename: `payments-${day}.xlsx`, count: items.length };
  }

  private async items(rows: PaymentListRow[]): Promise<PaymentItem[]> {
    const refunds = await refundsOfPayments(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      presentPaymentItem(
        r,
        refunds.filter((f) => f.paymentId === r.id),
      ),
    );
  }
}
