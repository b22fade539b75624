import { sanitizeFooterHtml, type DomainConfig, type UpdateDomainConfig } from '@yyp/contracts';
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

  /**
   * Route-level auth admits platform admins only; the change and its audit row commit together.
   * The footer is stored sanitised (contracts footer-html.ts): the login page shows it to everyone.
   */
  async update(actor: AccountRow, input: UpdateDomainConfig, ctx: AuditContext): Promise<DomainConfig> {
    const change =
      input.footerHtml === undefined ? input : { ...input, footerHtml: sanitizeFooterHtml(input.footerHtml) };
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
