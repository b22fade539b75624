import {
  DEFAULT_ORDER_TEMPLATE_FIELDS,
  ORDER_TEMPLATE_FIELDS,
  ORDER_TEMPLATE_HEADER_LINE_MAX,
  type OrderTemplate,
  type OrderTemplateField,
  type OrderTemplateInput,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import * as store from './registry-print.store.js';

/**
 * The header a referral form prints until the admin saves a template: the hospital (the group)
 * and the organization, one line when one name holds the other.
 */
export function defaultHeaderLines(groupName: string, bucketName: string): string[] {
  const group = groupName.trim();
  const org = bucketName.trim();
  const lines = !group || org.includes(group) ? [org] : !org || group.includes(org) ? [group] : [group, org];
  return lines.filter(Boolean).map((l) => l.slice(0, ORDER_TEMPLATE_HEADER_LINE_MAX));
}

const known = new Set<string>(ORDER_TEMPLATE_FIELDS);

/**
 * The organization's referral form template (spec 001 §7 "Buckets … order-template"): the one its
 * admin saved, else the default every organization prints with (its names as header, the
 * standard title, the usual fields). Kept in the organization's settings, not a table of its own.
 */
export async function effectiveOrderTemplate(db: Db, bucketId: string): Promise<OrderTemplate> {
  const org = await store.organizationForPrint(db, bucketId);
  if (!org) throw errors.notFound('Organization');
  const saved = org.template;
  if (!saved) {
    return {
      bucketId,
      title: '',
      headerLines: defaultHeaderLines(org.groupName, org.name),
      fields: [...DEFAULT_ORDER_TEMPLATE_FIELDS],
      footerNote: '',
      isDefault: true,
      updatedAt: null,
      updatedBy: null,
    };
  }
  return {
    bucketId,
    title: saved.title,
    headerLines: saved.headerLines,
    fields: saved.fields.filter((f): f is OrderTemplateField => known.has(f)),
    footerNote: saved.footerNote,
    isDefault: false,
    updatedAt: saved.updatedAt,
    updatedBy: saved.updatedBy,
  };
}

/** PUT buckets/{id}/order-template: the route checked bucket_manage; the change is audited. */
export async function saveOrderTemplate(
  db: Db,
  clock: Clock,
  caller: { account: AccountRow; ctx: AuditContext },
  bucketId: string,
  input: Required<OrderTemplateInput>,
): Promise<OrderTemplate> {
  const template: store.StoredOrderTemplate = {
    title: input.title,
    headerLines: input.headerLines.filter((l) => l !== ''),
    fields: ORDER_TEMPLATE_FIELDS.filter((f) => input.fields.includes(f)),
    footerNote: input.footerNote,
    updatedAt: clock.now().toISOString(),
    updatedBy: caller.account.name || caller.account.username,
  };
  await store.saveOrderTemplate(db, bucketId, template);
  await writeAudit(db, caller.ctx, {
    action: 'order_template.update',
    category: 'operation',
    outcome: 'success',
    actorId: caller.account.id,
    actorUsername: caller.account.username,
    targetType: 'bucket',
    targetId: bucketId,
    bucketId,
    details: { fields: template.fields.length, headerLines: template.headerLines.length },
  });
  return effectiveOrderTemplate(db, bucketId);
}
