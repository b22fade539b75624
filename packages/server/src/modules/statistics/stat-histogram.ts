/**
 * Histograms of whole minutes (turnaround, issue 26): merged per group and summarised as the
 * direct count summarises the rows (stat-turnaround.store.ts: percentile_cont).
 */

/** A histogram of whole minutes: minute → exams. */
export type Histogram = Map<number, number>;

/** Adds a row's counts into a histogram. */
export function addInto(h: Histogram, row: { minutes: readonly number[]; counts: readonly number[] }): void {
  row.minutes.forEach((m, i) => h.set(m, (h.get(m) ?? 0) + row.counts[i]!));
}

/**
 * How many, the median and the 90th percentile (as percentile_cont: linear between the two
 * nearest ranks) and how many took longer than their target, of one group's histograms (one per
 * organization, each with its target or null).
 */
export function summarize(parts: readonly { h: Histogram; target: number | null }[]): {
  exams: number;
  median: number | null;
  p90: number | null;
  over: number;
} {
  const all: Histogram = new Map();
  let over = 0;
  for (const { h, target } of parts) {
    for (const [m, c] of h) {
      all.set(m, (all.get(m) ?? 0) + c);
      if (target !== null && m > target) over += c;
    }
  }
  const values = [...all.keys()].sort((a, b) => a - b);
  const n = values.reduce((s, m) => s + all.get(m)!, 0);
  if (n === 0) return { exams: 0, median: null, p90: null, over };
  /** the value of 0-based rank r */
  const at = (r: number): number => {
    let seen = 0;
    for (const m of values) {
      seen += all.get(m)!;
      if (r < seen) return m;
    }
    return values[values.length - 1]!;
  };
  const percentile = (p: number) => {
    const pos = p * (n - 1);
    const lo = Math.floor(pos);
    const a = at(lo);
    return lo === pos ? a : a + (pos - lo) * (at(lo + 1) - a);
  };
  return { exams: n, median: percentile(0.5), p90: percentile(0.9), over };
}
