import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';

import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';

/* ---------- tenancy: groups, organizations (buckets), roles ---------- */

export const groups = pgTable(
  'groups',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    /** Feature flags and settings of spec 000 §3 (enableRegistry, enableStat, …, dobMatchMode, …). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** urgentNotes, enReportFlag, enReportNotes, hqReportWithImage, hqAIReport: { enabled, label }. */
    attributes: jsonb('attributes').$type<Record<string, { enabled: boolean; label: string }>>().notNull().default({}),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_display_name_lower_idx').on(sql`lower(${t.displayName})`)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 0 member, 1 admin, 9 auditor, 10 security admin (spec 000 §6). */
    accessLevel: smallint('access_level').notNull().default(0),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('group_members_pk').on(t.groupId, t.accountId),
    index('group_members_account_idx').on(t.accountId),
  ],
);

export const buckets = pgTable(
  'buckets',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 4–35 characters, letters/digits/dash/underscore, unique, fixed once set. */
    code: text('code'),
    logo: text('logo'),
    isPrivate: boolean('is_private').notNull().default(false),
    focused: boolean('focused').notNull().default(false),
    freeEfilm: boolean('free_efilm').notNull().default(false),
    /** Public upload token (spec 000 §2 /upload?token=): uploads into this organization only. */
    uploadToken: text('upload_token'),
    /** Notification settings, print templates and other per-organization settings. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Plan (spec 000 §3 Organization "plan", §5 "only a private bucket with remaining quota and
     * valid subscription can receive uploads"): kind period|oneTime, quota of studies (null:
     * unlimited), studies received so far, end of validity (null: open-ended). No kind: no plan.
     */
    planKind: text('plan_kind'),
    planQuota: integer('plan_quota'),
    planUsed: integer('plan_used').notNull().default(0),
    planExpiresAt: ts('plan_expires_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('buckets_group_idx').on(t.groupId), uniqueIndex('buckets_code_lower_idx').on(sql`lower(${t.code})`)],
);

export const bucketMembers = pgTable(
  'bucket_members',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** member, admin, collaborator, contentManager */
    accessLevel: text('access_level').notNull().default('member'),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bucket_members_pk').on(t.bucketId, t.accountId),
    index('bucket_members_account_idx').on(t.accountId),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    actions: jsonb('actions').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_bucket_name_idx').on(t.bucketId, sql`lower(${t.name})`)],
);

export const roleMappings = pgTable(
  'role_mappings',
  {
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('role_mappings_pk').on(t.roleId, t.accountId),
    index('role_mappings_account_idx').on(t.accountId),
  ],
);

/**
 * Per-organization dictionaries (departments, doctors, body parts, tags, critical values,
 * extension configs): one table, a kind column, the fields in data.
 */
export const bucketDictionary = pgTable(
  'bucket_dictionary',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    sort: integer('sort').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('bucket_dictionary_bucket_kind_idx').on(t.bucketId, t.kind, t.sort),
    uniqueIndex('bucket_dictionary_name_idx').on(t.bucketId, t.kind, sql`lower(${t.name})`),
  ],
);

export const assignRules = pgTable(
  'assign_rules',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    bucketIds: jsonb('bucket_ids').$type<string[]>().notNull().default([]),
    doctorId: text('doctor_id').references(() => accounts.id, { onDelete: 'set null' }),
    modality: text('modality'),
    memberIds: jsonb('member_ids').$type<string[]>().notNull().default([]),
    priority: integer('priority').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('assign_rules_group_idx').on(t.groupId, t.priority)],
);

export const colorRules = pgTable(
  'color_rules',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A lower number means higher priority. */
    priority: integer('priority').notNull().default(0),
    foreColor: text('fore_color').notNull(),
    backgroundColor: text('background_color').notNull(),
    matchField: text('match_field').notNull(),
    value: text('value').notNull(),
    index: integer('index').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('color_rules_group_idx').on(t.groupId, t.priority)],
);

export type GroupRow = typeof groups.$inferSelect;
export type BucketRow = typeof buckets.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
