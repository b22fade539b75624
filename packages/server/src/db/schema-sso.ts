import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { groups } from './schema-tenancy.js';

/**
 * OpenID Connect single sign-on (issue 27, docs/sso.md): at most one provider per group, configured
 * by the group's admins. The client secret is kept sealed (platform/sealed.ts, purpose 'sso-client-secret').
 */
export const ssoProviders = pgTable('sso_providers', {
  groupId: text('group_id')
    .primaryKey()
    .references(() => groups.id, { onDelete: 'cascade' }),
  /** what the login page's button says: "Sign in with <label>" */
  label: text('label').notNull(),
  /** the issuer identifier (https; http only on loopback); its discovery document is read from it */
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  /** space-separated, always including openid */
  scopes: text('scopes').notNull().default('openid profile'),
  usernameClaim: text('username_claim').notNull().default('preferred_username'),
  nameClaim: text('name_claim').notNull().default('name'),
  /** empty: the mobile number is not taken from the provider */
  mobileClaim: text('mobile_claim').notNull().default(''),
  /** a first login of an unknown identity creates an account in the group */
  allowCreate: boolean('allow_create').notNull().default(false),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** An identity at a group's provider linked to an account, valid only inside that group. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.issuer, t.subject] }),
    index('sso_identities_account_idx').on(t.accountId),
    // one identity per account and group: a link made from the account's settings cannot add a second
    uniqueIndex('sso_identities_group_account_idx').on(t.groupId, t.accountId),
  ],
);

/**
 * A started sign-in: keyed by the SHA-256 of its state, single use (deleted when the callback
 * comes back), ten minutes at most. Holds the PKCE verifier and the nonce the id token must carry.
 */
export const ssoAttempts = pgTable(
  'sso_attempts',
  {
    stateHash: text('state_hash').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** a site path to go to after signing in */
    redirect: text('redirect'),
    /** set when a signed-in account started it to link its identity at the provider (POST accounts/me/sso/{groupId}/link) */
    linkAccountId: text('link_account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('sso_attempts_created_idx').on(t.createdAt)],
);
