import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { accountName, anyOf, instant, statSets } from './stat-desk-sets.store.js';

/**
 * The front desk's statistics (registrar_stats). Registrations count by the time they were made, in
 * the organization they were made for, under who made them (created_by: an order placed from
 * outside has none, key ''); their exams are the scheduled exams they hold, whatever became of them
 * since (a registrar's work is done at registration). Arrivals count the scheduled exams marked
 * arrived (arrived_at, arrived_by; an arrival undone clears both and leaves the count; an MPPS
 * arrival has no clerk, key ''). With a modality, only the exams of that modality (and the
 * registrations holding one).
 */

export async function registrarStatsRaw(db: Db, req: StatRequest): Promise<StatResult> {
  const exams = req.modality
    ? sql`(select count(*) from scheduled_exams s where s.registration_id = r.id and s.modality = ${req.modality})`
    : sql`(select count(*) from scheduled_exams s where s.registration_id = r.id)`;
  const key = req.by === 'bucket' ? sql`r.bucket_id` : sql`coalesce(r.created_by, '')`;
  const label = req.by === 'bucket' ? sql`''` : accountName('r.created_by');
  const pairs = sql`
    select ${key} as k, ${label} as label, r.id as id, r.created as at, 'a' as side, ${exams} as exams
    from registrations r
    where ${anyOf(sql`r.bucket_id`, req.bucketIds)}
      and r.created >= ${instant(req.start)} and r.created < ${instant(req.end)}`;
  const result = await statSets(db, {
    pairs: req.modality ? sql`select * from (${pairs}) x where exams > 0` : pairs,
    fields: ['exams'],
    interval: req.interval,
    columns: ['registrations', 'exams'],
    aggs: { registrations: 'count(*)', exams: 'coalesce(sum(exams), 0)' },
  });
  return result;
}

export async function arriverStatsRaw(db: Db, req: StatRequest): Promise<StatResult> {
  const key = req.by === 'bucket' ? sql`s.bucket_id` : sql`coalesce(s.arrived_by, '')`;
  const label = req.by === 'bucket' ? sql`''` : accountName('s.arrived_by');
  return statSets(db, {
    pairs: sql`
      select ${key} as k, ${label} as label, s.id as id, s.arrived_at as at, 'a' as side
      from scheduled_exams s
      where ${anyOf(sql`s.bucket_id`, req.bucketIds)}
        and s.arrived_at >= ${instant(req.start)} and s.arrived_at < ${instant(req.end)}
        ${req.modality ? sql`and s.modality = ${req.modality}` : sql``}`,
    fields: [],
    interval: req.interval,
    columns: ['arrivals'],
    aggs: { arrivals: 'count(*)' },
  });
}
