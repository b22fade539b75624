import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { DomainConfig, Preferences } from '@yyp/contracts';

import { ts } from './columns.js';

/** One row per domain; the config is stored whole and merged over the defaults when read. */
export const domains = pgTable('domains', {
  id: text('id').primaryKey(),
  config: jsonb('config').$type<Partial<DomainConfig>>().notNull().default({}),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Bumped on password change and on disable: tokens carry it and stop working when it moves. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Spec 000 §4: 0 normal, 1 disabled. */
    disabled: smallint('disabled').notNull().default(0),
    /** How the account signs in: password or wechat (WeChat users cannot change a password). */
    source: text('source').notNull().default('password'),
    avatar: text('avatar'),
    signature: text('signature'),
    mobile: text('mobile'),
    licenseIssuer: text('license_issuer'),
    professionalTitle: text('professional_title'),
    canCreateGroup: boolean('can_create_group').notNull().default(false),
    registry: boolean('registry').notNull().default(false),
    domainName: jsonb('domain_name').$type<Record<string, string>>().notNull().default({}),
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    preferences: jsonb('preferences').$type<Preferences>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_username_lower_idx').on(sql`lower(${t.username})`),
    index('accounts_name_idx').on(t.name),
  ],
);

/**
 * Failed logins per (lower-cased) username and client address, whether or not the account exists,
 * so a lockout holds across restarts and instances and reveals nothing about existence. The row
 * of address '*' counts the name's failures from every address together; an address row with
 * last_success_at is an address the account signed in from (a known address).
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    username: text('username').notNull(),
    address: text('address').notNull().default('*'),
    failures: integer('failures').notNull().default(0),
    lockedUntil: ts('locked_until'),
    lastFailureAt: ts('last_failure_at'),
    lastSuccessAt: ts('last_success_at'),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] })],
);

/**
 * Server-side sessions: one row per issued token (keyed by its jti). Logout revokes the row;
 * last_seen_at (written at most once a minute) measures inactivity.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_account_idx').on(t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Fixed-window request counters of the rate limits (key: rule, window and client). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: ts('window_start').notNull(),
    hits: integer('hits').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    actorId: text('actor_id'),
    actorUsername: text('actor_username'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    bucketId: text('bucket_id'),
    patientId: text('patient_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    outcome: text('outcome').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_logs_at_idx').on(t.at),
    index('audit_logs_actor_idx').on(t.actorId, t.at),
    // The refused-associations log (admin dicom-refusals.store) reads these rows alone, newest
    // first, among all the PHI rows DICOMweb writes.
    index('audit_logs_dicom_refused_idx')
      .on(t.at.desc())
      .where(sql`${t.action} = 'dicom.association.refused'`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * SMS verification codes (issue 27): one live code per account and purpose (a new one replaces
 * it), stored as a hash; six digits, five minutes, five tries. `mobile` is where it was sent:
 * binding takes exactly that number.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    mobile: text('mobile').notNull(),
    codeHash: text('code_hash').notNull(),
    tries: integer('tries').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('verification_codes_account_purpose_idx').on(t.accountId, t.purpose),
    index('verification_codes_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The platform's own SMS account (PUT admin/sms), in place of the server environment's (YYP_SMS):
 * at most one row, id 'platform'. mode 'off' sends no codes; 'aliyun' sends them through the
 * account below, its AccessKey secret sealed (platform/sealed.ts, purpose 'sms-access-key').
 * No row: the environment's service.
 */
export const smsAccounts = pgTable('sms_accounts', {
  id: text('id').primaryKey(),
  mode: text('mode').$type<'off' | 'aliyun'>().notNull(),
  endpoint: text('endpoint'),
  region: text('region'),
  signName: text('sign_name'),
  templateResetPassword: text('template_reset_password'),
  templateBindMobile: text('template_bind_mobile'),
  accessKeyId: text('access_key_id'),
  accessKeySecretSealed: text('access_key_secret_sealed'),
  updatedAt: ts('updated_at').notNull(),
  updatedBy: text('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
});
export type SmsAccountRow = typeof smsAccounts.$inferSelect;
