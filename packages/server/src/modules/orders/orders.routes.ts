import { orderCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { sendXlsx } from '../../platform/xlsx.js';
import type { ApplyFormsService } from './apply-forms.service.js';
import { ownerOfOrder, ownerOfProduct } from './orders.owners.js';
import type { OrdersListService } from './orders-list.service.js';
import type { OrdersService } from './orders.service.js';
import type { ProductsService } from './products.service.js';

export interface OrdersServices {
  products: ProductsService;
  orders: OrdersService;
  lists: OrdersListService;
  applyForms: ApplyFormsService;
}

/**
 * The orders calls (contracts order-calls.ts). A call naming its organization in the body, or seen
 * from either side of an order (the requester or the experts), is 'account' and its service checks
 * the caller there; the others name their owner here.
 */
export function ordersRoutes(app: FastifyInstance, db: Db, s: OrdersServices): void {
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  const group = ({ params }: RawInput) => params.groupId;
  const orderOwner = ownerFrom('id', ownerOfOrder, db);

  defineCallRoute(app, orderCalls.products, {
    summary: "An organization's products of a type (its own, or an expert organization the caller's group orders from)",
    auth: 'account',
    handler: (input) => s.products.list(caller(input), input.query.bucketId, input.query.type),
  });
  defineCallRoute(app, orderCalls.addProduct, {
    summary: 'Add a product (bucket_manage in the selling organization)',
    auth: 'account',
    handler: (input) => s.products.add(caller(input), input.body),
  });
  defineCallRoute(app, orderCalls.updateProduct, {
    summary: 'Change a product (version-checked)',
    auth: { action: 'bucket_manage', owner: ownerFrom('id', ownerOfProduct, db) },
    handler: (input) => s.products.update(caller(input), input.params.id, input.body),
  });
  defineCallRoute(app, orderCalls.deleteProduct, {
    summary: 'Delete a product (orders keep its name and price)',
    auth: { action: 'bucket_manage', owner: ownerFrom('id', ownerOfProduct, db) },
    handler: (input) => s.products.remove(caller(input), input.params.id),
  });

  defineCallRoute(app, orderCalls.expertBuckets, {
    summary: "The group's expert organizations (paid or not, and its default)",
    auth: { power: 'group_read', group },
    handler: ({ params }) => s.products.expertBuckets(params.groupId),
  });
  defineCallRoute(app, orderCalls.addExpertBucket, {
    summary: 'Add an expert organization to the group (paid and unpaid cannot be mixed)',
    auth: { power: 'group_manage', group },
    handler: (input) => s.products.addExpertBucket(caller(input), input.params.groupId, input.body),
  });
  defineCallRoute(app, orderCalls.deleteExpertBucket, {
    summary: 'Remove an expert organization from the group',
    auth: { power: 'group_manage', group },
    handler: (input) => s.products.removeExpertBucket(caller(input), input.params.groupId, input.params.bucketId),
  });
  defineCallRoute(app, orderCalls.billingSources, {
    summary: 'The organizations that may bill the group (its paid expert organizations)',
    auth: { power: 'group_read', group },
    handler: ({ params }) => s.products.billingSources(params.groupId),
  });
  defineCallRoute(app, orderCalls.rads, {
    summary: "The group's expert (radiologist) organizations its members may order reads from",
    auth: { power: 'group_read', group },
    handler: ({ params }) => s.products.rads(params.groupId),
  });

  defineCallRoute(app, orderCalls.apply, {
    summary: 'Apply for an expert report of an exam (apply_expert_report; once per exam)',
    auth: 'account',
    handler: (input) => s.orders.apply(caller(input), 'expert', input.body),
  });
  defineCallRoute(app, orderCalls.applyRemote, {
    summary: 'Apply for a remote report of an exam (apply_remote_report; once per exam)',
    auth: 'account',
    handler: (input) => s.orders.apply(caller(input), 'remote', input.body),
  });
  defineCallRoute(app, orderCalls.remoteReport, {
    summary: "The exam's remote or expert read order (its live one, else its newest), or null (exam_get there)",
    auth: 'account',
    handler: (input) => s.orders.remoteReport(caller(input), input.query.examId),
  });
  defineCallRoute(app, orderCalls.cancelRemote, {
    summary: 'Cancel an order the experts have not started (the apply action of its kind)',
    auth: { action: 'bucket_read', owner: orderOwner },
    handler: (input) => s.orders.cancel(caller(input), input.params.id, input.body),
  });
  defineCallRoute(app, orderCalls.requestDetail, {
    summary: 'An order, as the requester or (once it reached them) the experts see it',
    auth: 'account',
    handler: (input) => s.orders.detail(caller(input), input.params.id),
  });
  defineCallRoute(app, orderCalls.deleteRequest, {
    summary: 'Delete a cancelled order that was never paid',
    auth: { action: 'bucket_read', owner: orderOwner },
    handler: (input) => s.orders.remove(caller(input), input.params.id),
  });

  defineCallRoute(app, orderCalls.pageQuery, {
    summary:
      "A page of an organization's orders (exam_get there): those it applied for (requestBucketId) or received (targetBucketId)",
    auth: 'account',
    handler: (input) => s.lists.page(caller(input), input.query, input.body),
  });
  defineCallRoute(app, orderCalls.exportExcel, {
    summary: "An organization's order list (either side) with the list's filters as .xlsx (at most 1,000)",
    auth: 'account',
    handler: async (input) => sendXlsx(input.reply, await s.lists.exportExcel(caller(input), input.query, input.body)),
  });
  defineCallRoute(app, orderCalls.detail, {
    summary: 'An order with its ledger lines, by the exam, report or order id (either side)',
    auth: 'account',
    handler: (input) => s.lists.detail(caller(input), input.query),
  });

  defineCallRoute(app, orderCalls.uploadApplyForms, {
    summary: 'Record on the order an apply form the caller uploaded with GET policies/forms (image or PDF)',
    auth: { action: 'upload_apply_forms', owner: orderOwner },
    handler: (input) => s.applyForms.upload(caller(input), input.params.id, input.body),
  });
  defineCallRoute(app, orderCalls.deleteApplyForms, {
    summary: 'Delete apply forms of the order (upload_apply_forms in its requesting organization)',
    auth: { action: 'upload_apply_forms', owner: orderOwner },
    handler: (input) => s.applyForms.remove(caller(input), input.params.id, input.body.ids),
  });
  defineCallRoute(app, orderCalls.applyForms, {
    summary: "The order's apply forms with 10-minute links (either side of the order)",
    auth: 'account',
    handler: (input) => s.applyForms.list(caller(input), input.params.id),
  });
  definePublicCallRoute(app, orderCalls.uploadApplyFormsByCode, {
    summary:
      "Record an apply form uploaded through the exam's form code on its live order (public: the code is the credential)",
    handler: ({ body, request }) => s.applyForms.uploadByCode(body, auditContext(request)),
  });
}
