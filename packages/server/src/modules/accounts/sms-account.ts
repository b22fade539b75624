import type { SmsAccountRequest, SmsStatus } from '@yyp/contracts';
import type { AccountRow, SmsAccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { Sealer } from '../../platform/sealed.js';
import {
  createAliyunSms,
  maskAccessKeyId,
  smsEndpointOrigin,
  smsStatusOf,
  type AliyunSmsSettings,
  type SmsProvider,
} from '../../platform/sms/index.js';
import * as store from './sms-account.store.js';

export interface SmsAccountsDeps {
  db: Db;
  clock: Clock;
  /** seals the AccessKey secret at rest (purpose 'sms-access-key') */
  sealer: Sealer;
  /** the service the server's environment configured (startSms); null: none */
  environment: SmsProvider | null;
  /** what that service is (startSms status); absent: told from the provider alone */
  environmentStatus?: SmsStatus | undefined;
}

/** The SMS service in effect and what the platform admin is shown of it. */
export interface SmsInEffect {
  provider: SmsProvider | null;
  status: SmsStatus;
}

type AliyunRequest = Extract<SmsAccountRequest, { mode: 'aliyun' }>;

/**
 * Which SMS service sends the codes (issue 27, /settings/admin): the one of the server's
 * environment (YYP_SMS), unless the platform admin saved an account of the platform's own or
 * turned the codes off (PUT admin/sms; DELETE goes back). Every instance reads the saved row when
 * it sends, so a change takes effect on all of them at once; the provider built from a row is kept
 * while the row is unchanged.
 */
export class SmsAccounts {
  private built: { key: string; effect: SmsInEffect } | undefined;

  constructor(private readonly deps: SmsAccountsDeps) {}

  private environment(): SmsInEffect {
    const provider = this.deps.environment;
    return { provider, status: this.deps.environmentStatus ?? smsStatusOf(provider ? provider.kind : 'off') };
  }

  async current(): Promise<SmsInEffect> {
    const row = await store.getSmsAccount(this.deps.db);
    if (!row) return this.environment();
    const key = `${row.mode}:${row.updatedAt.toISOString()}:${row.accessKeySecretSealed ?? ''}`;
    if (this.built?.key !== key) this.built = { key, effect: this.fromRow(row) };
    return this.built.effect;
  }

  private fromRow(row: SmsAccountRow): SmsInEffect {
    const saved = { source: 'platform' as const, updatedAt: row.updatedAt.toISOString() };
    if (row.mode === 'off') {
      return { provider: null, status: { ...smsStatusOf('off'), ...saved } };
    }
    const settings = this.settingsOf(row);
    const secret = row.accessKeySecretSealed ? this.deps.sealer.open(row.accessKeySecretSealed) : null;
    const status = { ...smsStatusOf('aliyun', { ...settings, accessKeySecret: '' }), ...saved };
    if (secret === null) return { provider: null, status: { ...status, secretUnreadable: true } };
    const now = () => this.deps.clock.now();
    return { provider: createAliyunSms({ ...settings, accessKeySecret: secret, now }), status };
  }

  private settingsOf(row: SmsAccountRow): Omit<AliyunSmsSettings, 'accessKeySecret'> {
    return {
      endpoint: row.endpoint ?? '',
      region: row.region ?? '',
      signName: row.signName ?? '',
      accessKeyId: row.accessKeyId ?? '',
      templates: {
        'reset-password': row.templateResetPassword ?? '',
        'bind-mobile': row.templateBindMobile ?? '',
      },
    };
  }

  /** PUT admin/sms: the platform's account (or off) in place of the environment's; audited. */
  async save(admin: AccountRow, input: SmsAccountRequest, ctx: AuditContext): Promise<SmsStatus> {
    const now = this.deps.clock.now();
    const base = { updatedAt: now, updatedBy: admin.id };
    const empty = {
      endpoint: null,
      region: null,
      signName: null,
      templateResetPassword: null,
      templateBindMobile: null,
      accessKeyId: null,
      accessKeySecretSealed: null,
    };
    let details: Record<string, unknown> = { mode: input.mode };
    if (input.mode === 'off') {
      await store.saveSmsAccount(this.deps.db, { mode: 'off', ...empty, ...base });
    } else {
      const row = await this.aliyunRow(input);
      await store.saveSmsAccount(this.deps.db, { mode: 'aliyun', ...row, ...base });
      details = {
        ...details,
        endpoint: row.endpoint,
        accessKeyId: maskAccessKeyId(row.accessKeyId),
        secretChanged: input.accessKeySecret !== undefined,
      };
    }
    await this.audit(admin, ctx, details);
    return (await this.current()).status;
  }

  private async aliyunRow(input: AliyunRequest) {
    let endpoint: string;
    try {
      endpoint = smsEndpointOrigin(input.endpoint ?? '', 'endpoint');
    } catch {
      throw errors.validation('The endpoint must be an https origin (http only on this host)', {
        field: 'endpoint',
        problem: 'invalid',
      });
    }
    // A secret left out keeps the saved one, only for the same AccessKey ID.
    let secret = input.accessKeySecret ?? null;
    if (secret === null) {
      const saved = await store.getSmsAccount(this.deps.db);
      if (saved?.mode === 'aliyun' && saved.accessKeyId === input.accessKeyId && saved.accessKeySecretSealed) {
        secret = this.deps.sealer.open(saved.accessKeySecretSealed);
      }
    }
    if (secret === null) {
      throw errors.validation('The AccessKey secret is required', { field: 'accessKeySecret', problem: 'required' });
    }
    return {
      endpoint,
      region: input.region ?? 'cn-hangzhou',
      signName: input.signName,
      templateResetPassword: input.templates.resetPassword,
      templateBindMobile: input.templates.bindMobile,
      accessKeyId: input.accessKeyId,
      accessKeySecretSealed: this.deps.sealer.seal(secret),
    };
  }

  /** DELETE admin/sms: back to the environment's SMS service; audited. */
  async reset(admin: AccountRow, ctx: AuditContext): Promise<SmsStatus> {
    if (await store.deleteSmsAccount(this.deps.db)) await this.audit(admin, ctx, { mode: 'environment' });
    return (await this.current()).status;
  }

  private audit(admin: AccountRow, ctx: AuditContext, details: Record<string, unknown>): Promise<void> {
    return writeAudit(this.deps.db, ctx, {
      action: 'platform.sms_account',
      category: 'security',
      outcome: 'success',
      actorId: admin.id,
      actorUsername: admin.username,
      details,
    });
  }
}
