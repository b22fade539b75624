import type { ReportAction } from '@yyp/contracts';
import { AppError } from '../../platform/errors.js';

/** A report's change (an action, or the editor's lock), told to listeners after it committed. */
export type ReportChange = { reportId: string; bucketId: string; change: ReportAction | 'lock'; status: string };
export type ReportListener = (change: ReportChange) => Promise<void>;
/** Whether the report of an organization is another's work, shown but never written there. */
export type ReadOnlyCheck = (reportId: string, bucketId: string) => Promise<boolean>;
/** Where a report of an organization came from (a remote read), null for its own. */
export type ReportOrigin = { sourceBucketId: string; originBucketId: string };
export type OriginLookup = (reportId: string, bucketId: string) => Promise<ReportOrigin | null>;
/**
 * What other modules that write a part of a report (its key images, its critical values) ask before
 * they write: whether it is read-only in the organization, and the refusal (409 ReportNotEditable).
 */
export type ReadOnlyGate = Pick<ReportHooks, 'readOnly' | 'refuseReadOnly'>;

/**
 * What other modules hang on the report lifecycle (app.ts wires the orders module): listeners told
 * of each change, and the reports that are read-only where they are shown (a remote read's
 * approved report, published back to the requesting organization by the experts).
 */
export class ReportHooks {
  private readonly listeners: ReportListener[] = [];
  private readonly readOnlyChecks: ReadOnlyCheck[] = [];
  private readonly origins: OriginLookup[] = [];

  onChanged(listener: ReportListener): void {
    this.listeners.push(listener);
  }

  readOnlyWhen(check: ReadOnlyCheck): void {
    this.readOnlyChecks.push(check);
  }

  originFrom(lookup: OriginLookup): void {
    this.origins.push(lookup);
  }

  async origin(reportId: string, bucketId: string): Promise<ReportOrigin | null> {
    for (const lookup of this.origins) {
      const found = await lookup(reportId, bucketId);
      if (found) return found;
    }
    return null;
  }

  async tell(change: ReportChange): Promise<void> {
    for (const listener of this.listeners) await listener(change);
  }

  async readOnly(reportId: string, bucketId: string): Promise<boolean> {
    for (const check of this.readOnlyChecks) if (await check(reportId, bucketId)) return true;
    return false;
  }

  /** Refuses a write to a read-only report (409 ReportNotEditable, status readOnly). */
  async refuseReadOnly(reportId: string, bucketId: string): Promise<void> {
    if (await this.readOnly(reportId, bucketId)) {
      throw new AppError(
        'ReportNotEditable',
        "This report is read-only here (another organization's report, or a shared copy)",
        {
          status: 'readOnly',
          transitions: [],
        },
      );
    }
  }
}
