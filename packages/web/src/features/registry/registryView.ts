import {
  EXAM_STATUSES,
  MAX_CONFIRMATIONS,
  REGISTRY_PAGE_SIZE,
  hospitalDate,
  type ExamStatus,
  type Preferences,
  type RegistryQuery,
} from '@yyp/contracts';

/** What the registrar set above the list; `toQuery` turns it into the body of registry/query. */
export interface RegistryFilters {
  q: string;
  source: 'internal' | 'external' | 'all';
  statuses: ExamStatus[];
  from?: string;
  to?: string;
  /** the quick range chosen (next N days), stored as such so it moves with the days */
  quickRange: 3 | 7 | 30 | null;
  page: number;
}

export const initialFilters: RegistryFilters = { q: '', source: 'internal', statuses: [], quickRange: null, page: 1 };

export type SavedRegistryFilters = NonNullable<Preferences['registryFilters']>;

/** The filters the desk chose last time (preferences.registryFilters), a quick range counted from `now`. */
export function restoredFilters(saved: SavedRegistryFilters | undefined, now = new Date()): RegistryFilters {
  const quickRange = saved?.quickRange ?? null;
  return {
    ...initialFilters,
    source: saved?.source ?? initialFilters.source,
    statuses: saved?.statuses ?? [],
    quickRange,
    ...(quickRange ? nextDays(quickRange, now) : {}),
  };
}

/** What preferences.registryFilters keeps of the filters: not the search text, a custom range or the page. */
export function filtersToSave(filters: RegistryFilters, bucketId: string): SavedRegistryFilters {
  return { bucketId, source: filters.source, statuses: filters.statuses, quickRange: filters.quickRange };
}

export function toQuery(filters: RegistryFilters): RegistryQuery {
  return {
    q: filters.q.trim(),
    source: filters.source,
    statuses: filters.statuses,
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    sort: { field: 'created', direction: 'desc' },
    skip: (filters.page - 1) * REGISTRY_PAGE_SIZE,
    limit: REGISTRY_PAGE_SIZE,
  };
}

/** A quick range: from the hospital's today to `days` days later. */
export function nextDays(days: number, now = new Date()): { from: string; to: string } {
  return { from: hospitalDate(now), to: hospitalDate(now, days) };
}

/** Whole years from a birth date YYYYMMDD to `today` (YYYY-MM-DD); null when unknown. */
export function ageInYears(birthDate: string, today: string): number | null {
  if (!/^\d{8}$/.test(birthDate)) return null;
  const [y, m, d] = [birthDate.slice(0, 4), birthDate.slice(4, 6), birthDate.slice(6, 8)].map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  if (!y || !m || !d || !ty || !tm || !td) return null;
  const years = ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
  return years >= 0 ? years : null;
}

/** A birth date YYYYMMDD from an age in years (1 January of that year), for the age field. */
export function birthDateFromAge(years: number, today: string): string {
  return `${Number(today.slice(0, 4)) - years}0101`;
}

/** Tag colours per status. */
export const STATUS_COLORS: Record<ExamStatus, string> = {
  Registered: 'default',
  Scheduled: 'blue',
  Arrived: 'orange',
  Performed: 'green',
  Cancelled: 'red',
};

export const STATUSES = EXAM_STATUSES;

/** "Confirm selected" takes at most MAX_CONFIRMATIONS at once (spec 000 §5). */
export function confirmAllowed(count: number): boolean {
  return count > 0 && count <= MAX_CONFIRMATIONS;
}
