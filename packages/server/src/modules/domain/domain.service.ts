import type { DomainConfig, UpdateDomainConfig } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { getDomainConfig, updateDomainConfig } from './domain.store.js';

export class DomainService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  get(): Promise<DomainConfig> {
    return getDomainConfig(this.db);
  }

  /** Route-level auth admits platform admins only; the change and its audit row commit together. */
  async update(actor: AccountRow, change: UpdateDomainConfig, ctx: AuditContext): Promise<DomainConfig> {
    return this.db.transaction(async (tx) => {
      const updated = await updateDomainConfig(tx, change, this.clock.now());
      await writeAudit(tx, ctx, {
        action: 'domain.update',
        outcome: 'success',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'domain',
        targetId: updated.id,
        details: { fields: Object.keys(change) },
      });
      return updated;
    });
  }
}
