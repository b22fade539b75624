import {
  EARNINGS_READER_ACTIONS,
  earningsExportQuerySchema,
  earningsInstants,
  earningsPageQuerySchema,
  ledgerAccount,
  MAX_EARNINGS_EXPORT,
  type Currency,
  type EarningsMonth,
  type EarningsOrder,
  type EarningsPage,
  type EarningsPageQuery,
  type EarningsSums,
} from '@yyp/contracts';
import type { z } from 'zod';
import { writeAudit } from '../../platform/audit.js';
import type { BucketAction } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { accountMonthSums, type AccountMonthSum } from '../ledger/index.js';
import { earningsWorkbook } from './earnings-export.js';
import { orderLabels } from './earnings.store.js';
import { requireIn, type PayCaller } from './payments.access.js';

/** Who reads an expert organization's earnings: its refunders, its invoice issuers, its admins. */
export const EARNINGS_READERS: readonly BucketAction[] = EARNINGS_READER_ACTIONS;

type Sums = Omit<EarningsSums, 'orders'> & { orders: Set<string> };
const empty = (currency: Currency): Sums => ({
  currency,
  orders: new Set(),
  grossFen: 0,
  refundsFen: 0,
  creditsFen: 0,
  netFen: 0,
});

/** Adds a sum of the revenue account (credit negative) to the figures: payments earn, refunds and credits cost. */
function add(s: Pick<Sums, 'grossFen' | 'refundsFen' | 'creditsFen' | 'netFen'>, r: AccountMonthSum): void {
  if (r.kind === 'payment') s.grossFen -= r.sumFen;
  else if (r.kind === 'refund') s.refundsFen += r.sumFen;
  else if (r.kind === 'sla_credit') s.creditsFen += r.sumFen;
  s.netFen -= r.sumFen;
}

const finish = (s: Sums): EarningsSums => ({ ...s, orders: s.orders.size });

/** The statement of a range from the revenue account's sums: months, totals per currency, order lines. */
export function summarize(rows: AccountMonthSum[]) {
  const months = new Map<string, Sums>();
  const totals = new Map<Currency, Sums>();
  const lines = new Map<string, Omit<EarningsOrder, 'orderNo' | 'productName' | 'requestBucketName'>>();
  for (const r of rows) {
    const m = months.get(`${r.month} ${r.currency}`) ?? empty(r.currency);
    months.set(`${r.month} ${r.currency}`, m);
    const t = totals.get(r.currency) ?? empty(r.currency);
    totals.set(r.currency, t);
    add(m, r);
    add(t, r);
    if (!r.orderId) continue;
    if (r.kind === 'payment') {
      m.orders.add(r.orderId);
      t.orders.add(r.orderId);
    }
    const key = `${r.orderId} ${r.currency}`;
    const line = lines.get(key) ?? {
      orderId: r.orderId,
      currency: r.currency,
      postedAt: r.first.toISOString(),
      grossFen: 0,
      refundsFen: 0,
      creditsFen: 0,
      netFen: 0,
    };
    if (r.first.toISOString() < line.postedAt) line.postedAt = r.first.toISOString();
    add(line, r);
    lines.set(key, line);
  }
  return {
    months: [...months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, s]): EarningsMonth => ({ month: key.slice(0, 7), ...finish(s) })),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)).map(finish),
    lines: [...lines.values()].sort(
      (a, b) => b.postedAt.localeCompare(a.postedAt) || b.orderId.localeCompare(a.orderId),
    ),
  };
}

/** earnings/page-query and export-excel: an expert organization's earnings, summed from its ledger account. */
export class EarningsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async page(caller: PayCaller, bucketId: string, input: EarningsPageQuery): Promise<EarningsPage> {
    await requireIn(this.db, caller, bucketId, EARNINGS_READERS);
    const q = earningsPageQuerySchema.parse(input);
    const s = await this.statement(bucketId, q.from, q.to);
    const data = await this.label(s.lines.slice(q.skip, q.skip + q.limit));
    return { bucketId, from: q.from, to: q.to, months: s.months, totals: s.totals, data, count: s.lines.length };
  }

  async exportExcel(
    caller: PayCaller,
    query: z.input<typeof earningsExportQuerySchema>,
  ): Promise<{ body: Buffer; filename: string; count: number }> {
    const q = earningsExportQuerySchema.parse(query);
    await requireIn(this.db, caller, q.bucketId, EARNINGS_READERS);
    const s = await this.statement(q.bucketId, q.from, q.to);
    if (s.lines.length > MAX_EARNINGS_EXPORT) {
      throw new AppError('ExportLimitExceeded', `At most ${MAX_EARNINGS_EXPORT} orders can be exported`, {
        count: s.lines.length,
        limit: MAX_EARNINGS_EXPORT,
      });
    }
    const lines = await this.label(s.lines);
    const now = this.clock.now();
    const body = await earningsWorkbook(s.months, lines, q.language, now);
    await writeAudit(this.db, caller.ctx, {
      action: 'earnings.exported',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      bucketId: q.bucketId,
      details: { from: q.from, to: q.to, count: lines.length },
    });
    return { body, filename: `earnings-${q.from}-${q.to}.xlsx`, count: lines.length };
  }

  private async statement(bucketId: string, from: string, to: string) {
    const range = earningsInstants(from, to);
    return summarize(await accountMonthSums(this.db, { account: ledgerAccount.revenue(bucketId), ...range }));
  }

  private async label(lines: ReturnType<typeof summarize>['lines']): Promise<EarningsOrder[]> {
    const labels = new Map(
      (await orderLabels(this.db, [...new Set(lines.map((l) => l.orderId))])).map((o) => [o.id, o]),
    );
    return lines.map((l) => {
      const o = labels.get(l.orderId);
      return {
        ...l,
        orderNo: o?.orderNo ?? '',
        productName: o?.productName ?? '',
        requestBucketName: o?.requestBucketName ?? '',
      };
    });
  }
}
