import { sql, type SQL } from 'drizzle-orm';
import type { StatInterval } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { hospitalDaySql, periodSql } from './stat-periods.store.js';

function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

/** The name and room of these devices (modalities), by id; a device gone is left out. */
export async function deviceLabels(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { name: string; room: string }>> {
  const wanted = [...new Set(ids.filter((id) => id !== ''))];
  if (wanted.length === 0) return new Map();
  const rows = rowsOf<{ id: string; name: string; room: string }>(
    await db.execute(sql`select id, name, room from modalities where id = any(${textArrayLiteral(wanted)}::text[])`),
  );
  return new Map(rows.map((r) => [r.id, { name: r.name, room: r.room }]));
}

/** The display names of these accounts, by id. */
export async function accountNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id) => id !== '');
  if (wanted.length === 0) return new Map();
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(sql`select id, name from accounts where id = any(${textArrayLiteral(wanted)}::text[])`),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

export type DeviceKey = 'modality' | 'device' | 'room' | 'bucket';

export interface DeviceWorkloadQuery {
  bucketIds: readonly string[];
  start: Date;
  end: Date;
  interval: StatInterval;
  by: DeviceKey;
  modality?: string | undefined;
}

export interface DeviceWorkloadLine {
  /** a row of the dimension, or a period */
  what: 'row' | 'period';
  key: string;
  label: string;
  period: string;
  exams: number;
  bodyParts: number;
}

const DEVICE_KEY: Record<DeviceKey, { key: SQL; label: SQL }> = {
  modality: { key: sql`split_part(e.modality, '\\', 1)`, label: sql`''` },
  device: { key: sql`coalesce(m.id, '')`, label: sql`coalesce(m.name, '')` },
  room: { key: sql`coalesce(m.room, '')`, label: sql`coalesce(m.room, '')` },
  bucket: { key: sql`e.bucket_id`, label: sql`''` },
};

/**
 * Device workload counted straight from the exams (spec 000 §6 device_workload_stats): the direct
 * count the rollup-served statistic (sources.reports.ts) is checked against. The live exams and their body parts (the report's
 * count, the exam's, or one) by modality, by the device and room of the scheduled exam bound to the
 * exam (the first registered when several are; '' for an exam that came unscheduled), or by
 * organization; and the same per period, in one statement.
 */
export async function deviceWorkloadRaw(db: Db, q: DeviceWorkloadQuery): Promise<DeviceWorkloadLine[]> {
  const { key, label } = DEVICE_KEY[q.by];
  const period = periodSql(hospitalDaySql(sql`e.created`), q.interval);
  const modality = q.modality !== undefined ? sql`and split_part(e.modality, '\\', 1) = ${q.modality}` : sql``;
  const rows = rowsOf<{
    what: 'row' | 'period';
    key: string | null;
    label: string | null;
    period: string | null;
    exams: string | number;
    bodyParts: string | number;
  }>(
    await db.execute(sql`select case when grouping(${key}) = 0 then 'row' else 'period' end as what,
        ${key} as key, max(${label}) as label, ${period} as period, count(*) as exams,
        sum(coalesce(case when jsonb_typeof(r.content -> 'bodyPartCount') = 'number'
          then (r.content ->> 'bodyPartCount')::int end, e.body_part_count, 1)) as "bodyParts"
      from exams e
      left join reports r on r.id = e.id
      left join lateral (select se.device_id from scheduled_exams se where se.exam_id = e.id
        order by se.created, se.id limit 1) se on true
      left join modalities m on m.id = se.device_id
      where e.bucket_id = any(${textArrayLiteral(q.bucketIds)}::text[])
        and e.created >= ${q.start.toISOString()}::timestamptz and e.created < ${q.end.toISOString()}::timestamptz
        and e.deleted_time is null ${modality}
      group by grouping sets ((${key}), (${period}))`),
  );
  return rows.map((r) => ({
    what: r.what,
    key: r.key ?? '',
    label: r.label ?? '',
    period: r.period ?? '',
    exams: Number(r.exams),
    bodyParts: Number(r.bodyParts),
  }));
}
