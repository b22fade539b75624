import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';

/**
 * WeChat website login (issue 27, docs/wechat-login.md): the Open Platform's OAuth 2.0 with scope
 * snsapi_login. A WeChat identity is its unionid when WeChat gives one (the same person across the
 * Open Platform's apps), else its openid; it links to at most one account, an account to at most one.
 */
export const wxIdentities = pgTable(
  'wx_identities',
  {
    /** unionid when WeChat gave one, else openid */
    subject: text('subject').primaryKey(),
    openid: text('openid').notNull(),
    unionid: text('unionid'),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** as WeChat last gave them (shown on the personal settings page) */
    nickname: text('nickname').notNull().default(''),
    headimgurl: text('headimgurl').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [uniqueIndex('wx_identities_account_idx').on(t.accountId)],
);

/** A started WeChat login: keyed by the SHA-256 of its state, single use, ten minutes at most. */
export const wxLoginAttempts = pgTable(
  'wx_login_attempts',
  {
    stateHash: text('state_hash').primaryKey(),
    /** a site path to go to after signing in */
    redirect: text('redirect'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('wx_login_attempts_created_idx').on(t.createdAt)],
);

/**
 * A WeChat identity that came back linked to no account: keyed by the SHA-256 of the ticket the
 * browser holds, single use (bind or register takes it), ten minutes at most.
 */
export const wxLoginTickets = pgTable(
  'wx_login_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    subject: text('subject').notNull(),
    openid: text('openid').notNull(),
    unionid: text('unionid'),
    nickname: text('nickname').notNull().default(''),
    headimgurl: text('headimgurl').notNull().default(''),
    redirect: text('redirect'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('wx_login_tickets_created_idx').on(t.createdAt)],
);
