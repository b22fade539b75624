import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { withinMarkedDay, type MarkedDays } from './stat-periods.store.js';

/**
 * The front desk's rollups in stat_daily (issue 26; migration 0048 marks their days), per
 * organization and hospital day:
 *
 *   rg  registrations by the day they were made, under created_by (k1, '' for none)
 *       n registrations, s their scheduled exams (all of them, whatever became of them)
 *   rm  the same per modality of the scheduled exams (k2, the exam's modality as written)
 *       n registrations holding one exam of it, s its exams
 *   ar  scheduled exams arrived, by the day of arrived_at, under arrived_by (k1), per modality (k2)
 *       n arrivals
 *
 * rg and rm are separate kinds so that an exam with no modality ('') is not confused with the
 * all-modalities row. A registration with no exam counts in rg only. Recounted by refreshRollups
 * (stat-rollup.store.ts) with the other kinds of the days it takes.
 */

/** The statements recounting rg, rm and ar for the days of g(bucket_id, day). */
export function recountDesk(days: MarkedDays): SQL[] {
  const g = days.g;
  const regs = sql`registrations r on r.bucket_id = g.bucket_id
    and ${withinMarkedDay(sql`r.created`, days)}`;
  return [
    sql`insert into stat_daily (bucket_id, kind, day, k1, n, s)
      select g.bucket_id, 'rg', g.day, coalesce(r.created_by, ''), count(*),
        coalesce(sum((select count(*) from scheduled_exams s where s.registration_id = r.id)), 0)
      from ${g} join ${regs}
      group by g.bucket_id, g.day, coalesce(r.created_by, '')`,
    sql`insert into stat_daily (bucket_id, kind, day, k1, k2, n, s)
      select g.bucket_id, 'rm', g.day, coalesce(r.created_by, ''), s.modality, count(distinct r.id), count(*)
      from ${g} join ${regs}
      join scheduled_exams s on s.registration_id = r.id
      group by g.bucket_id, g.day, coalesce(r.created_by, ''), s.modality`,
    sql`insert into stat_daily (bucket_id, kind, day, k1, k2, n, s)
      select g.bucket_id, 'ar', g.day, coalesce(s.arrived_by, ''), s.modality, count(*), 0
      from ${g}
      join scheduled_exams s on s.bucket_id = g.bucket_id and s.arrived_at is not null
        and ${withinMarkedDay(sql`s.arrived_at`, days)}
      group by g.bucket_id, g.day, coalesce(s.arrived_by, ''), s.modality`,
  ];
}

/** The desk's labels of these accounts: the name, else the username (as stat-desk-sets.store.ts accountName). */
export async function deskAccountLabels(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id) => id !== '');
  if (wanted.length === 0) return new Map();
  const result = await db.execute(sql`select id, coalesce(nullif(name, ''), username) as label
    from accounts where id = any(${textArrayLiteral(wanted)}::text[])`);
  const rows = (result as unknown as { rows: { id: string; label: string | null }[] }).rows;
  return new Map(rows.map((r) => [r.id, r.label ?? '']));
}
