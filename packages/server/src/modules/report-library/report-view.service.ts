import { DEFAULT_REPORT_VIEW, type ReportView, type ReportViewUpdate } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { updateProfile } from '../accounts/index.js';

/** The caller's report-view settings: its stored preferences, with the defaults of spec 000 §9 for the rest. */
function settingsOf(account: AccountRow): ReportView {
  const p = account.preferences;
  return {
    imageColumn: p.imageColumn ?? DEFAULT_REPORT_VIEW.imageColumn,
    approveMode: p.approveMode ?? DEFAULT_REPORT_VIEW.approveMode,
    pastExamSort: p.pastExamSort ?? DEFAULT_REPORT_VIEW.pastExamSort,
    viewerSize: p.viewerSize ?? { ...DEFAULT_REPORT_VIEW.viewerSize },
  };
}

/**
 * report-view GET and POST (spec 001 §7 Reports). The settings are the account's own and live in
 * its preferences (the same keys accounts/me answers), so no organization is involved.
 */
export class ReportViewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  get(account: AccountRow): ReportView {
    return settingsOf(account);
  }

  async update(account: AccountRow, change: ReportViewUpdate): Promise<ReportView> {
    if (Object.keys(change).length === 0) return settingsOf(account);
    return settingsOf(await updateProfile(this.db, account.id, { preferences: change }, this.clock.now()));
  }
}
