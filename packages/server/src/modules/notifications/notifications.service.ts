import {
  DEFAULT_MY_NOTIFICATION_SETTINGS,
  MAX_UPLOAD_NOTIFY_USERS,
  NOTIFICATION_KINDS,
  type MyNotificationSettings,
  privateFieldsMasked,
  type NotificationList,
  type NotificationStatus,
  type PrivacyContext,
} from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { findBucketsFacts, loadCallerAccess } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { effectiveActions, privacyOf } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { IngestSource } from '../archive/index.js';
import { bucketMembersAmong } from '../organizations/index.js';
import { examNotification, presentNotification } from './notifications.presenter.js';
import * as settingsStore from './notification-settings.store.js';
import * as store from './notifications.store.js';

/** The members an organization's upload token notifies (organization settings, at most 2). */
function uploadNotifyList(settings: Record<string, unknown>): string[] {
  const configured = (settings.notifications as { uploadNotifyAccountIds?: unknown } | undefined)
    ?.uploadNotifyAccountIds;
  if (!Array.isArray(configured)) return [];
  const ids = configured.filter((id): id is string => typeof id === 'string');
  return [...new Set(ids)].slice(0, MAX_UPLOAD_NOTIFY_USERS);
}

/**
 * In-app notifications. Delivery runs after the exam's rows committed, outside the ingest: a
 * failure is logged and never fails the upload. Reading is the caller's own notifications only;
 * patient names are PHI, so a list that shows them is audited and masked as the exam list masks
 * them (contracts privateFieldsMasked).
 */
export class NotificationsService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * The ingest pipeline's onNewExam hook. Only uploads through the organization's upload token
   * notify (spec 000 §9 "upload token notifies at most 2 users per organization"); the wizard,
   * DICOM C-STORE and STOW-RS do not.
   */
  readonly onNewExam = (examId: string, bucketId: string, source: IngestSource): void => {
    if (source !== 'token') return;
    const delivery: Promise<void> = this.notifyExamUploaded(examId)
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err, examId, bucketId }, 'upload notification failed'))
      .finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  };

  /** Resolves once every delivery under way has finished (shutdown, tests). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * One exam_uploaded notification for each member the upload token notifies who is still a
   * member of the organization. Idempotent: a second call for the exam adds nothing.
   * Answers the ids of the notifications made.
   */
  async notifyExamUploaded(examId: string): Promise<string[]> {
    const exam = await store.examForNotification(this.db, examId);
    if (!exam) return [];
    const configured = uploadNotifyList(exam.settings);
    if (configured.length === 0) return [];
    const members = await bucketMembersAmong(this.db, exam.bucketId, configured);
    return store.insertExamNotifications(
      this.db,
      {
        ...examNotification(
          exam,
          configured.filter((id) => members.has(id)),
        ),
        kind: 'exam_uploaded',
      },
      this.clock.now(),
    );
  }

  /** The caller's newest notifications; names masked as the exam list masks them. */
  async list(account: AccountRow, limit: number, ctx: AuditContext): Promise<NotificationList> {
    const [rows, unread, settings] = await Promise.all([
      store.listForAccount(this.db, account.id, limit),
      store.countUnread(this.db, account.id),
      this.settings(account),
    ]);
    const muted = new Set<string>(settings.mutedKinds);
    const [privacy, confidential] = await Promise.all([
      this.privacyIn(
        account.id,
        rows.map((r) => r.bucketId),
      ),
      store.confidentialExams(this.db, [...new Set(rows.map((r) => r.payload.id))]),
    ]);
    const masked = (r: (typeof rows)[number]) => {
      const ctx = privacy.get(r.bucketId);
      return !ctx || privateFieldsMasked(ctx, { isPrivacy: confidential.has(r.payload.id) });
    };
    // A muted kind stays in the bell but is answered quiet: the web shows no toast and plays no sound for it.
    const items = rows.map((r) => ({ ...presentNotification(r, masked(r)), quiet: muted.has(r.kind) }));
    // One audit row per organization whose patient names this answer shows.
    const disclosed = new Map<string, string[]>();
    for (const r of rows) {
      if (!masked(r)) disclosed.set(r.bucketId, [...(disclosed.get(r.bucketId) ?? []), r.payload.id]);
    }
    for (const [bucketId, examIds] of disclosed) {
      await writeAudit(this.db, ctx, {
        action: 'notification.list',
        outcome: 'success',
        category: 'phi',
        actorId: account.id,
        actorUsername: account.username,
        bucketId,
        targetType: 'exam',
        ...(examIds.length === 1 ? { targetId: examIds[0]! } : {}),
        details: { examIds },
      });
    }
    // `sound` only when on: absent means off (contracts notificationListSchema).
    return { items, unread, ...(settings.sound ? { sound: true } : {}) };
  }

  async status(account: AccountRow): Promise<NotificationStatus> {
    const [unread, latestId] = await Promise.all([
      store.countUnread(this.db, account.id),
      store.latestId(this.db, account.id),
    ]);
    return { unread, latestId };
  }

  /** GET accounts/me/notification-settings: the account's own, or the defaults (every kind toasts, no sound). */
  async settings(account: AccountRow): Promise<MyNotificationSettings> {
    const row = await settingsStore.readNotificationSettings(this.db, account.id);
    if (!row) return { ...DEFAULT_MY_NOTIFICATION_SETTINGS };
    return {
      mutedKinds: NOTIFICATION_KINDS.filter((kind) => row.mutedKinds.includes(kind)),
      sound: row.sound,
    };
  }

  /** PUT accounts/me/notification-settings: replaces the account's own settings. */
  async saveSettings(account: AccountRow, settings: MyNotificationSettings): Promise<MyNotificationSettings> {
    await settingsStore.writeNotificationSettings(this.db, account.id, settings, this.clock.now());
    return this.settings(account);
  }

  async markRead(account: AccountRow, id: string): Promise<void> {
    if (!(await store.markRead(this.db, account.id, id, this.clock.now()))) throw errors.notFound('Notification');
  }

  async markAllRead(account: AccountRow): Promise<void> {
    await store.markAllRead(this.db, account.id, this.clock.now());
  }

  /** The account's privacy facts now in those of these organizations whose exams it may see (others mask). */
  private async privacyIn(accountId: string, bucketIds: string[]): Promise<Map<string, PrivacyContext>> {
    if (bucketIds.length === 0) return new Map();
    const [access, facts] = await Promise.all([
      loadCallerAccess(this.db, accountId),
      findBucketsFacts(this.db, [...new Set(bucketIds)]),
    ]);
    const seen = facts.filter((b) => effectiveActions(access, b).has('exam_get'));
    return new Map(seen.map((b) => [b.id, privacyOf(access, b)]));
  }
}
