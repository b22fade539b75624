import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { CriticalValuesService } from './critical-values.service.js';
import { ReportReviewService } from './report-review.service.js';
import { TableColorsService } from './table-colors.service.js';

/** The clinical-safety services around reports, built together so the app wires one thing. */
export class ReportSafetyService {
  readonly critical: CriticalValuesService;
  readonly review: ReportReviewService;
  readonly colors: TableColorsService;

  constructor(db: Db, clock: Clock) {
    this.critical = new CriticalValuesService(db, clock);
    this.review = new ReportReviewService(db, clock);
    this.colors = new TableColorsService(db, clock);
  }
}
