import { reportSafetyCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { actorOf as actor, ownerOfReport } from '../reports/index.js';
import type { ReportSafetyService } from './report-safety.service.js';
import { groupOfTableColor } from './report-safety.owners.js';

const fromQuery =
  (key: string) =>
  ({ query }: RawInput) =>
    typeof query[key] === 'string' ? query[key] : undefined;

/**
 * Clinical safety around a report (spec 001 §7 "Reports": critical-value, quality, rating,
 * comment; report-table-color; statistics critical-value). Routes on a report authorize seeing
 * its organization, or name the one action a call needs; the service asks for the rest
 * (report-safety.access.ts), so another group's ids answer 404 before anything is read.
 */
export function reportSafetyRoutes(app: FastifyInstance, db: Db, safety: ReportSafetyService): void {
  const owner = ownerFrom('reportId', ownerOfReport, db);
  const read = { action: 'bucket_read', owner } as const;
  const { critical, review, colors } = safety;

  /* ---------- critical values ---------- */
  defineCallRoute(app, calls.reportCritical, {
    summary:
      'Report a critical value (report_upsert or report_approval): flags the exam and notifies, in one transaction',
    auth: read,
    handler: (input) => critical.report(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, calls.criticals, {
    summary: "The report's critical values, newest first, with who reported and handled them",
    auth: read,
    handler: (input) => critical.list(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.receiveCritical, {
    summary: "The ordering side's acknowledgement with read-back (sent → received)",
    auth: read,
    handler: (input) => critical.receive(actor(input), input.params.reportId, input.params.criticalId, input.body),
  });
  defineCallRoute(app, calls.handleCritical, {
    summary: 'Close a received critical value (received → handled); the flag drops when none is open',
    auth: read,
    handler: (input) => critical.handle(actor(input), input.params.reportId, input.params.criticalId, input.body),
  });
  defineCallRoute(app, calls.criticalPage, {
    summary: "A page of critical values across the caller's organizations (report readers and followers), newest first",
    auth: 'account',
    handler: (input) => critical.page(input.account, input.body, auditContext(input.request)),
  });
  defineCallRoute(app, calls.criticalStats, {
    summary:
      'Critical values of an organization in a period: counts by status, median minutes to read-back and handling',
    auth: { action: 'critical_value_stats', owner: fromQuery('bucketId') },
    handler: (input) => critical.stats(input.bucket.id, input.query),
  });

  /* ---------- quality control ---------- */
  defineCallRoute(app, calls.quality, {
    summary: "The report's quality grade (null until graded) and what the caller may do with it",
    auth: read,
    handler: (input) => review.quality(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.saveQuality, {
    summary: 'Grade an approved or printed report: level, suggestion, unsatisfactory items',
    auth: { action: 'quality_upsert', owner },
    handler: (input) => review.upsertQuality(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, calls.deleteQuality, {
    summary: "Remove the report's quality grade",
    auth: { action: 'quality_delete', owner },
    handler: (input) => review.deleteQuality(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.qualityPage, {
    summary:
      'A page of graded reports, newest grading first, of the organization named or of every one where the caller reviews quality',
    auth: 'account',
    handler: (input) =>
      review.qualityPage(input.account, input.query.bucketId, input.body, auditContext(input.request)),
  });

  /* ---------- ratings ---------- */
  defineCallRoute(app, calls.rate, {
    summary: 'Rate an approved or printed report 1–5, once: a second rating answers 409 and changes nothing',
    auth: read,
    handler: (input) => review.rate(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, calls.ratings, {
    summary: "The report's ratings with the mean score",
    auth: read,
    handler: (input) => review.ratings(actor(input), input.params.reportId),
  });

  /* ---------- comments ---------- */
  defineCallRoute(app, calls.comments, {
    summary: "The report's comments, oldest first (where the group allows report comments)",
    auth: read,
    handler: (input) => review.comments(actor(input), input.params.reportId),
  });
  defineCallRoute(app, calls.comment, {
    summary: 'Comment on the report (where the group allows report comments)',
    auth: read,
    handler: (input) => review.comment(actor(input), input.params.reportId, input.body),
  });
  defineCallRoute(app, calls.deleteComment, {
    summary: 'Delete a comment (its author)',
    auth: read,
    handler: (input) => review.deleteComment(actor(input), input.params.reportId, input.params.commentId),
  });

  /* ---------- report table colours ---------- */
  const colorGroup = ownerFrom('colorId', groupOfTableColor, db);
  defineCallRoute(app, calls.tableColors, {
    summary: "The group's report table colours, lower priority first",
    auth: { power: 'group_read', group: fromQuery('groupId') },
    handler: (input) => colors.list(input.groupId),
  });
  defineCallRoute(app, calls.addTableColor, {
    summary: 'Add a report table colour to the group named by ?groupId (group admins)',
    auth: { power: 'group_manage', group: fromQuery('groupId') },
    handler: (input) => colors.add(input.account, input.groupId, input.body, auditContext(input.request)),
  });
  defineCallRoute(app, calls.updateTableColor, {
    summary: 'Change a report table colour (group admins)',
    auth: { power: 'group_manage', group: colorGroup },
    handler: (input) =>
      colors.update(input.account, input.groupId, input.params.colorId, input.body, auditContext(input.request)),
  });
  defineCallRoute(app, calls.deleteTableColor, {
    summary: 'Remove a report table colour (group admins)',
    auth: { power: 'group_manage', group: colorGroup },
    handler: (input) => colors.remove(input.account, input.groupId, input.params.colorId, auditContext(input.request)),
  });
}
