import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { StatisticsService } from './statistics.service.js';

/** The money lines of a period (statistics/billings and its export), from the billing ledger. */
export class MoneyStatistics {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly stats: StatisticsService,
  ) {}
}
