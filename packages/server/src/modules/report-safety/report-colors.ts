import type { ReportColor } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { needsPositive, reportColorOf, type ReportColorRule } from './table-colors.match.js';
import {
  positiveOfExams,
  tableColorsOfBuckets,
  tableColorsOfGroups,
  type TableColorRow,
} from './table-colors.store.js';

/** A list row as far as its report table colour goes. */
export interface ReportColorRow {
  id: string;
  groupId: string;
  reportStatus: string;
  critical: boolean;
  urgent: boolean;
}

export type ReportColorRules = Map<string, ReportColorRule[]>;

function byGroup(rows: TableColorRow[]): ReportColorRules {
  const out: ReportColorRules = new Map();
  for (const row of rows) {
    const list = out.get(row.groupId) ?? [];
    list.push(row);
    out.set(row.groupId, list);
  }
  return out;
}

/** The report table colours of these groups, by group, in priority order. */
export async function reportColorRules(db: Db, groupIds: Iterable<string>): Promise<ReportColorRules> {
  return byGroup(await tableColorsOfGroups(db, [...new Set(groupIds)]));
}

/** The report table colours of the groups of these organizations (a list's whole scope). */
export async function reportColorRulesOfBuckets(db: Db, bucketIds: readonly string[]): Promise<ReportColorRules> {
  return byGroup(await tableColorsOfBuckets(db, bucketIds));
}

/**
 * The report status colours of a page of list rows (spec 001 §7 report-table-color): the first
 * matching colour of each row's group. The group's colours are one small indexed read (or given,
 * when the caller read them alongside the page); the reports' positive flags are read only for
 * rows whose group has a colour on it. Rows of groups without colours cost nothing more.
 */
export async function paintReportColors(
  db: Db,
  rows: readonly ReportColorRow[],
  known?: ReportColorRules,
): Promise<Map<string, ReportColor | null>> {
  const out = new Map<string, ReportColor | null>();
  if (rows.length === 0) return out;
  const rules =
    known ??
    (await reportColorRules(
      db,
      rows.map((r) => r.groupId),
    ));
  const needing = rows.filter((r) => needsPositive(rules.get(r.groupId) ?? []));
  const positive =
    needing.length > 0
      ? await positiveOfExams(
          db,
          needing.map((r) => r.id),
        )
      : new Map<string, boolean>();
  for (const r of rows) {
    const groupRules = rules.get(r.groupId);
    out.set(
      r.id,
      groupRules
        ? reportColorOf(groupRules, {
            reportStatus: r.reportStatus,
            critical: r.critical,
            urgent: r.urgent,
            positive: positive.get(r.id) ?? null,
          })
        : null,
    );
  }
  return out;
}
