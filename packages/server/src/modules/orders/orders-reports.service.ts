import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { APPROVED_STATUSES, type ReportChange, type ReportOrigin } from '../reports/index.js';
import { notifyReportBack } from './orders-notify.store.js';
import { publishReportBack, reportRow } from './orders-share.store.js';
import * as store from './orders.store.js';

/** Changes that mean an expert started on the report (the order goes `reporting`). */
const STARTS = new Set<string>(['lock', 'save', 'submit', 'preliminaryIssue', 'advise']);

/**
 * Follows the experts' reports of shared exams (the reports module tells every change, wired in
 * app.ts): the first open or edit makes the order `reporting`; an approval publishes the approved
 * content back to the requester's exam as its report (marked as from the expert organization),
 * makes the order `reported` (reported_at) and notifies the applicant.
 */
export class OrderReportsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The reports listener: never fails the report's change, which has committed (failures are logged). */
  listener() {
    return async (change: ReportChange): Promise<void> => {
      try {
        await this.onReportChanged(change);
      } catch (err) {
        this.log?.error({ err, reportId: change.reportId }, 'orders: following a report change failed');
      }
    };
  }

  /**
   * Whether the report is an expert's approved report published back to the requesting
   * organization (read-only there: it is the experts' work, marked as theirs).
   */
  async isPublishedBack(reportId: string, bucketId: string): Promise<boolean> {
    const order = await store.liveOrderOfExam(this.db, reportId);
    return order !== undefined && order.requestBucketId === bucketId && order.reportedAt !== null;
  }

  /**
   * A remote read's organizations (spec 000 §3 Report sourceBucketId, originBucketId): on the
   * requester's published report and on the experts' report of their copy; null otherwise.
   */
  async originOf(reportId: string, bucketId: string): Promise<ReportOrigin | null> {
    const mine = await store.liveOrderOfExam(this.db, reportId);
    const order =
      mine && mine.requestBucketId === bucketId && mine.reportedAt !== null
        ? mine
        : await store.orderOfTargetExam(this.db, reportId);
    if (!order || (order !== mine && order.targetBucketId !== bucketId)) return null;
    return { sourceBucketId: order.targetBucketId, originBucketId: order.requestBucketId };
  }

  async onReportChanged(change: ReportChange): Promise<void> {
    const order = await store.orderOfTargetExam(this.db, change.reportId);
    if (!order || order.targetBucketId !== change.bucketId) return;
    const now = this.clock.now();
    if ((APPROVED_STATUSES as readonly string[]).includes(change.status)) {
      await this.db.transaction(async (tx) => {
        const locked = await store.lockOrder(tx, order.id);
        const approved = await reportRow(tx, change.reportId);
        if (!locked || locked.status === 'cancelled' || !approved) return;
        await publishReportBack(tx, locked, approved, now);
        await store.updateOrder(tx, order.id, {
          status: 'reported',
          reportId: change.reportId,
          reportedAt: locked.reportedAt ?? now,
          updated: now,
        });
        await notifyReportBack(tx, locked, now);
      });
      return;
    }
    if (order.status === 'applied' && STARTS.has(change.change)) {
      await this.db.transaction(async (tx) => {
        const locked = await store.lockOrder(tx, order.id);
        if (locked?.status !== 'applied') return;
        await store.updateOrder(tx, order.id, { status: 'reporting', reportId: change.reportId, updated: now });
      });
    }
  }
}
