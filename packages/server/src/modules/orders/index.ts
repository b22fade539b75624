// The face of the orders module (remote and expert report orders, issue 24): what app.ts and other
// modules (payments above all) may use. Everything else in this folder is private to it.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { PoliciesService } from '../policies/index.js';
import type { ReportsService } from '../reports/index.js';
import { ApplyFormsService } from './apply-forms.service.js';
import { OrderReportsService } from './orders-reports.service.js';
import { OrdersListService } from './orders-list.service.js';
import type { OrdersServices } from './orders.routes.js';
import { OrdersService } from './orders.service.js';
import { ProductsService } from './products.service.js';
import { TurnaroundService } from './turnaround.service.js';

export {
  expertIsPaid,
  lockOrderRow,
  moveOrdersInvoice,
  orderForPayment,
  ownerOfOrder,
  recordOrderPaid,
  recordOrderRefund,
  statusAfterRefund,
  targetOfOrder,
  type OrderForPayment,
} from './orders-payment.store.js';
export { expertBucketsAmong, ownerOfProduct } from './products.store.js';
export {
  closeConsultationFee,
  consultationFees,
  consultationProductOf,
  openConsultationFee,
  type ConsultationForFee,
} from './consultation-fees.store.js';
export { ordersRoutes, type OrdersServices } from './orders.routes.js';
export { ApplyFormsService, OrderReportsService, OrdersListService, OrdersService, ProductsService, TurnaroundService };

/**
 * The orders services, wired in one call from app.ts: the reports module tells the orders of its
 * changes (an expert's report of a shared exam going back to the requester), and the turnaround
 * job looks for breached orders.
 */
export function ordersServices(deps: {
  db: Db;
  clock: Clock;
  reports: ReportsService;
  jobs: JobQueue;
  policies: PoliciesService;
  log?: FastifyBaseLogger;
}): OrdersServices & { reportsBack: OrderReportsService; turnaround: TurnaroundService } {
  const orders = new OrdersService(deps.db, deps.clock);
  const reportsBack = new OrderReportsService(deps.db, deps.clock, deps.log);
  deps.reports.hooks.onChanged(reportsBack.listener());
  deps.reports.hooks.readOnlyWhen((reportId, bucketId) => reportsBack.isPublishedBack(reportId, bucketId));
  deps.reports.hooks.originFrom((reportId, bucketId) => reportsBack.originOf(reportId, bucketId));
  const turnaround = new TurnaroundService(deps.db, deps.clock, deps.log);
  turnaround.schedule(deps.jobs);
  const applyForms = new ApplyFormsService(deps.db, deps.clock, deps.policies, orders);
  return {
    products: new ProductsService(deps.db, deps.clock),
    orders,
    lists: new OrdersListService(deps.db, orders, applyForms, deps.clock),
    applyForms,
    reportsBack,
    turnaround,
  };
}
