import {
  ordersPageQuerySchema,
  type OrderDetail,
  type OrdersExport,
  type OrdersPage,
  type OrdersPageQuery,
} from '@yyp/contracts';
import type { OrderRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { XlsxFile } from '../../platform/xlsx.js';
import { exportOrders } from './orders-export.js';
import { orderFilterOf } from './orders-filter.js';
import { errors } from '../../platform/errors.js';
import { entriesForOrder } from '../ledger/index.js';
import { requireIn, type OrdersCaller } from './orders.access.js';
import { orderOut } from './orders.presenter.js';
import type { OrdersService } from './orders.service.js';
import type { ApplyFormsService } from './apply-forms.service.js';
import * as store from './orders.store.js';

/**
 * The order lists and detail (spec 001 §7 orders/page-query with requestBucketId, orders/detail;
 * the expert side's list of received orders with targetBucketId): the route authorizes the
 * organization named; the experts see only orders that reached them (paid or needing no payment).
 */
export class OrdersListService {
  constructor(
    private readonly db: Db,
    private readonly orders: OrdersService,
    private readonly applyForms: ApplyFormsService,
    private readonly clock: Clock,
  ) {}

  /** orders/export-excel: one side's list with its filters as .xlsx (orders-export.ts). */
  exportExcel(
    caller: OrdersCaller,
    side: { requestBucketId?: string; targetBucketId?: string },
    input: OrdersExport,
  ): Promise<XlsxFile> {
    return exportOrders(this.db, this.clock, caller, side, input);
  }

  async page(
    caller: OrdersCaller,
    side: { requestBucketId?: string; targetBucketId?: string },
    input: OrdersPageQuery,
  ): Promise<OrdersPage> {
    const q = ordersPageQuerySchema.parse(input);
    const which = side.requestBucketId ? 'request' : 'target';
    const bucketId = (side.requestBucketId ?? side.targetBucketId)!;
    await requireIn(this.db, caller, bucketId, ['exam_get']);
    const { rows, count } = await store.pageOrders(this.db, orderFilterOf(which, bucketId, q.filters), {
      limit: q.limit,
      skip: q.skip,
      sorts: q.sorts,
    });
    const names = await store.bucketNames(
      this.db,
      rows.flatMap((r) => [r.requestBucketId, r.targetBucketId]),
    );
    await writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action: 'order.list',
        category: 'phi',
        bucketId,
        details: { side: which, count: rows.length },
      }),
    );
    return { data: rows.map((r) => orderOut(r, names, which)), count };
  }

  /**
   * GET orders/detail?examId|reportId|orderId: an order with its ledger lines. examId and reportId
   * (a report's id is its exam's) name the requester's exam, or the experts' copy of it.
   */
  async detail(
    caller: OrdersCaller,
    q: { examId?: string; reportId?: string; orderId?: string },
  ): Promise<OrderDetail> {
    const row = await this.find(q);
    if (!row) throw errors.notFound('Order');
    const { side } = await this.orders.visibleOrder(caller, row.id);
    await writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action: 'order.read',
        category: 'phi',
        targetType: 'order',
        targetId: row.id,
        bucketId: side === 'request' ? row.requestBucketId : row.targetBucketId,
      }),
    );
    return {
      order: await this.orders.present(row, side),
      ledger: await entriesForOrder(this.db, row.id),
      applyForms: await this.applyForms.list(caller, row.id),
    };
  }

  private async find(q: { examId?: string; reportId?: string; orderId?: string }): Promise<OrderRow | undefined> {
    if (q.orderId) return store.findOrder(this.db, q.orderId);
    const examId = (q.examId ?? q.reportId)!;
    const mine = await store.ordersOfExam(this.db, examId);
    return mine.find((r) => r.status !== 'cancelled') ?? mine[0] ?? (await store.orderOfTargetExam(this.db, examId));
  }
}
