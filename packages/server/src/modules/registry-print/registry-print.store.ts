import { eq, sql } from 'drizzle-orm';
import { buckets, groups } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The referral form template as kept in the organization's settings (buckets.settings.orderTemplate). */
export interface StoredOrderTemplate {
  title: string;
  headerLines: string[];
  fields: string[];
  footerNote: string;
  updatedAt: string;
  updatedBy: string;
}

/** The organization's and its group's names, and its saved referral form template if any. */
export async function organizationForPrint(
  db: Db,
  bucketId: string,
): Promise<{ name: string; groupName: string; template: StoredOrderTemplate | undefined } | undefined> {
  const rows = await db
    .select({ name: buckets.name, groupName: groups.displayName, settings: buckets.settings })
    .from(buckets)
    .innerJoin(groups, eq(groups.id, buckets.groupId))
    .where(eq(buckets.id, bucketId))
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  const template = (row.settings as { orderTemplate?: StoredOrderTemplate }).orderTemplate;
  return { name: row.name, groupName: row.groupName, template };
}

/**
 * Saves the template under settings.orderTemplate in one statement (jsonb_set), so the other
 * settings kept there (notifications and the like) stay as they are.
 */
export async function saveOrderTemplate(db: Db, bucketId: string, template: StoredOrderTemplate): Promise<void> {
  await db
    .update(buckets)
    .set({
      settings: sql`jsonb_set(coalesce(${buckets.settings}, '{}'::jsonb), '{orderTemplate}', ${JSON.stringify(template)}::jsonb, true)`,
    })
    .where(eq(buckets.id, bucketId));
}
