import { HOSPITAL_UTC_OFFSET_MINUTES, type StatInterval } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The hospital day (UTC+8, whatever the session's time zone) of a timestamptz column or
 * expression, as a date.
 */
export function hospitalDaySql(at: SQL | SQL.Aliased | unknown): SQL<string> {
  return sql<string>`((${at} at time zone 'UTC') + interval '${sql.raw(String(HOSPITAL_UTC_OFFSET_MINUTES))} minutes')::date`;
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
