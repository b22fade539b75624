import crypto from 'node:crypto';
import {
  isWebFlagOn,
  WEB_REPORT_MAX_SKEW_SECONDS,
  webReportCanonical,
  type SharedReport,
  type WebReportQuery,
  type WebSecret,
  type WebSecretStatus,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Sealer } from '../../platform/sealed.js';
import type { SharedReportBuilder } from './shared-report.js';
import * as store from './report-sharing.store.js';

/** A viewer share path opened from /web lives 12 hours at most. */
const VIEWER_PATH_MS = 12 * 3600_000;
/** Work done for a group with no secret, so the answer takes as long as for a wrong signature. */
const NO_SECRET = crypto.randomBytes(32).toString('base64url');

export function signWebReport(secret: string, fields: Parameters<typeof webReportCanonical>[0]): string {
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(webReportCanonical(fields)).digest('hex');
}

/** Constant-time comparison of a hex signature with the expected one. */
export function signatureMatches(secret: string, query: WebReportQuery): boolean {
  const expected = Buffer.from(signWebReport(secret, query), 'hex');
  const wellFormed = /^[0-9a-fA-F]{64}$/.test(query.signature);
  const given = wellFormed ? Buffer.from(query.signature, 'hex') : Buffer.alloc(expected.length);
  return crypto.timingSafeEqual(given, expected) && wellFormed;
}

export const webLinkRefused = () => new AppError('LinkInvalid', 'The signed link is invalid or has expired');

/**
 * /web (spec 000 §2): a hospital information system opens a patient's approved report with a link
 * it signs itself (HMAC-SHA256 with the group's web secret over webReportCanonical). Nothing but
 * the signature authorizes the call, so nothing is answered before it checks out.
 */
export class WebIntegrationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly builder: SharedReportBuilder,
    /** the group secrets are kept sealed at rest */
    private readonly sealer: Sealer,
  ) {}

  /** GET groups/{id}/integration/web-secret: whether the group has one (never the secret). */
  async status(groupId: string): Promise<WebSecretStatus> {
    const row = await store.findWebSecret(this.db, groupId);
    return {
      configured: row !== undefined,
      createdAt: row?.createdAt.toISOString() ?? null,
      rotatedAt: row?.rotatedAt?.toISOString() ?? null,
    };
  }

  /** POST groups/{id}/integration/web-secret: a new secret (the old one stops working), answered once. */
  async rotate(account: AccountRow, groupId: string, ctx: AuditContext): Promise<WebSecret> {
    const secret = crypto.randomBytes(32).toString('base64url');
    const row = await this.db.transaction(async (tx) => {
      const saved = await store.saveWebSecret(tx, groupId, this.sealer.seal(secret), this.clock.now());
      await writeAudit(tx, ctx, {
        action: 'group.web_secret',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'group',
        targetId: groupId,
        details: { rotated: saved.rotatedAt !== null },
      });
      return saved;
    });
    return {
      secret,
      createdAt: row.createdAt.toISOString(),
      rotatedAt: row.rotatedAt?.toISOString() ?? null,
    };
  }

  /**
   * The group's web secret in clear, for the other signed entries of its hospital system (/ss-login,
   * /go: modules/entries). null when the group has none, or one sealed under another server secret.
   */
  async groupSecret(groupId: string): Promise<string | null> {
    const row = await store.findWebSecret(this.db, groupId);
    return row ? this.sealer.open(row.webSecret) : null;
  }

  /** GET web-report: the report the signed link names, as share/report shows one. */
  async open(query: WebReportQuery, ctx: AuditContext): Promise<SharedReport> {
    const row = await store.findWebSecret(this.db, query.groupId);
    const now = this.clock.now();
    const nowS = Math.floor(now.getTime() / 1000);
    // A secret sealed under another server secret opens as null: no link of that group is valid.
    const secret = row ? this.sealer.open(row.webSecret) : null;
    const signed = signatureMatches(secret ?? NO_SECRET, query) && secret !== null;
    const expires = Number(query.expires);
    const fresh = expires > nowS && Number(query.timestamp) <= nowS + WEB_REPORT_MAX_SKEW_SECONDS;
    if (!signed || !fresh) {
      await writeAudit(this.db, ctx, {
        action: 'report.web_view',
        outcome: 'denied',
        category: 'security',
        targetType: 'group',
        targetId: query.groupId,
        details: { reason: signed ? 'expired' : 'signature' },
      });
      throw webLinkRefused();
    }
    const reportId = await store.webReportId(this.db, {
      groupId: query.groupId,
      patientId: query.patientId,
      serviceRequestId: query.serviceRequestId || undefined,
    });
    const openImage = isWebFlagOn(query.openImage);
    const built = reportId
      ? await this.builder.build({
          kind: 'web',
          reportId,
          sharedVersion: null,
          // The hospital's own system shows the name; a confidential exam stays masked.
          masked: (exam) => exam.isPrivacy,
          showExtra: isWebFlagOn(query.showExtra),
          viewer: openImage
            ? { accountId: null, until: new Date(Math.min(expires * 1000, now.getTime() + VIEWER_PATH_MS)) }
            : null,
          expiresAt: new Date(expires * 1000),
        })
      : undefined;
    await writeAudit(this.db, ctx, {
      action: 'report.web_view',
      outcome: built ? 'success' : 'failure',
      category: 'phi',
      targetType: 'report',
      ...(built ? { targetId: built.report.id, bucketId: built.exam.bucketId } : {}),
      patientId: query.patientId,
      details: { groupId: query.groupId, serviceRequestId: query.serviceRequestId ?? '', openImage },
    });
    if (!built) throw errors.notFound('Approved report');
    return built.view;
  }
}
