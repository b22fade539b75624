import type { ReportStatus } from '@yyp/contracts';
import type { ReportRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { visibleStatus, type ActorFacts, type ReportFacts } from './report-machine.js';
import { lockedRefusal, lockRefusal, otherLockHolder } from './reports.policy.js';
import * as store from './reports.store.js';

/**
 * The lock columns an action writes: a save renews the saver's lock; every other action hands the
 * report on and releases it (the caller's lock, or none).
 */
export function lockAfterAction(
  facts: ReportFacts,
  callerId: string,
  releaseLock: boolean,
  now: Date,
): { lockedBy?: null; lockedAt?: Date | null } {
  const mine = facts.lockedBy === callerId;
  if (releaseLock) return mine || !facts.lockedBy ? { lockedBy: null, lockedAt: null } : {};
  return mine ? { lockedAt: now } : {};
}

/**
 * A report's edit lock (spec 001 §8, issue 20 item 5): taken by the first edit, renewed by saves
 * and the editor's heartbeat, released by its holder, by an action that hands the report on, or
 * forced open by an admin; it lapses after `lockSeconds` without renewal. Every write to a report
 * runs under `underLock`, which refuses while another user holds a live lock.
 */
export class ReportLockService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly lockSeconds: number,
  ) {}

  /** The lock is live: held, and renewed within lockSeconds. */
  private liveLock(row: ReportRow | undefined, now: Date): boolean {
    return !!row?.lockedBy && !!row.lockedAt && row.lockedAt.getTime() + this.lockSeconds * 1000 > now.getTime();
  }

  /** When a lock taken or renewed at `lockedAt` lapses. */
  expires(lockedAt: Date): Date {
    return new Date(lockedAt.getTime() + this.lockSeconds * 1000);
  }

  /** The report's facts for the machine and the policy: a lapsed lock is no lock (and a bare 'locked' is none). */
  facts(row: ReportRow | undefined, now = this.clock.now()): ReportFacts {
    if (!row) return { status: 'none', creatorId: null, lockedBy: null, adviceExpertIds: [] };
    const live = this.liveLock(row, now);
    return {
      status: visibleStatus(row.status as ReportStatus, live),
      creatorId: row.creatorId,
      lockedBy: live ? row.lockedBy : null,
      adviceExpertIds: row.adviceExpertIds,
    };
  }

  /** Refuses with "Report locked by {name}" when another user holds the report's live lock. */
  async refuseIfHeldByOther(db: Db, facts: ReportFacts, caller: ActorFacts): Promise<void> {
    const holder = otherLockHolder(facts, caller);
    if (!holder) return;
    const name = (await store.accountNames(db, [holder])).get(holder) ?? '';
    throw lockedRefusal({ id: holder, name });
  }

  /**
   * Runs `fn` on the report row (made if nobody wrote it yet) in one transaction holding the row's
   * lock. A live lock held by someone else refuses first.
   */
  underLock<T>(
    reportId: string,
    bucketId: string,
    caller: ActorFacts,
    fn: (tx: Db, row: ReportRow, facts: ReportFacts) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      const row = await store.ensureReport(tx, reportId, bucketId, this.clock.now());
      const facts = this.facts(row);
      await this.refuseIfHeldByOther(tx, facts, caller);
      return fn(tx, row, facts);
    });
  }

  /**
   * POST reports/{id}/lock: taken when the caller may edit now; renewed when it already holds it.
   * A report nobody wrote yet shows as locked while it is held. Taking a lock changes nothing in
   * the report, so it writes no trace step; the study list still shows the report as being edited.
   */
  async take(reportId: string, bucketId: string, caller: ActorFacts): Promise<void> {
    await this.underLock(reportId, bucketId, caller, async (tx, _row, facts) => {
      const refusal = lockRefusal(facts, caller);
      if (refusal) throw refusal;
      const status: ReportStatus = facts.status === 'none' ? 'locked' : facts.status;
      await store.updateReport(tx, reportId, { lockedBy: caller.id, lockedAt: this.clock.now(), status });
      if (status !== facts.status) await store.setExamsReportStatus(tx, reportId, status, this.clock.now());
    });
  }

  /** POST reports/{id}/unlock: the holder lets go; a never-saved report is none again. */
  async letGo(reportId: string, bucketId: string, caller: ActorFacts): Promise<void> {
    await this.underLock(reportId, bucketId, caller, async (tx, _row, facts) => {
      if (facts.lockedBy === caller.id) await this.release(tx, reportId, facts);
    });
  }

  /** Frees the lock; no trace step (nothing in the report changed), the audit log keeps a forced one. */
  private async release(tx: Db, reportId: string, facts: ReportFacts): Promise<void> {
    const status: ReportStatus = facts.status === 'locked' ? 'none' : facts.status;
    await store.updateReport(tx, reportId, { lockedBy: null, lockedAt: null, status });
    if (status !== facts.status) await store.setExamsReportStatus(tx, reportId, status, this.clock.now());
  }

  /** POST reports/{id}/force-unlock: clears anyone's live lock; answers whose it was (null when none). */
  forceOpen(reportId: string): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const row = await store.findReport(tx, reportId, true);
      const facts = this.facts(row);
      if (!row || !facts.lockedBy) return null;
      await this.release(tx, reportId, facts);
      return facts.lockedBy;
    });
  }

  /** The heartbeat: renews the caller's live lock; answers the row as it stands. */
  async renew(reportId: string, caller: ActorFacts): Promise<ReportRow | undefined> {
    const now = this.clock.now();
    const row = await store.findReport(this.db, reportId);
    if (row && this.facts(row, now).lockedBy === caller.id) {
      return store.updateReport(this.db, reportId, { lockedAt: now });
    }
    return row;
  }
}
