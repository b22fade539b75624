import crypto from 'node:crypto';
import {
  MAX_FILES_PER_UPLOAD_CODE,
  type ApplyForm,
  type ApplyFormUpload,
  type UploadByCodeRequest,
} from '@yyp/contracts';
import type { OrderApplyFormRow, OrderRow } from '../../db/schema.js';
import { actorAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { PoliciesService } from '../policies/index.js';
import { codeError, codeOwner, codeProblem, findCodeByHash, hashCode, lockCode } from '../upload-codes/index.js';
import * as store from './apply-forms.store.js';
import type { OrdersCaller } from './orders.access.js';
import type { OrdersService } from './orders.service.js';
import * as orders from './orders.store.js';

/** Apply forms per order (spec 000 §3): at most this many. */
export const MAX_APPLY_FORMS = 20;
const DOWNLOAD_WINDOW_SECONDS = 600;

/**
 * An order's apply forms (spec 001 §7 orders/{id}/upload-applyforms, applyforms/delete,
 * upload-applyforms-by-code, orders/{id}/applyforms; spec 000 §6 upload_apply_forms): images or
 * PDFs of the referral, uploaded first with GET policies/forms (or, by the exam's form code, by
 * anyone holding it), then recorded on the order. Both sides of the order read them.
 */
export class ApplyFormsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
    private readonly orders: OrdersService,
  ) {}

  /** The route authorized upload_apply_forms in the order's requesting organization. */
  async upload(caller: OrdersCaller, orderId: string, input: ApplyFormUpload): Promise<ApplyForm[]> {
    const order = await this.openOrder(orderId);
    const upload = await this.policies.assertOwnedUpload(caller.account.id, 'forms', input.key);
    await this.record(order, upload, input.name, caller.account.id, caller.ctx, caller);
    return this.list(caller, orderId);
  }

  /** By the exam's form code (public): the file goes on the exam's live order. */
  async uploadByCode(input: UploadByCodeRequest, ctx: AuditContext): Promise<ApplyForm> {
    const row = await findCodeByHash(this.db, hashCode(input.code));
    const problem = codeProblem(row, ['form'], this.clock.now());
    if (problem) throw codeError(problem);
    const live = row!.examId ? await orders.liveOrderOfExam(this.db, row!.examId) : undefined;
    if (!live || live.requestBucketId !== row!.bucketId) throw codeError('invalid');
    const upload = await this.policies.assertOwnedUpload(codeOwner(row!.id), 'forms', input.key);
    const form = await this.db.transaction(async (tx) => {
      // One upload through a code at a time, so its count holds under concurrent sends.
      await lockCode(tx, row!.id);
      return this.record(live, upload, input.fileName, null, ctx, null, tx, row!.id);
    });
    return present(form, null);
  }

  async list(caller: OrdersCaller, orderId: string): Promise<ApplyForm[]> {
    await this.orders.visibleOrder(caller, orderId);
    const rows = await store.applyFormsOf(this.db, orderId);
    return Promise.all(rows.map(async (r) => present(r, await this.url(r))));
  }

  async remove(caller: OrdersCaller, orderId: string, ids: string[]): Promise<ApplyForm[]> {
    const order = await this.openOrder(orderId);
    const gone = await store.deleteApplyForms(this.db, orderId, ids);
    // Each form's file was uploaded for it alone: it goes with its row.
    for (const form of gone) await this.policies.discard(form.blobKey).catch(() => undefined);
    if (gone.length > 0) {
      await writeAudit(
        this.db,
        caller.ctx,
        actorAudit(caller.account, {
          action: 'order.applyforms_delete',
          category: 'phi',
          targetType: 'order',
          targetId: order.id,
          bucketId: order.requestBucketId,
          details: { ids: gone.map((g) => g.id) },
        }),
      );
    }
    return this.list(caller, orderId);
  }

  private async openOrder(orderId: string): Promise<OrderRow> {
    const order = await orders.findOrder(this.db, orderId);
    if (!order) throw errors.notFound('Order');
    if (order.status === 'cancelled') throw errors.conflict('The order is cancelled');
    return order;
  }

  /** Records the upload once (the same key again answers the same form; a key used elsewhere is refused). */
  private async record(
    order: OrderRow,
    upload: { key: string; size: number; contentType: string },
    fileName: string,
    accountId: string | null,
    ctx: AuditContext,
    caller: OrdersCaller | null,
    db: Db = this.db,
    codeId?: string,
  ): Promise<OrderApplyFormRow> {
    const existing = await store.applyFormByKey(db, upload.key);
    if (existing) {
      if (existing.orderId !== order.id) {
        throw new AppError('ValidationError', 'This upload is already recorded elsewhere', { field: 'key' });
      }
      return existing;
    }
    const count = await store.countApplyForms(db, order.id);
    if (count >= (codeId ? MAX_FILES_PER_UPLOAD_CODE : MAX_APPLY_FORMS)) {
      throw errors.validation('The order has as many apply forms as it may', { max: MAX_APPLY_FORMS });
    }
    const row = await store.insertApplyForm(db, {
      id: crypto.randomUUID(),
      orderId: order.id,
      blobKey: upload.key,
      fileName: safeName(fileName),
      contentType: upload.contentType,
      size: upload.size,
      createdBy: accountId,
      created: this.clock.now(),
    });
    const entry = {
      action: 'order.applyforms_upload',
      category: 'phi' as const,
      targetType: 'order',
      targetId: order.id,
      bucketId: order.requestBucketId,
      details: { formId: row.id, fileName: row.fileName, size: row.size, via: codeId ? 'code' : 'account' },
    };
    await writeAudit(db, ctx, caller ? actorAudit(caller.account, entry) : { ...entry, outcome: 'success' });
    return row;
  }

  private url(r: OrderApplyFormRow): Promise<string | null> {
    return this.policies.readUrl(r.blobKey, { windowSeconds: DOWNLOAD_WINDOW_SECONDS, fileName: r.fileName });
  }
}

/** No control characters or path separators in a stored file name. */
function safeName(name: string): string {
  const kept = [...name].map((c) =>
    c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '/' || c === '\\' ? '_' : c,
  );
  return kept.join('').trim().slice(0, 255) || 'file';
}

function present(r: OrderApplyFormRow, url: string | null): ApplyForm {
  return {
    id: r.id,
    orderId: r.orderId,
    fileName: r.fileName,
    contentType: r.contentType,
    size: r.size,
    created: r.created.toISOString(),
    url,
  };
}
