import type { SsoProviderAnswer, SsoStatusRow } from '@yyp/contracts';
import type { z } from 'zod';
import type { ssoProviderInputSchema } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { OidcError } from '../../platform/oidc.js';
import type { SsoDeps } from './sso.service.js';
import * as store from './sso.store.js';

/**
 * A group's single-sign-on provider as its admins configure it (GET|PUT|DELETE groups/{id}/sso) and
 * every group's for the platform admins (GET admin/sso-providers); the client secret sealed at rest.
 */
export class SsoProviders {
  constructor(private readonly deps: Pick<SsoDeps, 'db' | 'clock' | 'oidc' | 'sealer'>) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** GET groups/{id}/sso: the group's provider without its secret. */
  async provider(groupId: string, redirectUri: string): Promise<SsoProviderAnswer> {
    const row = await store.findProvider(this.db, groupId);
    return { provider: row ? present(row, redirectUri) : null, redirectUri };
  }

  /** PUT groups/{id}/sso: checks the issuer's discovery with the given client, then saves (secret sealed). */
  async saveProvider(
    actor: AccountRow,
    groupId: string,
    input: z.infer<typeof ssoProviderInputSchema>,
    redirectUri: string,
    ctx: AuditContext,
  ): Promise<SsoProviderAnswer> {
    const existing = await store.findProvider(this.db, groupId);
    const secret = input.clientSecret ?? (existing ? this.deps.sealer.open(existing.clientSecretSealed) : null);
    if (secret === null) {
      throw errors.validation('The client secret is required', { field: 'clientSecret', problem: 'required' });
    }
    const settings = { issuer: input.issuer, clientId: input.clientId, clientSecret: secret, scopes: input.scopes };
    try {
      await this.deps.oidc.discover(settings);
    } catch (err) {
      if (!(err instanceof OidcError)) throw err;
      throw new AppError('SsoProviderError', `The provider's discovery failed (${err.reason})`);
    }
    const row = await this.db.transaction(async (tx) => {
      const saved = await store.saveProvider(
        tx,
        groupId,
        {
          label: input.label,
          issuer: input.issuer,
          clientId: input.clientId,
          clientSecretSealed: this.deps.sealer.seal(secret),
          scopes: input.scopes,
          usernameClaim: input.usernameClaim,
          nameClaim: input.nameClaim,
          mobileClaim: input.mobileClaim,
          allowCreate: input.allowCreate,
          enabled: input.enabled,
        },
        this.deps.clock.now(),
      );
      await writeAudit(tx, ctx, {
        action: 'group.sso',
        outcome: 'success',
        category: 'security',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
        details: {
          issuer: input.issuer,
          clientId: input.clientId,
          secretChanged: input.clientSecret !== undefined,
          allowCreate: input.allowCreate,
          enabled: input.enabled,
          created: !existing,
        },
      });
      return saved;
    });
    return { provider: present(row, redirectUri), redirectUri };
  }

  /** DELETE groups/{id}/sso: the provider goes (its identities stay, unused until one is configured again). */
  async removeProvider(actor: AccountRow, groupId: string, ctx: AuditContext): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteProvider(tx, groupId))) throw errors.notFound('Single sign-on provider');
      await writeAudit(tx, ctx, {
        action: 'group.sso.remove',
        outcome: 'success',
        category: 'security',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
      });
    });
  }

  /** GET admin/sso-providers (platform admins). */
  async status(): Promise<SsoStatusRow[]> {
    const rows = await store.providerStatus(this.db);
    return rows.map((r) => ({
      ...r,
      identities: Number(r.identities),
      lastLoginAt: r.lastLoginAt ? new Date(r.lastLoginAt).toISOString() : null,
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

function present(row: store.SsoProviderRow, redirectUri: string) {
  return {
    groupId: row.groupId,
    label: row.label,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: true,
    scopes: row.scopes,
    usernameClaim: row.usernameClaim,
    nameClaim: row.nameClaim,
    mobileClaim: row.mobileClaim,
    allowCreate: row.allowCreate,
    enabled: row.enabled,
    redirectUri,
    updatedAt: row.updatedAt.toISOString(),
  };
}
