import type { DobMatchMode, ExamFilter } from '@yyp/contracts';
import { and, count, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { exams } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { anyText, textArrayLiteral } from '../../platform/sql.js';
import { filterSql } from './exams.list.filters.store.js';

/**
 * Whose exams the study list reads (exams.list.store.ts): the organizations, live or deleted, a
 * patient's past exams, and the exams of those organizations hidden from the caller.
 */

export interface ListScope {
  /** buckets whose exams the caller may list */
  bucketIds: string[];
  /** live exams, or those deleted after `deletedAfter` */
  deleted: false | { after: Date };
  /** only the other exams of this patient (past exams), birth dates compared as the group says */
  samePatient?: { examId: string; patientId: string; dob: string; mode: DobMatchMode };
  /**
   * exams of those buckets the caller may not see: consultation copies it takes no part in
   * (exams.copy-gate.ts); absent or empty on the common path, which then reads as before
   */
  hidden?: readonly string[];
}

const DOB8 = /^\d{8}$/;

/**
 * Past exams of a patient: the same patient ID, and by the group's birth-date mode (spec 000 §9):
 * disabled, no check; shift_off, the same date; shift_on, within a year. A missing or malformed
 * date on either side cannot disprove the match.
 */
function samePatientSql(p: NonNullable<ListScope['samePatient']>): SQL {
  const base = and(eq(exams.patientId, p.patientId), sql`${exams.id} <> ${p.examId}`)!;
  if (p.mode === 'disabled' || !DOB8.test(p.dob)) return base;
  const known = sql`${exams.patientDob} ~ '^[0-9]{8}$'`;
  if (p.mode === 'shift_off') return and(base, sql`(not ${known} or ${exams.patientDob} = ${p.dob})`)!;
  return and(
    base,
    sql`(not ${known} or abs(to_date(${exams.patientDob}, 'YYYYMMDD') - to_date(${p.dob}, 'YYYYMMDD')) <= 366)`,
  )!;
}

/**
 * `column = any(ids)`: the ids a bound parameter, or with `constant` a literal of the statement's
 * text (the landing list's, see listPage), so that the text alone decides its plan.
 */
export function idsIn(column: AnyPgColumn, ids: readonly string[], constant: boolean): SQL {
  if (!constant) return anyText(column, ids);
  return sql`${column} = any(${sql.raw(`'${textArrayLiteral(ids).replace(/'/g, "''")}'`)}::text[])`;
}

/** The scope as a condition on exams (`constant`: its lists written into the text, see idsIn). */
export function scopeSql(scope: ListScope, constant = false): SQL {
  return and(
    idsIn(exams.bucketId, scope.bucketIds, constant),
    scope.deleted
      ? and(isNotNull(exams.deletedTime), gt(exams.deletedTime, scope.deleted.after))
      : isNull(exams.deletedTime),
    scope.samePatient ? samePatientSql(scope.samePatient) : undefined,
    scope.hidden?.length ? sql`not (${idsIn(exams.id, scope.hidden, constant)})` : undefined,
  )!;
}

/**
 * A count from counters (`counted`) less the hidden exams (ListScope.hidden) it includes: those of
 * `bucketIds` that match the scope and the filters.
 */
export function lessHidden(
  db: Db,
  counted: SQL,
  scope: ListScope,
  bucketIds: string[],
  filters: ExamFilter[],
  constant: boolean,
): SQL {
  if (!scope.hidden?.length) return counted;
  const { hidden, ...rest } = scope;
  const among = db
    .select({ n: count() })
    .from(exams)
    .where(
      and(idsIn(exams.id, hidden, constant), scopeSql({ ...rest, bucketIds }, constant), ...filters.map(filterSql)),
    );
  return sql`(${counted} - (${among}))`;
}
