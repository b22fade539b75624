import { sql, type SQL } from 'drizzle-orm';
import { firstModality as firstOf } from './stat-desk-sets.store.js';
import { withinMarkedDay, type MarkedDays } from './stat-periods.store.js';

/**
 * The quality rollups in stat_daily (issue 26; migration 0050 marks their days), per organization
 * (the grade's) and hospital day of the grade's last change (report_quality.updated_at), over the
 * grades of live exams:
 *
 *   qg  grades under the report's writer (k1, '' for none), the exam's modality (k2, the first of
 *       its list) and the level (k3); n grades, s unsatisfactory items named
 *   qi  the unsatisfactory items named, per item (k1), modality (k2) and level (k3); n grades
 *       naming the item, s times it is named (an item written twice in one grade counts twice)
 *
 * A grade is one per report, so qi's n summed over days is the grades naming the item. Recounted by
 * refreshRollups (stat-rollup.store.ts) with the other kinds of the days it takes.
 */

const firstModality = firstOf(sql`e.modality`);

/** The statements recounting qg and qi for the days of g(bucket_id, day). */
export function recountQuality(days: MarkedDays): SQL[] {
  const g = days.g;
  const grades = sql`${g}
    join report_quality q on q.bucket_id = g.bucket_id
      and ${withinMarkedDay(sql`q.updated_at`, days)}
    join exams e on e.id = q.report_id and e.deleted_time is null`;
  return [
    sql`insert into stat_daily (bucket_id, kind, day, k1, k2, k3, n, s)
      select g.bucket_id, 'qg', g.day, coalesce(r.creator_id, ''), ${firstModality}, q.level, count(*),
        coalesce(sum(jsonb_array_length(q.unsatisfactory_items)), 0)
      from ${grades}
      left join reports r on r.id = q.report_id
      group by g.bucket_id, g.day, coalesce(r.creator_id, ''), ${firstModality}, q.level`,
    sql`insert into stat_daily (bucket_id, kind, day, k1, k2, k3, n, s)
      select g.bucket_id, 'qi', g.day, it.item, ${firstModality}, q.level, count(distinct q.report_id), count(*)
      from ${grades}
      cross join lateral jsonb_array_elements_text(q.unsatisfactory_items) as it(item)
      group by g.bucket_id, g.day, it.item, ${firstModality}, q.level`,
  ];
}
