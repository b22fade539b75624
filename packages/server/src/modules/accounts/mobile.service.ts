import crypto from 'node:crypto';
import {
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_TRIES,
  SMS_CODE_TTL_SECONDS,
  type BindMobileRequest,
  type PasswordResetRequest,
  type SmsAccountRequest,
  type SmsStatus,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { assertNewPassword, hashPassword } from '../../platform/passwords.js';
import { SmsSendError, type SmsProvider, type SmsPurpose } from '../../platform/sms/index.js';
import { getDomainConfig } from '../domain/index.js';
import { maskMobile } from './accounts.presenter.js';
import * as store from './accounts.store.js';
import { clientAddress, RATE_RULES, tooManyRequests, type RateLimiter } from './rate-limit.js';
import type { SmsAccounts } from './sms-account.js';
import * as codes from './verification-codes.store.js';

export interface MobileDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  /** the SMS service in effect (the environment's or the platform's own); none: ServiceNotConfigured */
  sms: SmsAccounts;
}

const smsNotConfigured = () =>
  new AppError(
    'ServiceNotConfigured',
    'Sending codes by SMS is not configured on this server; ask your administrator to reset the password',
  );

/** Why a code was not accepted (the code rows of verification-codes.store.ts). */
type CodeCheck = { ok: true; row: codes.CodeRow } | { ok: false; error: AppError };

const expired = (reason: 'none' | 'expired' | 'tooManyTries') =>
  new AppError(
    'VerificationCodeExpired',
    reason === 'tooManyTries'
      ? 'Too many wrong codes: send a new code'
      : 'The code has expired or was never sent: send a new code',
    { reason },
  );

/** What the caller is told when the SMS service did not send a message. */
function sendRefusal(err: SmsSendError): AppError {
  if (err.reason === 'rate-limited') return tooManyRequests(60);
  if (err.reason === 'invalid-number') {
    return errors.validation('The SMS service does not accept this number', { field: 'mobile', problem: 'invalid' });
  }
  return new AppError('SmsNotSent', 'The SMS service did not send the code; try again later');
}

/** sha256 of the row id and the code: a code is never stored as sent. */
const codeHash = (id: string, code: string) => crypto.createHash('sha256').update(`${id}:${code}`).digest('hex');

/**
 * Mobile numbers and their SMS codes (issue 27): bind a number to one's account with a code sent
 * to it, and reset a forgotten password with a code sent to the bound number. Codes are six
 * digits, live five minutes and allow five wrong tries; a new code replaces the one before.
 * Sending is limited per client address, per account name and per number (RATE_RULES); a code
 * check per address and per name.
 */
export class MobileService {
  constructor(private readonly deps: MobileDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** GET admin/sms: the SMS service in effect (the platform admin's page; never the secret). */
  async status(): Promise<SmsStatus> {
    return (await this.deps.sms.current()).status;
  }

  /** PUT admin/sms (sms-account.ts). */
  saveAccount(admin: AccountRow, input: SmsAccountRequest, ctx: AuditContext): Promise<SmsStatus> {
    return this.deps.sms.save(admin, input, ctx);
  }

  /** DELETE admin/sms (sms-account.ts). */
  resetAccount(admin: AccountRow, ctx: AuditContext): Promise<SmsStatus> {
    return this.deps.sms.reset(admin, ctx);
  }

  /** The SMS service in effect, or ServiceNotConfigured. */
  private async provider(): Promise<SmsProvider> {
    const { provider } = await this.deps.sms.current();
    if (!provider) throw smsNotConfigured();
    return provider;
  }

  /**
   * POST admin/sms/test: the platform admin checks the service with a message to a number of their
   * choosing (the bind template, a made-up code that binds nothing), limited per number as codes
   * are; the outcome is an audit row with the number masked.
   */
  async sendTest(admin: AccountRow, mobile: string, ctx: AuditContext): Promise<void> {
    const address = clientAddress(ctx.ip ?? undefined);
    await this.deps.limiter.hit([...RATE_RULES.smsByAddress, ...RATE_RULES.smsByNumber], { address, number: mobile });
    const sms = await this.provider();
    const code = String(crypto.randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
    const audit = {
      action: 'platform.sms_test',
      category: 'security' as const,
      actorId: admin.id,
      actorUsername: admin.username,
    };
    const details = { mobile: maskMobile(mobile), provider: sms.kind };
    try {
      await sms.send({ phone: mobile, purpose: 'bind-mobile', code });
    } catch (err) {
      if (!(err instanceof SmsSendError)) throw err;
      const reason = { reason: err.reason, serviceCode: err.serviceCode ?? null };
      await writeAudit(this.db, ctx, { ...audit, outcome: 'failure', details: { ...details, ...reason } });
      throw sendRefusal(err);
    }
    await writeAudit(this.db, ctx, { ...audit, outcome: 'success', details });
  }

  /** Sends a password-reset code to the account's bound number. */
  async sendResetCode(username: string, ctx: AuditContext): Promise<void> {
    const name = username.trim();
    const address = clientAddress(ctx.ip ?? undefined);
    await this.deps.limiter.hit([...RATE_RULES.smsByAddress, ...RATE_RULES.smsByName], { address, name });
    const sms = await this.provider();
    const account = await store.findAccountByUsername(this.db, name);
    if (!account || account.disabled !== 0 || !account.mobile) {
      throw new AppError(
        'MobileNotBound',
        'This account has no mobile number to send a code to; ask your administrator to reset the password',
      );
    }
    if (account.source !== 'password') {
      throw new AppError('PasswordChangeNotAllowed', 'This account signs in with WeChat or single sign-on');
    }
    await this.send(sms, account, 'reset-password', account.mobile, ctx);
  }

  /** Sets a new password with the code sent to the account's number; every earlier session ends. */
  async resetPassword(username: string, input: PasswordResetRequest, ctx: AuditContext): Promise<void> {
    const name = username.trim();
    const address = clientAddress(ctx.ip ?? undefined);
    await this.deps.limiter.hit([...RATE_RULES.resetByAddress, ...RATE_RULES.resetByName], { address, name });
    await this.provider();
    const account = await store.findAccountByUsername(this.db, name);
    if (!account || account.disabled !== 0) throw expired('none');
    // The password is checked before the code, so a too simple one does not use the code up.
    await assertNewPassword(input.password, (await getDomainConfig(this.db)).requireStrongPwd);
    const passwordHash = await hashPassword(input.password);
    const now = this.deps.clock.now();
    const error = await this.db.transaction(async (tx) => {
      const check = await this.checkCode(tx, account, 'reset-password', input.code, null);
      if (!check.ok) return check.error;
      await codes.deleteCode(tx, check.row.id);
      await store.setPassword(tx, account.id, passwordHash, now);
      await writeAudit(tx, ctx, {
        action: 'account.reset_password',
        category: 'security',
        outcome: 'success',
        actorId: account.id,
        actorUsername: account.username,
      });
      return null;
    });
    if (error) {
      await this.auditRefused(account, 'account.reset_password', error, ctx);
      throw error;
    }
  }

  /** Sends a code to the number the caller wants to bind. */
  async sendBindCode(account: AccountRow, mobile: string, ctx: AuditContext): Promise<void> {
    const address = clientAddress(ctx.ip ?? undefined);
    await this.deps.limiter.hit([...RATE_RULES.smsByAddress, ...RATE_RULES.smsByName], {
      address,
      name: account.username,
    });
    await this.send(await this.provider(), account, 'bind-mobile', mobile, ctx);
  }

  /** Binds the number the code was sent to; answers the account as it is now. */
  async bindMobile(account: AccountRow, input: BindMobileRequest, ctx: AuditContext): Promise<AccountRow> {
    const address = clientAddress(ctx.ip ?? undefined);
    await this.deps.limiter.hit([...RATE_RULES.bindByAddress, ...RATE_RULES.bindByName], {
      address,
      name: account.username,
    });
    await this.provider();
    const now = this.deps.clock.now();
    const result = await this.db.transaction(async (tx) => {
      const check = await this.checkCode(tx, account, 'bind-mobile', input.code, input.mobile);
      if (!check.ok) return check.error;
      await codes.deleteCode(tx, check.row.id);
      const updated = await store.updateProfile(tx, account.id, { mobile: input.mobile }, now);
      await writeAudit(tx, ctx, {
        action: 'account.bind_mobile',
        category: 'security',
        outcome: 'success',
        actorId: account.id,
        actorUsername: account.username,
        details: { mobile: maskMobile(input.mobile) },
      });
      return updated;
    });
    if (result instanceof AppError) {
      await this.auditRefused(account, 'account.bind_mobile', result, ctx);
      throw result;
    }
    return result;
  }

  /**
   * Checks a code against the account's live code for this purpose (locked): a wrong one counts a
   * try (committed with the transaction, which the caller lets end before it throws); for binding,
   * the number must be the one the code went to.
   */
  private async checkCode(
    tx: Db,
    account: AccountRow,
    purpose: SmsPurpose,
    code: string,
    mobile: string | null,
  ): Promise<CodeCheck> {
    const row = await codes.lockCode(tx, account.id, purpose);
    if (!row) return { ok: false, error: expired('none') };
    if (row.expiresAt.getTime() <= this.deps.clock.now().getTime()) return { ok: false, error: expired('expired') };
    if (row.tries >= SMS_CODE_MAX_TRIES) return { ok: false, error: expired('tooManyTries') };
    // Both are hex sha256 digests (64 characters): compared in constant time.
    const right = crypto.timingSafeEqual(Buffer.from(codeHash(row.id, code.trim())), Buffer.from(row.codeHash));
    if (right && (mobile === null || mobile === row.mobile)) return { ok: true, row };
    const tries = await codes.countWrongTry(tx, row.id);
    const triesLeft = Math.max(0, SMS_CODE_MAX_TRIES - tries);
    if (triesLeft === 0) return { ok: false, error: expired('tooManyTries') };
    return {
      ok: false,
      error: new AppError(
        'VerificationCodeIncorrect',
        mobile !== null && right ? 'The code was sent to another number' : 'The code is incorrect',
        { triesLeft },
      ),
    };
  }

  /** Draws a code, stores its hash (replacing the one before) and sends it; a failed send leaves no code. */
  private async send(
    sms: SmsProvider,
    account: AccountRow,
    purpose: SmsPurpose,
    mobile: string,
    ctx: AuditContext,
  ): Promise<void> {
    await this.deps.limiter.hit(RATE_RULES.smsByNumber, {
      address: clientAddress(ctx.ip ?? undefined),
      number: mobile,
    });
    const now = this.deps.clock.now();
    const id = crypto.randomUUID();
    const code = String(crypto.randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
    await codes.replaceCode(this.db, {
      id,
      accountId: account.id,
      purpose,
      mobile,
      codeHash: codeHash(id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
    });
    const audit = { actorId: account.id, actorUsername: account.username };
    const details = { purpose, mobile: maskMobile(mobile), provider: sms.kind };
    try {
      await sms.send({ phone: mobile, purpose, code });
    } catch (err) {
      await codes.deleteCode(this.db, id);
      if (!(err instanceof SmsSendError)) throw err;
      await writeAudit(this.db, ctx, {
        action: 'account.sms_code',
        category: 'security',
        outcome: 'failure',
        ...audit,
        details: { ...details, reason: err.reason, serviceCode: err.serviceCode ?? null },
      });
      throw sendRefusal(err);
    }
    await writeAudit(this.db, ctx, {
      action: 'account.sms_code',
      category: 'security',
      outcome: 'success',
      ...audit,
      details,
    });
  }

  private async auditRefused(account: AccountRow, action: string, error: AppError, ctx: AuditContext): Promise<void> {
    await writeAudit(this.db, ctx, {
      action,
      category: 'security',
      outcome: 'failure',
      actorId: account.id,
      actorUsername: account.username,
      details: { code: error.code },
    });
  }

  /** Whether codes can be sent now (a new number is then bound only with its code). */
  async canSend(): Promise<boolean> {
    return (await this.deps.sms.current()).provider !== null;
  }

  /** Drops expired codes (the accounts' housekeeping). */
  purge(now: Date): Promise<void> {
    return codes.purgeExpiredCodes(this.db, now);
  }
}
