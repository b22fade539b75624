import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { StatisticsService } from './statistics.service.js';

/**
 * Statistics beyond the tables: the report detail list and its export, the overview (total, user,
 * bucket), which organizations the caller may count (buckets/allowed-statistics, buckets/allowed)
 * and a group's quality summary (groups/{id}/quality).
 */
export class DetailStatistics {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly stats: StatisticsService,
  ) {}
}
