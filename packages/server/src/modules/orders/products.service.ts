import crypto from 'node:crypto';
import {
  type AddExpertBucket,
  type BillingSource,
  type ExpertBucket,
  type Product,
  type ProductInput,
  type ProductUpdate,
  productInputSchema,
  productUpdateSchema,
} from '@yyp/contracts';
import type { ProductRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { grantIn, groupsOf, requireIn, type OrdersCaller } from './orders.access.js';
import * as store from './products.store.js';

export function productOut(r: ProductRow): Product {
  return {
    id: r.id,
    bucketId: r.bucketId,
    type: r.type === 2 || r.type === 3 ? r.type : 1,
    name: r.name,
    description: r.description,
    modality: r.modality,
    priceFen: r.priceFen,
    currency: r.currency === 'USD' ? 'USD' : 'CNY',
    turnaroundMinutes: r.turnaroundMinutes,
    breachCreditBp: r.breachCreditBp,
    active: r.active,
    version: r.version,
  };
}

/**
 * What expert organizations sell (spec 001 §7 products) and which expert organizations a group
 * orders from (groups' expert-buckets, billing-sources, rads). Products are changed by the selling
 * organization's admins (bucket_manage); a group's expert organizations by its admins (route auth).
 */
export class ProductsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * GET products?type&bucketId: the active products of an organization the caller sees, or of an
   * expert organization one of the caller's groups orders from; its admins also see inactive ones.
   */
  async list(caller: OrdersCaller, bucketId: string, type: number): Promise<Product[]> {
    const grant = await grantIn(this.db, caller, bucketId);
    if (!grant && !(await store.isExpertOfAny(this.db, await groupsOf(this.db, caller), bucketId))) {
      throw errors.notFound('Organization');
    }
    const admin = grant?.actions.has('bucket_manage') ?? false;
    return (await store.productsOf(this.db, bucketId, type, !admin)).map(productOut);
  }

  async add(caller: OrdersCaller, input: ProductInput): Promise<Product> {
    const body = productInputSchema.parse(input);
    await requireIn(this.db, caller, body.bucketId, ['bucket_manage']);
    const now = this.clock.now();
    const row = await store.insertProduct(this.db, { id: crypto.randomUUID(), ...body, created: now, updated: now });
    await this.audit(caller, 'product.create', row);
    return productOut(row);
  }

  async update(caller: OrdersCaller, id: string, input: ProductUpdate): Promise<Product> {
    const { version, ...changes } = productUpdateSchema.parse(input);
    const before = await store.findProduct(this.db, id);
    if (!before) throw errors.notFound('Product');
    const row = await store.updateProduct(this.db, id, version, { ...changes, updated: this.clock.now() });
    if (!row) throw errors.conflict('The product was changed by someone else since this version');
    await this.audit(caller, 'product.update', row);
    return productOut(row);
  }

  /** Deletes a product; orders keep its name and price (their product id goes null). */
  async remove(caller: OrdersCaller, id: string): Promise<void> {
    const row = await store.findProduct(this.db, id);
    if (!row || !(await store.deleteProduct(this.db, id))) throw errors.notFound('Product');
    await this.audit(caller, 'product.delete', row);
  }

  private audit(caller: OrdersCaller, action: string, row: ProductRow) {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action,
        category: 'operation',
        targetType: 'product',
        targetId: row.id,
        bucketId: row.bucketId,
        details: { name: row.name, priceFen: row.priceFen, currency: row.currency },
      }),
    );
  }

  /* ---------- a group's expert organizations ---------- */

  async expertBuckets(groupId: string): Promise<ExpertBucket[]> {
    const [rows, def] = await Promise.all([
      store.expertBucketsOf(this.db, groupId),
      store.defaultExpertBucketOf(this.db, groupId),
    ]);
    return rows.map((r) => ({ ...r, isDefault: r.bucketId === def }));
  }

  /**
   * POST groups/{id}/expert-buckets: the group orders reads from this organization. Paid and unpaid
   * organizations cannot be mixed in one group's selection (spec 000 §5): ExpertSelectionInvalid.
   */
  async addExpertBucket(caller: OrdersCaller, groupId: string, body: AddExpertBucket): Promise<ExpertBucket[]> {
    const paid = body.paid ?? true;
    const bucket = await store.bucketBrief(this.db, body.bucketId);
    if (!bucket) throw errors.notFound('Organization');
    const others = (await store.expertBucketsOf(this.db, groupId)).filter((b) => b.bucketId !== body.bucketId);
    if (others.some((b) => b.paid !== paid)) {
      throw new AppError(
        'ExpertSelectionInvalid',
        'Paid and unpaid expert organizations cannot be mixed in one group',
        { paid },
      );
    }
    await store.addExpertBucket(this.db, groupId, body.bucketId, paid, this.clock.now());
    await this.groupAudit(caller, 'group.expert_bucket.add', groupId, { bucketId: body.bucketId, paid });
    return this.expertBuckets(groupId);
  }

  async removeExpertBucket(caller: OrdersCaller, groupId: string, bucketId: string): Promise<ExpertBucket[]> {
    if (!(await store.removeExpertBucket(this.db, groupId, bucketId))) throw errors.notFound('Expert organization');
    await this.groupAudit(caller, 'group.expert_bucket.remove', groupId, { bucketId });
    return this.expertBuckets(groupId);
  }

  /**
   * GET groups/{id}/billing-sources: the organizations that may bill the group, i.e. its paid expert
   * organizations (an order from an unpaid one never costs anything).
   */
  async billingSources(groupId: string): Promise<BillingSource[]> {
    return (await store.expertBucketsOf(this.db, groupId))
      .filter((b) => b.paid)
      .map((b) => ({ bucketId: b.bucketId, bucketName: b.bucketName }));
  }

  /** GET groups/{id}/rads: the group's expert (radiologist) organizations, paid or not, that its members may order reads from. */
  async rads(groupId: string): Promise<BillingSource[]> {
    return (await store.expertBucketsOf(this.db, groupId)).map((b) => ({
      bucketId: b.bucketId,
      bucketName: b.bucketName,
    }));
  }

  private groupAudit(caller: OrdersCaller, action: string, groupId: string, details: Record<string, unknown>) {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, { action, category: 'operation', targetType: 'group', targetId: groupId, details }),
    );
  }
}
