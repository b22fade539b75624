import { CONSULTATION_STATUS_VALUES, periodOf, type StatColumn } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import { shapeSets, type SetsLine } from './stat-desk-sets.store.js';
import { withinMarkedDay, type MarkedDays } from './stat-periods.store.js';
import type { StatRequest, StatResult } from './stat-source.js';

/**
 * The consultations' rollup (issue 26; schema stat_consul, migration 0056): per organization,
 * hospital day asked for, side (a: it asked, b: it was asked) and the other side's organization,
 * how many consultations, completed, cancelled, rated and the ratings' sum, so statistics/consul
 * reads a year from a few thousand rows, exactly.
 */

const CONSUL_COLUMNS: StatColumn[] = ['requested', 'completed', 'cancelled', 'ratings', 'ratingAverage'];

/**
 * The statements that rebuild stat_consul for the marked days (a relation g(bucket_id, day), in the
 * refresh's transaction): each organization's consultations of the day, on either side.
 */
export function recountConsul(days: MarkedDays): SQL[] {
  const g = days.g;
  const side = (mine: string, other: string, tag: 'a' | 'b') => sql`
    select g.bucket_id, g.day, ${tag} as side, c.${sql.raw(other)} as other_bucket_id,
      count(*)::int as requested,
      (count(*) filter (where c.status = ${CONSULTATION_STATUS_VALUES.completed}))::int as completed,
      (count(*) filter (where c.status = ${CONSULTATION_STATUS_VALUES.canceled}))::int as cancelled,
      count(c.rating_score)::int as ratings, coalesce(sum(c.rating_score), 0)::int as rating_sum
    from ${g}
    join consultations c on c.${sql.raw(mine)} = g.bucket_id and ${withinMarkedDay(sql`c.created`, days)}
    group by g.bucket_id, g.day, c.${sql.raw(other)}`;
  return [
    sql`delete from stat_consul t using ${g} where t.bucket_id = g.bucket_id and t.day = g.day`,
    sql`insert into stat_consul (bucket_id, day, side, other_bucket_id, requested, completed, cancelled, ratings, rating_sum)
      ${side('source_bucket_id', 'target_bucket_id', 'a')}
      union all
      ${side('target_bucket_id', 'source_bucket_id', 'b')}`,
  ];
}

interface ConsulRow {
  bucketId: string;
  day: string;
  side: 'a' | 'b';
  otherBucketId: string;
  requested: number;
  completed: number;
  cancelled: number;
  ratings: number;
  ratingSum: number;
}

interface Sums {
  requested: number;
  completed: number;
  cancelled: number;
  ratings: number;
  ratingSum: number;
}

/**
 * statistics/consul (consultation_stats), by the time each consultation was asked for: requested
 * (asked by, or of, an organization of the request), completed, cancelled, ratings (the
 * requester's, once) and their average. Rows by the organization (either side) or by the other
 * side; a consultation between two organizations of the request counts once in each's row and once
 * in the periods and totals. A deleted consultation is gone and counts nowhere. Read from
 * stat_consul (the caller has recounted the organizations' marked days); the count straight from the
 * consultations (stat-consul-direct.fixture.ts) answers the same: stat-consul-rollup.int.test.ts.
 */
export async function consulStats(db: Db, req: StatRequest): Promise<StatResult> {
  const buckets = textArrayLiteral(req.bucketIds);
  const result = await db.execute(sql`
    select bucket_id as "bucketId", to_char(day, 'YYYY-MM-DD') as day, side, other_bucket_id as "otherBucketId",
      requested, completed, cancelled, ratings, rating_sum as "ratingSum"
    from stat_consul
    where bucket_id = any(${buckets}::text[]) and day >= ${req.from}::date and day <= ${req.to}::date`);
  const rows = (result as unknown as { rows: ConsulRow[] }).rows;
  const mine = new Set(req.bucketIds);
  const none = (): Sums => ({ requested: 0, completed: 0, cancelled: 0, ratings: 0, ratingSum: 0 });
  // the totals are answered even when nothing was asked
  const groups = { k: new Map<string, Sums>(), p: new Map<string, Sums>(), t: new Map([['', none()]]) };
  const add = (g: keyof typeof groups, key: string, r: ConsulRow) => {
    const s = groups[g].get(key) ?? none();
    groups[g].set(key, s);
    s.requested += Number(r.requested);
    s.completed += Number(r.completed);
    s.cancelled += Number(r.cancelled);
    s.ratings += Number(r.ratings);
    s.ratingSum += Number(r.ratingSum);
  };
  for (const r of rows) {
    // Asked by one organization of the request: read once, from the asking side; asked of one, from
    // the asked side unless the asking side is in the request too.
    if (r.side === 'a' || !mine.has(r.otherBucketId)) {
      add('t', '', r);
      add('p', periodOf(r.day, req.interval), r);
    }
    // A row per key: the organization itself, or the other side; a consultation an organization
    // asked of itself is under one key from both sides, so it is read once, from the asking side.
    if (r.side === 'a' || r.otherBucketId !== r.bucketId) {
      add('k', req.by === 'bucket' ? r.bucketId : r.otherBucketId, r);
    }
  }
  const labels =
    req.by === 'bucket' || groups.k.size === 0
      ? new Map<string, string>()
      : await bucketNames(db, [...groups.k.keys()]);
  const lines: SetsLine[] = (['k', 'p', 't'] as const).flatMap((g) =>
    [...groups[g]].map(([key, s]) => ({
      g,
      k: g === 'k' ? key : null,
      label: g === 'k' ? (labels.get(key) ?? '') : null,
      p: g === 'p' ? key : null,
      requested: s.requested,
      completed: s.completed,
      cancelled: s.cancelled,
      ratings: s.ratings,
      ratingAverage: s.ratings ? s.ratingSum / s.ratings : null,
    })),
  );
  return shapeSets(lines, CONSUL_COLUMNS);
}

/** The organizations' names by id. */
async function bucketNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const result = await db.execute(sql`select id, name from buckets where id = any(${textArrayLiteral(ids)}::text[])`);
  return new Map((result as unknown as { rows: { id: string; name: string }[] }).rows.map((r) => [r.id, r.name]));
}
