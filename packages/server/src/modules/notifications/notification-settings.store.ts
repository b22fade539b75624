import { sql, eq } from 'drizzle-orm';
import { accountNotificationSettings } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The account's own notification settings, undefined when it never saved any (the defaults). */
export async function readNotificationSettings(db: Db, accountId: string) {
  const [row] = await db
    .select({ mutedKinds: accountNotificationSettings.mutedKinds, sound: accountNotificationSettings.sound })
    .from(accountNotificationSettings)
    .where(eq(accountNotificationSettings.accountId, accountId))
    .limit(1);
  return row;
}

export async function writeNotificationSettings(
  db: Db,
  accountId: string,
  settings: { mutedKinds: string[]; sound: boolean },
  now: Date,
): Promise<void> {
  await db
    .insert(accountNotificationSettings)
    .values({ accountId, ...settings, updatedAt: now })
    .onConflictDoUpdate({
      target: accountNotificationSettings.accountId,
      set: { mutedKinds: sql`excluded.muted_kinds`, sound: sql`excluded.sound`, updatedAt: now },
    });
}
