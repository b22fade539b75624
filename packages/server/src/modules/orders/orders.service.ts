import crypto from 'node:crypto';
import {
  ORDER_APPLY_ACTION,
  PRODUCT_TYPE,
  applyRequestSchema,
  cancelOrderSchema,
  type ApplyRequest,
  type Order,
  type OrderType,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { OrderRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { getDomainConfig } from '../domain/index.js';
import { examAge } from '../exams/index.js';
import { grantIn, requireIn, type OrdersCaller } from './orders.access.js';
import { orderOut, visibleToExperts } from './orders.presenter.js';
import { shareExam, unshareExam } from './orders-share.store.js';
import { queueTurnaroundCheck } from './turnaround.store.js';
import * as store from './orders.store.js';
import * as products from './products.store.js';

/** The action each kind of order needs in the requesting organization (spec 000 §6). */
export const APPLY_ACTION = ORDER_APPLY_ACTION;

/** The orders people apply for here (a consultation's fee is opened by its consultation). */
export type ReportOrderType = Exclude<OrderType, 'consultation'>;

/** A request number people can read out: date, then 8 random digits. */
export function newOrderNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `R${day}${String(crypto.randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

const selectionInvalid = (message: string, details?: unknown) =>
  new AppError('ExpertSelectionInvalid', message, details);

/**
 * Applying for remote and expert reads (spec 001 §7 request/apply, apply-remote-report,
 * remote-report, cancel-remote, request/{id} detail and delete; spec 000 §5 once per exam, the
 * expert selection rules; issue 24). An order that needs no payment (an unpaid expert organization,
 * or a price of 0) goes to the experts at once; a paid one when the payments module records it paid.
 */
export class OrdersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async apply(caller: OrdersCaller, type: ReportOrderType, input: ApplyRequest): Promise<Order> {
    const body = applyRequestSchema.parse(input);
    const exam = await store.examForApply(this.db, body.examId);
    if (!exam) throw errors.notFound('Exam');
    await requireIn(this.db, caller, exam.bucketId, [APPLY_ACTION[type]]);
    if (!body.applicantMobile && !body.applicantEmail) {
      throw selectionInvalid('At least one applicant contact (mobile or email) is needed', {
        field: 'applicantMobile',
      });
    }
    const { target, product, paid } = await this.selection(exam.groupId, exam.bucketId, type, body);
    if (paid && !(await getDomainConfig(this.db)).enablePaymentService) {
      throw new AppError(
        'PaymentServiceDisabled',
        'The payment service is off: paid expert organizations cannot be ordered from',
      );
    }
    if (await store.liveOrderOfExam(this.db, exam.id)) throw alreadyApplied();
    const now = this.clock.now();
    const order = await this.db.transaction(async (tx) => {
      const row = await store.insertOrder(tx, {
        id: crypto.randomUUID(),
        orderNo: newOrderNo(now),
        type,
        groupId: exam.groupId,
        requestBucketId: exam.bucketId,
        targetBucketId: target,
        examId: exam.id,
        productId: product?.id ?? null,
        productName: product?.name ?? '',
        priceFen: paid ? product!.priceFen : 0,
        currency: product?.currency ?? 'CNY',
        patientName: exam.patientName,
        patientGender: exam.patientGender,
        patientAge: examAge(exam.patientDob, exam.studyDate, now) ?? '',
        applicantId: caller.account.id,
        applicantMobile: body.applicantMobile,
        applicantEmail: body.applicantEmail,
        reason: body.reason,
        created: now,
        updated: now,
      });
      if (!row) throw alreadyApplied();
      if (!paid) {
        // No payment: the experts get it at once, and the turnaround runs from now.
        const targetExamId = await shareExam(tx, row, now);
        const deadlineAt =
          product?.turnaroundMinutes !== null && product?.turnaroundMinutes !== undefined
            ? new Date(now.getTime() + product.turnaroundMinutes * 60_000)
            : null;
        if (deadlineAt) await queueTurnaroundCheck(tx, row.id, deadlineAt, now);
        return store.updateOrder(tx, row.id, { targetExamId, deadlineAt });
      }
      return row;
    });
    await this.audit(caller, `order.apply_${type}`, order, { targetBucketId: target, priceFen: order.priceFen });
    return this.present(order, 'request');
  }

  /**
   * The expert organization and product of an application: the product's organization, else the
   * one named, else the group's defaultExpertBucketId; it must be one of the group's expert
   * organizations. A paid organization needs a product; an unpaid one's order costs nothing.
   */
  private async selection(
    groupId: string,
    requestBucketId: string,
    type: ReportOrderType,
    body: z.output<typeof applyRequestSchema>,
  ) {
    const product = body.productId ? await products.findProduct(this.db, body.productId) : undefined;
    if (body.productId && (!product || !product.active || product.type !== PRODUCT_TYPE[type])) {
      throw errors.notFound('Product');
    }
    if (product && body.targetBucketId && body.targetBucketId !== product.bucketId) {
      throw errors.validation('The product is not sold by targetBucketId', { field: 'targetBucketId' });
    }
    const target =
      product?.bucketId ?? body.targetBucketId ?? (await products.defaultExpertBucketOf(this.db, groupId)) ?? null;
    if (!target) throw selectionInvalid('No expert organization chosen and the group has no default one');
    if (target === requestBucketId) throw selectionInvalid('An organization cannot order a read from itself');
    const expert = await products.expertBucketOf(this.db, groupId, target);
    if (!expert) throw selectionInvalid("The organization is not one of the group's expert organizations", { target });
    const chosen = product ?? (await products.productsOf(this.db, target, PRODUCT_TYPE[type], true))[0];
    if (expert.paid && !chosen) throw selectionInvalid('The expert organization sells no such read');
    return { target, product: chosen, paid: expert.paid && (chosen?.priceFen ?? 0) > 0 };
  }

  /** GET request/remote-report?examId: the exam's live order, else its newest (cancelled) one, else null. */
  async remoteReport(caller: OrdersCaller, examId: string): Promise<{ order: Order | null }> {
    const exam = await store.examForApply(this.db, examId);
    if (!exam) throw errors.notFound('Exam');
    await requireIn(this.db, caller, exam.bucketId, ['exam_get']);
    const rows = await store.ordersOfExam(this.db, examId);
    const row = rows.find((r) => r.status !== 'cancelled') ?? rows[0];
    return { order: row ? await this.present(row, 'request') : null };
  }

  /**
   * POST request/{id}/cancel-remote: the requester takes the order back while it is `applied` (the
   * experts have not started) and nothing paid is left on it; the experts' copy of the exam goes.
   */
  async cancel(caller: OrdersCaller, id: string, input: z.input<typeof cancelOrderSchema>): Promise<Order> {
    const body = cancelOrderSchema.parse(input);
    const found = await this.requesterOrder(caller, id);
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const order = (await store.lockOrder(tx, id))!;
      if (body.version !== undefined && body.version !== order.version) {
        throw errors.conflict('The order was changed since this version');
      }
      if (order.type === 'consultation') {
        throw new AppError('OrderNotCancellable', "A consultation's fee is cancelled with its consultation", {
          consultationId: order.consultationId,
        });
      }
      if (order.status !== 'applied') {
        throw new AppError('OrderNotCancellable', 'Only an order the experts have not started can be cancelled', {
          status: order.status,
        });
      }
      if (order.paymentStatus === 1 || order.paymentStatus === 2 || order.paymentStatus === 4) {
        throw new AppError('OrderNotCancellable', 'A paid order is refunded before it is cancelled', {
          paymentStatus: order.paymentStatus,
        });
      }
      await unshareExam(tx, order);
      return store.updateOrder(tx, id, {
        status: 'cancelled',
        cancelledAt: now,
        cancelReason: body.reason,
        targetExamId: null,
        updated: now,
      });
    });
    await this.audit(caller, 'order.cancel', found, { reason: body.reason });
    return this.present(row, 'request');
  }

  /** GET request/{id}/detail: the order as the caller's side sees it (requester, or the experts once it reached them). */
  async detail(caller: OrdersCaller, id: string): Promise<Order> {
    const { row, side } = await this.visibleOrder(caller, id);
    await this.audit(
      caller,
      'order.read',
      row,
      {},
      'phi',
      side === 'request' ? row.requestBucketId : row.targetBucketId,
    );
    return this.present(row, side);
  }

  /** DELETE request/{id}/delete: a cancelled order that was never paid leaves the list. */
  async remove(caller: OrdersCaller, id: string): Promise<void> {
    const row = await this.requesterOrder(caller, id);
    if (row.status !== 'cancelled' || row.paidFen > 0 || row.paymentStatus !== 0) {
      throw errors.conflict('Only a cancelled order that was never paid can be deleted');
    }
    await store.deleteOrder(this.db, id);
    await this.audit(caller, 'order.delete', row, {});
  }

  /* ---------- helpers ---------- */

  /** The order of the caller's requesting organization, with the order's apply action there. */
  async requesterOrder(caller: OrdersCaller, id: string): Promise<OrderRow> {
    const row = await store.findOrder(this.db, id);
    if (!row) throw errors.notFound('Order');
    await requireIn(this.db, caller, row.requestBucketId, [APPLY_ACTION[row.type as OrderType]]);
    return row;
  }

  /**
   * The order and the side the caller sees it from: the requesting organization's members, or the
   * expert organization's once the order reached them; anyone else 404.
   */
  async visibleOrder(caller: OrdersCaller, id: string): Promise<{ row: OrderRow; side: 'request' | 'target' }> {
    const row = await store.findOrder(this.db, id);
    if (row) {
      if (await grantIn(this.db, caller, row.requestBucketId)) return { row, side: 'request' };
      if (visibleToExperts(row) && (await grantIn(this.db, caller, row.targetBucketId))) return { row, side: 'target' };
    }
    throw errors.notFound('Order');
  }

  async present(row: OrderRow, side: 'request' | 'target'): Promise<Order> {
    return orderOut(row, await store.bucketNames(this.db, [row.requestBucketId, row.targetBucketId]), side);
  }

  private audit(
    caller: OrdersCaller,
    action: string,
    row: OrderRow,
    details: Record<string, unknown>,
    category: 'operation' | 'phi' = 'phi',
    bucketId = row.requestBucketId,
  ) {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action,
        category,
        targetType: 'order',
        targetId: row.id,
        bucketId,
        details: { orderNo: row.orderNo, examId: row.examId, ...details },
      }),
    );
  }
}

const alreadyApplied = () =>
  new AppError('AlreadyApplied', 'A remote or expert report was already applied for this exam');
