/**
 * A range of hospital days (YYYY-MM-DD, both ends included) split into its whole months and the days
 * around them, for the month-level rollup (stat-monthly.store.ts): the parts cover the range exactly
 * once.
 */
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** A range of hospital days split into whole months and the days around them (both ends included). */
export interface RangeParts {
  /** the first and last whole month (their first days), or null when the range holds none */
  months: { from: string; to: string } | null;
  /** day ranges outside the whole months (zero, one or two) */
  days: { from: string; to: string }[];
}

export function splitRange(from: string, to: string): RangeParts {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  const s = new Date(start);
  // the first whole month starts on `from` when it is a 1st, else on the next 1st
  const firstMonth = s.getUTCDate() === 1 ? start : Date.UTC(s.getUTCFullYear(), s.getUTCMonth() + 1, 1);
  // the month after the last whole one starts the day after `to` when that day is a 1st
  const afterEnd = new Date(end + DAY_MS);
  const endMonth =
    afterEnd.getUTCDate() === 1 ? end + DAY_MS : Date.UTC(afterEnd.getUTCFullYear(), afterEnd.getUTCMonth(), 1);
  if (end < start) return { months: null, days: [] };
  if (firstMonth >= endMonth) return { months: null, days: [{ from, to }] };
  const lastMonth = new Date(endMonth);
  const days: { from: string; to: string }[] = [];
  if (firstMonth > start) days.push({ from, to: iso(firstMonth - DAY_MS) });
  if (endMonth <= end) days.push({ from: iso(endMonth), to });
  return {
    months: { from: iso(firstMonth), to: iso(Date.UTC(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth() - 1, 1)) },
    days,
  };
}
