import { REPORT_STATUSES } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../platform/errors.js';
import {
  commentDeleteRefusal,
  commentsRefusal,
  criticalFollowRefusal,
  criticalReadRefusal,
  criticalReportRefusal,
  listOrganizationRefusal,
  mayRate,
  QUALITY_REVIEWERS,
  qualityReadRefusal,
  qualityRights,
  reviewReadRefusal,
  reviewRefusal,
  toldOfCriticalValue,
  type ReviewedReport,
} from './report-safety.policy.js';

/**
 * The report-safety policy over every set of the actions it looks at × every report status (and no
 * report yet) × who wrote it. The expected answers are written out from the module's rules.
 */

const ME = 'me';
const OTHER = 'other';
const RELEVANT = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_trace',
  'registry_create',
  'registry_update',
  'quality_upsert',
  'quality_delete',
  'quality_stats',
] as const;

function* subsets<T>(items: readonly T[]): Generator<T[]> {
  for (let mask = 0; mask < 1 << items.length; mask++) yield items.filter((_, i) => mask & (1 << i));
}
const ACTION_SETS = [...subsets(RELEVANT)].map((held) => new Set<string>(held));
const REPORTS: ReviewedReport[] = [
  undefined,
  ...REPORT_STATUSES.flatMap((status) => [null, ME, OTHER].map((creatorId) => ({ status, creatorId }))),
];
const body = (e: AppError | null) => e?.toBody() ?? null;
const forbidden = (action: string) => ({
  code: 'InsufficientPermissions',
  message: 'Insufficient permissions',
  details: { action },
});
const any = (actions: Set<string>, wanted: string[]) => wanted.some((a) => actions.has(a));

const READERS = ['exam_get', 'report_upsert', 'report_approval', 'report_advice', 'report_trace'];
const FOLLOWERS = ['report_upsert', 'report_approval', 'registry_create', 'registry_update'];
const QUALITY = ['quality_upsert', 'quality_delete', 'quality_stats'];

describe('report-safety policy over every action set', () => {
  it('covers 2^10 action sets and 31 report facts', () => {
    expect(ACTION_SETS).toHaveLength(1024);
    expect(REPORTS).toHaveLength(31);
  });

  it('critical values: report (write or approve), read (readers and followers), follow up', () => {
    const got = ACTION_SETS.map((a) => [
      body(criticalReportRefusal(a)),
      body(criticalReadRefusal(a)),
      body(criticalFollowRefusal(a)),
    ]);
    const want = ACTION_SETS.map((a) => [
      any(a, ['report_upsert', 'report_approval']) ? null : forbidden('report_upsert'),
      any(a, [...READERS, ...FOLLOWERS]) ? null : forbidden('exam_get'),
      any(a, FOLLOWERS) ? null : forbidden('report_upsert'),
    ]);
    expect(got).toEqual(want);
  });

  it('critical values: told are the assignee and approvers or the registry desk, never the reporter', () => {
    for (const a of ACTION_SETS) {
      const notified = any(a, ['report_approval', 'registry_create', 'registry_update']);
      expect(toldOfCriticalValue(OTHER, ME, null, () => a)).toBe(notified);
      expect(toldOfCriticalValue(OTHER, ME, OTHER, () => a)).toBe(true);
      expect(toldOfCriticalValue(ME, ME, ME, () => a)).toBe(false);
      expect(toldOfCriticalValue(ME, ME, null, () => a)).toBe(false);
    }
  });

  it('quality: read by readers and reviewers; ratings and comments by readers', () => {
    const got = ACTION_SETS.map((a) => [body(qualityReadRefusal(a)), body(reviewReadRefusal(a))]);
    const want = ACTION_SETS.map((a) => [
      any(a, [...READERS, ...QUALITY]) ? null : forbidden('exam_get'),
      any(a, READERS) ? null : forbidden('exam_get'),
    ]);
    expect(got).toEqual(want);
  });

  it('grade and rate: an approved or printed report, never by its writer', () => {
    for (const report of REPORTS) {
      const approved = report !== undefined && ['corrected', 'printed'].includes(report.status);
      for (const what of ['rate', 'grade'] as const) {
        const want = !approved
          ? {
              code: 'ReportNotApproved',
              message: 'Only an approved or printed report is rated or graded',
              details: { status: report?.status ?? 'none' },
            }
          : report.creatorId === ME
            ? {
                code: 'InsufficientPermissions',
                message: `The writer of a report does not ${what} it`,
                details: { reason: 'ownReport' },
              }
            : null;
        expect(body(reviewRefusal(report, ME, what))).toEqual(want);
      }
      for (const rated of [false, true]) {
        expect(mayRate(report, ME, rated)).toBe(approved && report.creatorId !== ME && !rated);
      }
    }
  });

  it('quality rights: upsert when gradable, not own, with quality_upsert; delete a grade with quality_delete', () => {
    for (const report of REPORTS) {
      const gradable = report !== undefined && ['corrected', 'printed'].includes(report.status);
      for (const a of ACTION_SETS) {
        for (const graded of [false, true]) {
          expect(qualityRights(report, ME, a, graded)).toEqual({
            canUpsert: gradable && report.creatorId !== ME && a.has('quality_upsert'),
            canDelete: graded && a.has('quality_delete'),
            gradable,
          });
        }
      }
    }
  });

  it('comments: where the group allows them; deleted by their author alone', () => {
    expect(commentsRefusal(true)).toBeNull();
    for (const off of [false, undefined, null, 'true', 1]) {
      expect(body(commentsRefusal(off))).toEqual({
        code: 'ReportCommentsDisabled',
        message: 'Report comments are turned off for this group',
      });
    }
    expect(commentDeleteRefusal(ME, ME)).toBeNull();
    expect(body(commentDeleteRefusal(OTHER, ME))).toEqual(forbidden('comment_author'));
    expect(body(commentDeleteRefusal(null, ME))).toEqual(forbidden('comment_author'));
  });

  it('a list naming an organization the caller may not list: 403 where it sees it, 404 otherwise', () => {
    expect(body(listOrganizationRefusal(true, QUALITY_REVIEWERS))).toEqual(forbidden('quality_upsert'));
    expect(body(listOrganizationRefusal(false, QUALITY_REVIEWERS))).toEqual({
      code: 'NotFound',
      message: 'Organization not found',
    });
  });
});
