import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { ReadOnlyGate } from '../reports/index.js';
import { CriticalValuesService } from './critical-values.service.js';
import { ReportReviewService } from './report-review.service.js';
import { TableColorsService } from './table-colors.service.js';

/** The clinical-safety services around reports, built together so the app wires one thing. */
export class ReportSafetyService {
  readonly critical: CriticalValuesService;
  readonly review: ReportReviewService;
  readonly colors: TableColorsService;

  /** `readOnly`: the reports' read-only check (a report published back by the experts takes no critical value) */
  constructor(db: Db, clock: Clock, readOnly: ReadOnlyGate) {
    this.critical = new CriticalValuesService(db, clock, readOnly);
    this.review = new ReportReviewService(db, clock);
    this.colors = new TableColorsService(db, clock);
  }
}
