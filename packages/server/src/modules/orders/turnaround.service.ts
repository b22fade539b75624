import { slaCreditFen, slaCreditPosting, type Currency } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { JobQueue } from '../../platform/jobs.js';
import { postTxn } from '../ledger/index.js';
import * as store from './orders.store.js';
import { lockForBreach, markBreached, TURNAROUND_JOB } from './turnaround.store.js';

const BATCH = 100;

/**
 * Turnaround promises (issue 24 "beyond the spec"): an order not reported by its deadline is
 * breached; the buyer's group balance is credited the product's share of what was paid (ledger kind
 * sla_credit, ref = the order id, so a retried sweep posts once), and the order records breached_at
 * and sla_credit_fen. Each order with a deadline queues a job (platform/jobs.ts) for its deadline;
 * sweep() does every due order at once (tests, and a catch-up after downtime).
 */
export class TurnaroundService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Registers the check each paid (or free) order with a deadline queues for its deadline. */
  schedule(jobs: JobQueue): void {
    jobs.register(TURNAROUND_JOB, {
      run: async (job) => {
        const orderId = job.payload.orderId;
        if (typeof orderId === 'string') await this.breach(orderId);
      },
      onGiveUp: async (job, error) => {
        this.log?.error({ err: error, orderId: job.payload.orderId }, 'orders: turnaround check gave up');
      },
    });
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
