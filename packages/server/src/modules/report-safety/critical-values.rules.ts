import { CRITICAL_VALUE_STATS_MAX_DAYS, type CriticalValueStatus } from '@yyp/contracts';

/**
 * The critical value's closed loop as a pure machine (DESIGN.md "State machines are pure"):
 * sent → receive (the ordering side reads it back) → received → handle → handled. Handling needs
 * the read-back first, so no value is closed that nobody on the ordering side acknowledged.
 */
export type CriticalValueAction = 'receive' | 'handle';

const NEXT: Record<CriticalValueAction, { from: CriticalValueStatus; to: CriticalValueStatus }> = {
  receive: { from: 'sent', to: 'received' },
  handle: { from: 'received', to: 'handled' },
};

/** The status after `action`, or null when the value is not in the status the action needs. */
export function nextCriticalStatus(status: string, action: CriticalValueAction): CriticalValueStatus | null {
  const step = NEXT[action];
  return status === step.from ? step.to : null;
}

/** The actions a value in `status` still awaits. */
export function pendingCriticalActions(status: string): CriticalValueAction[] {
  return (Object.keys(NEXT) as CriticalValueAction[]).filter((a) => NEXT[a].from === status);
}

const DAY_MS = 86_400_000;
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * A statistics period as [from, to): a bare date is that whole UTC day (so `to` as a date is
 * inclusive); an instant is taken as is. Null when the period is empty, reversed or longer than
 * CRITICAL_VALUE_STATS_MAX_DAYS.
 */
export function statsPeriod(from: string, to: string): { from: Date; to: Date } | null {
  const start = periodStart(from);
  const end = periodEnd(to);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return null;
  if (end.getTime() <= start.getTime()) return null;
  if (end.getTime() - start.getTime() > CRITICAL_VALUE_STATS_MAX_DAYS * DAY_MS) return null;
  return { from: start, to: end };
}

/** A period's first instant: a bare date starts at its UTC midnight. */
function periodStart(from: string): Date {
  return new Date(isDate(from) ? `${from}T00:00:00Z` : from);
}

/** A period's end, exclusive: a bare date ends after its whole UTC day. */
function periodEnd(to: string): Date {
  return isDate(to) ? new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS) : new Date(to);
}

/**
 * A list filter's period [from, to), either bound optional (a bare date `to` is inclusive, as in
 * statsPeriod); not capped. Null when both are given and it is empty or reversed.
 */
export function listPeriod(from?: string, to?: string): { from?: Date; to?: Date } | null {
  const start = from === undefined ? undefined : periodStart(from);
  const end = to === undefined ? undefined : periodEnd(to);
  if ((start && Number.isNaN(start.getTime())) || (end && Number.isNaN(end.getTime()))) return null;
  if (start && end && end.getTime() <= start.getTime()) return null;
  return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
}

/** Minutes rounded to a tenth; the drivers answer a double as a number or as its text. */
export function roundMinutes(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'string' ? Number(value) : value;
  return Number.isFinite(n) ? Math.round(n * 10) / 10 : null;
}
