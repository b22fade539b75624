import { HOSPITAL_UTC_OFFSET_MINUTES, type StatInterval } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The hospital day (UTC+8, whatever the session's time zone) of a timestamptz column or
 * expression, as a date.
 */
export function hospitalDaySql(at: SQL | SQL.Aliased | unknown): SQL<string> {
  return sql<string>`((${at} at time zone 'UTC') + interval '${sql.raw(String(HOSPITAL_UTC_OFFSET_MINUTES))} minutes')::date`;
}

/**
 * The marked days of one recount (stat-rollup.store.ts recountMarks): the relation g(bucket_id,
 * day) and the instants their hospital days span, from the first's start to the last's end.
 */
export interface MarkedDays {
  g: SQL;
  from: Date;
  to: Date;
}

/** The instants of hospital days (YYYY-MM-DD, both included): from the first's start to the day after the last. */
export function hospitalDaysSpan(first: string, last: string): { from: Date; to: Date } {
  const offsetMs = HOSPITAL_UTC_OFFSET_MINUTES * 60_000;
  return {
    from: new Date(Date.parse(`${first}T00:00:00Z`) - offsetMs),
    to: new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000 - offsetMs),
  };
}

/**
 * A timestamptz column within its row's hospital day g.day, and within the span of all the marked
 * days as constants: with these the planner reads the column's index over the span; with the
 * per-day bounds alone it saw a join on ranges it could not size and read the whole table (9 s
 * for one day of 10,000,000 exams).
 */
export function withinMarkedDay(col: SQL, days: MarkedDays): SQL {
  return sql`${col} >= ${hospitalDayStartSql(sql`g.day`)} and ${col} < ${hospitalDayEndSql(sql`g.day`)}
    and ${col} >= ${days.from.toISOString()}::timestamptz and ${col} < ${days.to.toISOString()}::timestamptz`;
}

/** The first instant of a hospital day (a date expression), as a timestamptz. */
export function hospitalDayStartSql(day: SQL): SQL {
  return sql`((${day})::timestamp - interval '${sql.raw(String(HOSPITAL_UTC_OFFSET_MINUTES))} minutes') at time zone 'UTC'`;
}

/** The first instant after a hospital day (a date expression), as a timestamptz. */
export function hospitalDayEndSql(day: SQL): SQL {
  return sql`((${day})::timestamp + interval '${sql.raw(String(24 * 60 - HOSPITAL_UTC_OFFSET_MINUTES))} minutes') at time zone 'UTC'`;
}

/**
 * The period label of a date expression (a hospital day), as contracts' periodOf writes it:
 * YYYY-MM-DD for a day or a week (its Monday), YYYY-MM, YYYY.
 */
export function periodSql(day: SQL, interval: StatInterval): SQL<string> {
  switch (interval) {
    case 'day':
      return sql<string>`to_char(${day}, 'YYYY-MM-DD')`;
    case 'week':
      return sql<string>`to_char(date_trunc('week', (${day})::timestamp), 'YYYY-MM-DD')`;
    case 'month':
      return sql<string>`to_char(${day}, 'YYYY-MM')`;
    case 'year':
      return sql<string>`to_char(${day}, 'YYYY')`;
  }
}
