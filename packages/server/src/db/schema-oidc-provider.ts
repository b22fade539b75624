import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './schema-accounts.js';
import { ts } from './columns.js';

/**
 * yyp as an OpenID Connect provider (modules/oidc-provider, issue 28 item 11): one row per grant a
 * signed-in user gave a viewer. It holds the authorization code (its SHA-256, single use, a minute)
 * and then the refresh token (its SHA-256, replaced on every use). The grant is bound to the yyp
 * session it was given from: ending or revoking that session ends the viewer's access too.
 */
export const oidcGrants = pgTable(
  'oidc_grants',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** the yyp session (sessions.id) the user allowed the viewer from */
    sessionId: text('session_id').notNull(),
    /** the account's token version then: a password change ends the grant as it ends the session */
    tokenVersion: integer('token_version').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    scope: text('scope').notNull(),
    nonce: text('nonce'),
    codeHash: text('code_hash'),
    codeChallenge: text('code_challenge').notNull(),
    codeExpiresAt: ts('code_expires_at').notNull(),
    codeUsedAt: ts('code_used_at'),
    refreshHash: text('refresh_hash'),
    /** the refresh token it replaced: that one used again means it leaked, and the grant ends (RFC 9700 §4.14.2) */
    previousRefreshHash: text('previous_refresh_hash'),
    refreshExpiresAt: ts('refresh_expires_at'),
    createdAt: ts('created_at').notNull(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('oidc_grants_code_idx').on(t.codeHash),
    uniqueIndex('oidc_grants_refresh_idx').on(t.refreshHash),
    index('oidc_grants_previous_refresh_idx').on(t.previousRefreshHash),
    index('oidc_grants_session_idx').on(t.sessionId),
    index('oidc_grants_created_idx').on(t.createdAt),
  ],
);
