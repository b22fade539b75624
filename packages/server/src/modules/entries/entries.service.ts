import crypto from 'node:crypto';
import {
  ENTRY_DEFAULT_TARGET,
  ENTRY_MAX_SKEW_SECONDS,
  entryPayloadSchema,
  type EntryPayload,
  type EntryRefusal,
  type EntryToken,
  type EntryTokenQuery,
} from '@yyp/contracts';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { findAccountByUsername, type AccountsService } from '../accounts/index.js';
import { membersAmong } from '../groups/index.js';
import type { WebIntegrationService } from '../report-sharing/index.js';
import { decodeEntry, entrySignatureMatches } from './entry-signing.js';
import * as store from './entries.store.js';

/** Work done for a group with no secret, so the answer takes as long as for a wrong signature. */
const NO_SECRET = crypto.randomBytes(32).toString('base64url');

const MESSAGES: Record<EntryRefusal, string> = {
  invalid: 'The signed entry is invalid',
  expired: 'The signed entry has expired',
  used: 'The signed entry was used already',
  account: 'The signed entry names no account that may sign in here',
};
export const entryRefused = (reason: EntryRefusal) => new AppError('LinkInvalid', MESSAGES[reason], { reason });

export interface EntriesDeps {
  db: Db;
  clock: Clock;
  accounts: Pick<AccountsService, 'issueSingleSignOn'>;
  /** the group's web secret (report-sharing's face) */
  web: Pick<WebIntegrationService, 'groupSecret'>;
}

/**
 * /ss-login and /go (spec 000 §2) through GET tokens (spec 001 §7): a hospital system's signed
 * entry (contracts entry.ts) becomes a session of the account it names. Order of the checks: the
 * payload's form, the signature with the group's web secret, the time window, the nonce (recorded
 * once: a replay loses), the account (a member of the group, enabled, no platform admin). Every
 * refusal and every success is audited (never the signature or the payload).
 */
export class EntriesService {
  constructor(private readonly deps: EntriesDeps) {}

  async exchange(query: EntryTokenQuery, ctx: AuditContext): Promise<EntryToken> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const base = { type: query.type, source: query.source ?? '' };
    const refuse = async (
      reason: EntryRefusal,
      detail: string,
      payload?: Pick<EntryPayload, 'groupId' | 'username'>,
    ): Promise<never> => {
      await writeAudit(db, ctx, {
        action: 'account.entry',
        outcome: 'denied',
        category: 'security',
        actorUsername: payload?.username ?? null,
        ...(payload ? { targetType: 'group', targetId: payload.groupId } : {}),
        details: { ...base, reason, detail },
      });
      throw entryRefused(reason);
    };

    const parsed = entryPayloadSchema.safeParse(decodeEntry(query.signature));
    if (!parsed.success) return refuse('invalid', 'malformed');
    const payload = parsed.data;
    const secret = await this.deps.web.groupSecret(payload.groupId);
    const signed = entrySignatureMatches(secret ?? NO_SECRET, payload) && secret !== null;
    if (!signed) return refuse('invalid', secret === null ? 'no_secret' : 'bad_signature', payload);

    const nowS = Math.floor(now.getTime() / 1000);
    if (Math.abs(nowS - payload.timestamp) > ENTRY_MAX_SKEW_SECONDS) return refuse('expired', 'window', payload);

    const fresh = await store.consumeNonce(db, {
      groupId: payload.groupId,
      nonce: payload.nonce,
      usedAt: now,
      expiresAt: new Date((payload.timestamp + ENTRY_MAX_SKEW_SECONDS) * 1000),
    });
    if (!fresh) return refuse('used', 'replay', payload);

    const account = await findAccountByUsername(db, payload.username);
    if (!account) return refuse('account', 'unknown', payload);
    if (account.isPlatformAdmin) return refuse('account', 'platform_admin', payload);
    if (account.disabled !== 0) return refuse('account', 'disabled', payload);
    const members = await membersAmong(db, payload.groupId, [account.id]);
    if (!members.has(account.id)) return refuse('account', 'not_member', payload);

    const target = payload.target ?? ENTRY_DEFAULT_TARGET;
    const token = await this.deps.accounts.issueSingleSignOn(account);
    await writeAudit(db, ctx, {
      action: 'account.entry',
      outcome: 'success',
      category: 'security',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'group',
      targetId: payload.groupId,
      details: { ...base, target, nonce: payload.nonce },
    });
    await store.purgeNonces(db, now);
    return { ...token, username: account.username, target };
  }
}
