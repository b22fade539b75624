import {
  GLOBAL_CONFIG_KEYS,
  globalConfigCatalogue,
  type GlobalConfigAnswer,
  type GlobalConfigKey,
  type GlobalConfigValues,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import * as store from './global-configs.store.js';

/** A stored value that no longer fits its key's schema (the catalogue tightened) reads as unset. */
function valueOf(key: GlobalConfigKey, stored: unknown): string | null {
  if (stored === undefined || stored === null) return null;
  const parsed = globalConfigCatalogue[key].safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** The platform's settings by key (contracts global-config.ts): read by anyone signed in, set by platform admins. */
export class GlobalConfigsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** GET global-configs/query: the keys asked (each of the catalogue; the query schema refused the rest). */
  async query(keys: readonly GlobalConfigKey[]): Promise<GlobalConfigAnswer> {
    const stored = await store.readConfigs(this.db, keys);
    return Object.fromEntries(keys.map((key) => [key, valueOf(key, stored.get(key))]));
  }

  private async all(db: Db): Promise<GlobalConfigValues> {
    const stored = await store.readConfigs(db, GLOBAL_CONFIG_KEYS);
    return Object.fromEntries(
      GLOBAL_CONFIG_KEYS.map((key) => [key, valueOf(key, stored.get(key))]),
    ) as GlobalConfigValues;
  }

  /** PUT global-configs: sets or clears the keys given, audited with the keys changed (the values are not secrets). */
  async update(
    account: AccountRow,
    change: Partial<GlobalConfigValues>,
    ctx: AuditContext,
  ): Promise<GlobalConfigValues> {
    const entries = GLOBAL_CONFIG_KEYS.filter((key) => key in change).map(
      (key) => [key, change[key] ?? null] as [GlobalConfigKey, string | null],
    );
    return this.db.transaction(async (tx) => {
      const before = await this.all(tx);
      await store.writeConfigs(tx, entries, account.id, this.clock.now());
      const changed = entries.filter(([key, value]) => before[key] !== value);
      await writeAudit(tx, ctx, {
        action: 'platform.global_config',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'global_config',
        details: {
          changes: Object.fromEntries(changed.map(([key, value]) => [key, { from: before[key], to: value }])),
        },
      });
      return this.all(tx);
    });
  }
}
