import { index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { groups } from './schema-tenancy.js';

/* ---------- hospital-system entries (issue 27) and platform settings ---------- */

/**
 * The nonces of the signed entries (/ss-login, /go: contracts entry.ts) a group's hospital system
 * has used, kept until the entry would have expired anyway. The primary key makes a replay lose:
 * of two requests with one nonce, one inserts and the other finds the row.
 */
export const entryNonces = pgTable(
  'entry_nonces',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    usedAt: ts('used_at').notNull(),
    /** after this the entry's timestamp is out of the window: the row can go */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.nonce] }), index('entry_nonces_expires_idx').on(t.expiresAt)],
);

/** Platform-level settings by key (spec 000 §6 "global config (key)"; catalogue in contracts global-config.ts). */
export const globalConfigs = pgTable('global_configs', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedBy: text('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
