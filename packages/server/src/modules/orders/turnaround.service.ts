import { slaCreditFen, slaCreditPosting, type Currency } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { JobQueue } from '../../platform/jobs.js';
import { postTxn } from '../ledger/index.js';
import * as store from './orders.store.js';
import { jobPending, lockForBreach, markBreached } from './turnaround.store.js';

export const TURNAROUND_JOB = 'orders.turnaround';
/** How often breached orders are looked for. */
export const TURNAROUND_SWEEP_MS = 60_000;
const BATCH = 100;

/**
 * Turnaround promises (issue 24 "beyond the spec"): an order not reported by its deadline is
 * breached; the buyer's group balance is credited the product's share of what was paid (ledger kind
 * sla_credit, ref = the order id, so a retried sweep posts once), and the order records breached_at
 * and sla_credit_fen. A job of platform/jobs.ts sweeps every minute and queues its next run.
 */
export class TurnaroundService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Registers the sweep and queues its first run unless one is waiting. */
  schedule(jobs: JobQueue): void {
    jobs.register(TURNAROUND_JOB, {
      run: async () => {
        try {
          await this.sweep();
        } finally {
          await this.queueNext(jobs, true);
        }
      },
    });
    void this.queueNext(jobs, false).catch((err: unknown) =>
      this.log?.error({ err }, 'orders: turnaround job not queued'),
    );
  }

  private async queueNext(jobs: JobQueue, fromRun: boolean): Promise<void> {
    // A run is itself 'running': it queues the next one unless another is queued already.
    if (await jobPending(this.db, TURNAROUND_JOB, fromRun ? ['queued'] : ['queued', 'running'])) return;
    const runAfter = new Date(this.clock.now().getTime() + (fromRun ? TURNAROUND_SWEEP_MS : 0));
    await jobs.enqueue(this.db, TURNAROUND_JOB, { next: '1' }, 3, runAfter);
  }

  /** Marks every order breached by now; answers how many were. */
  async sweep(): Promise<number> {
    let count = 0;
    for (;;) {
      const due = await store.breachedOrders(this.db, this.clock.now(), BATCH);
      for (const order of due) if (await this.breach(order.id)) count++;
      if (due.length < BATCH) return count;
    }
  }

  /** One order's breach, in one transaction: the credit posted (idempotent) and the order marked. */
  async breach(orderId: string): Promise<boolean> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const found = await lockForBreach(tx, orderId);
      if (!found) return false;
      const { order, breachCreditBp } = found;
      if (order.breachedAt || order.reportedAt || order.status === 'cancelled') return false;
      if (!order.deadlineAt || order.deadlineAt > now) return false;
      const base = Math.max(0, Math.min(order.priceFen, order.paidFen - order.refundedFen));
      const creditFen = slaCreditFen(base, breachCreditBp);
      if (creditFen > 0) {
        const currency = (order.currency === 'USD' ? 'USD' : 'CNY') as Currency;
        await postTxn(tx, {
          kind: 'sla_credit',
          ref: order.id,
          groupId: order.groupId,
          orderId: order.id,
          memo: `turnaround breached: order ${order.orderNo}`,
          lines: slaCreditPosting({
            buyerGroupId: order.groupId,
            expertBucketId: order.targetBucketId,
            amountFen: creditFen,
            currency,
          }),
        });
      }
      return markBreached(tx, order.id, now, creditFen);
    });
  }
}
