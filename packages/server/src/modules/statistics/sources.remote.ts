import { periodOf, type StatColumn } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { addInto, summarize, type Histogram } from './stat-histogram.js';
import { shapeSets, type SetsLine } from './stat-desk-sets.store.js';
import { bucketsByIds } from '../organizations/index.js';
import { remoteRows, type RemoteRow } from './stat-remote-rollup.store.js';
import { refreshRollups } from './stat-rollup.store.js';
import type { StatRequest, StatResult } from './stat-source.js';

/** remote-report's columns */
export const REMOTE_COLUMNS: StatColumn[] = [
  'sent',
  'received',
  'reported',
  'cancelled',
  'medianMinutes',
  'p90Minutes',
];

/** One row's, period's or the totals' sums as they are gathered. */
interface Sums {
  sent: number;
  received: number;
  reported: number;
  cancelled: number;
  minutes: Histogram;
}

/**
 * statistics/remote-report (remote_report_stats, issue 26), read from the rollup stat_remote after
 * the organizations' marked days are recounted. Remote and expert report orders by the time each
 * order was made; a consultation's fee (type consultation) is no report order.
 *   sent      orders an organization of the request applied for
 *   received  orders it got as the expert organization, once they reached it (free, or paid; an
 *             unpaid order of a paid product never reached the experts)
 *   reported  orders whose report was published back (status reported)
 *   cancelled orders cancelled
 *   medianMinutes, p90Minutes  from payment (or creation, when free) to the published report, in
 *             started minutes (rounded up, as turnaround counts), over the reported orders
 * Rows by the organization of the request, by the other side (counterpart), or by the exam's
 * modality; an order between two organizations of the request counts once in each's row and once
 * in the periods and totals. The count straight from the orders (stat-remote-direct.fixture.ts)
 * answers the same: stat-remote-rollup.int.test.ts.
 */
export async function remoteReportTable(db: Db, req: StatRequest): Promise<StatResult> {
  await refreshRollups(db, req.bucketIds);
  const rows = await remoteRows(db, req);
  const mine = new Set(req.bucketIds);
  const none = (): Sums => ({ sent: 0, received: 0, reported: 0, cancelled: 0, minutes: new Map() });
  // the totals are answered even when nothing was ordered
  const groups = new Map<string, Map<string, Sums>>([
    ['k', new Map()],
    ['p', new Map()],
    ['t', new Map([['', none()]])],
  ]);
  const add = (g: 'k' | 'p' | 't', key: string, r: RemoteRow, sent: boolean, received: boolean) => {
    const at = groups.get(g)!;
    const s = at.get(key) ?? none();
    at.set(key, s);
    if (sent) s.sent += r.orders;
    if (received) s.received += r.orders;
    s.reported += r.reported;
    s.cancelled += r.cancelled;
    addInto(s.minutes, r);
  };
  for (const r of rows) {
    const [request, target] = r.side === 's' ? [r.bucketId, r.otherBucketId] : [r.otherBucketId, r.bucketId];
    // applied for by one of the request's organizations, and (or) reached one of them
    const a = mine.has(request);
    const b = mine.has(target) && r.reached;
    add('t', '', r, a, b);
    add('p', periodOf(r.day, req.interval), r, a, b);
    if (req.by === 'modality') {
      add('k', r.modality, r, a, b);
      continue;
    }
    const [sentKey, receivedKey] = req.by === 'counterpart' ? [target, request] : [request, target];
    if (a) add('k', sentKey, r, true, b && receivedKey === sentKey);
    if (b && !(a && receivedKey === sentKey)) add('k', receivedKey, r, false, true);
  }
  const labels = new Map(
    req.by === 'counterpart' ? (await bucketsByIds(db, [...groups.get('k')!.keys()])).map((b) => [b.id, b.name]) : [],
  );
  const lines: SetsLine[] = [...groups].flatMap(([g, sums]) =>
    [...sums].map(([key, s]) => {
      const { median, p90 } = summarize([{ h: s.minutes, target: null }]);
      const { sent, received, reported, cancelled } = s;
      return {
        g: g as SetsLine['g'],
        k: g === 'k' ? key : null,
        label: g !== 'k' ? null : req.by === 'counterpart' ? (labels.get(key) ?? '') : req.by === 'modality' ? key : '',
        p: g === 'p' ? key : null,
        ...{ sent, received, reported, cancelled, medianMinutes: median, p90Minutes: p90 },
      };
    }),
  );
  const result = shapeSets(lines, REMOTE_COLUMNS);
  result.periods.sort((x, y) => x.period.localeCompare(y.period));
  return result;
}
