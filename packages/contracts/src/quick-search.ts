import { z } from 'zod';
import {
  EXAM_FILTER_FIELDS,
  EXAM_FILTER_OPERATORS,
  examFilterProblem,
  examFilterSchema,
  examSortSchema,
  type ExamFilter,
} from './exams.js';

/**
 * Quick searches (spec 000 §5, spec 001 §7 "Quick search"): a user's titled filters shown as tabs
 * over the study list. Title required, at most 10 characters, unique per user and list; at least
 * one must remain; a study-date filter is required. The date is kept as a preset relative to the
 * day the search runs ("yesterday's CT" stays yesterday's), or as fixed dates.
 */
export const QUICK_SEARCH_TYPES = ['study'] as const;
export type QuickSearchType = (typeof QUICK_SEARCH_TYPES)[number];
export const QUICK_SEARCH_TITLE_MAX = 10;
export const MAX_QUICK_SEARCHES = 20;

export const STUDY_DATE_PRESETS = [
  'today',
  'yesterday',
  'last3Days',
  'last7Days',
  'last30Days',
  'last90Days',
  'lastYear',
  'custom',
] as const;
export type StudyDatePreset = (typeof STUDY_DATE_PRESETS)[number];

const DATE8 = /^\d{8}$/;

export const quickSearchCriteriaSchema = z
  .object({
    studyDate: z
      .object({
        preset: z.enum(STUDY_DATE_PRESETS),
        /** YYYYMMDD, for custom */
        from: z.string().regex(DATE8).optional(),
        to: z.string().regex(DATE8).optional(),
      })
      .strict()
      .refine((d) => d.preset !== 'custom' || Boolean(d.from || d.to), {
        message: 'A custom study date needs a from or a to date',
      }),
    /** the other filters; the study date is the field above */
    filters: z.array(examFilterSchema).max(20).default([]),
    sorts: z.array(examSortSchema).max(5).default([]),
  })
  .strict()
  .superRefine((c, ctx) => {
    c.filters.forEach((f, i) => {
      const problem = f.field === 'studyDate' ? 'The study date is set once, in studyDate' : examFilterProblem(f);
      if (problem) ctx.addIssue({ code: 'custom', path: ['filters', i], message: problem });
    });
  });
export type QuickSearchCriteria = z.infer<typeof quickSearchCriteriaSchema>;

const title = z
  .string()
  .trim()
  .min(1, 'The title is required')
  .refine((t) => Array.from(t).length <= QUICK_SEARCH_TITLE_MAX, {
    message: `The title has at most ${QUICK_SEARCH_TITLE_MAX} characters`,
  });

/** The criteria as answered: already checked when saved, so no transforms (answers are encoded, not parsed). */
const storedCriteriaSchema = z.object({
  studyDate: z.object({
    preset: z.enum(STUDY_DATE_PRESETS),
    from: z.string().optional(),
    to: z.string().optional(),
  }),
  filters: z.array(
    z.object({
      field: z.enum(EXAM_FILTER_FIELDS),
      operator: z.enum(EXAM_FILTER_OPERATORS),
      values: z.array(z.string()),
    }),
  ),
  sorts: z.array(z.object({ field: examSortSchema.shape.field, direction: z.enum(['asc', 'desc']) })),
});

/** The default quick searches' keys: each shown by its name in the interface language. */
export const DEFAULT_QUICK_SEARCH_KEYS = ['today', 'yesterday', 'last7Days'] as const;
export type DefaultQuickSearchKey = (typeof DEFAULT_QUICK_SEARCH_KEYS)[number];

export const quickSearchSchema = z.object({
  id: z.string(),
  type: z.enum(QUICK_SEARCH_TYPES),
  /** the title as stored (for a default, in the language of the user when it was made) */
  title: z.string(),
  /** a default search not renamed: show the key's name in the interface language, not `title` */
  titleKey: z.enum(DEFAULT_QUICK_SEARCH_KEYS).nullable(),
  criteria: storedCriteriaSchema,
  sort: z.number().int(),
});
export type QuickSearch = z.infer<typeof quickSearchSchema>;
export const quickSearchListQuerySchema = z.object({ type: z.enum(QUICK_SEARCH_TYPES).default('study') });
export const createQuickSearchSchema = z
  .object({ type: z.enum(QUICK_SEARCH_TYPES).default('study'), title, criteria: quickSearchCriteriaSchema })
  .strict();
export const updateQuickSearchSchema = z
  .object({ title, criteria: quickSearchCriteriaSchema, sort: z.number().int().min(0).max(1000) })
  .partial()
  .strict();

const pad = (n: number) => String(n).padStart(2, '0');
/** A local calendar day as YYYYMMDD. */
export function dayString(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
}
function daysBefore(today: Date, n: number): string {
  const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - n);
  return dayString(d);
}

/** The study-date range [from, to] (YYYYMMDD, '' for an open end) of a preset on the day `today` (local). */
export function studyDateRange(date: QuickSearchCriteria['studyDate'], today: Date): [string, string] {
  const t = dayString(today);
  switch (date.preset) {
    case 'today':
      return [t, t];
    case 'yesterday':
      return [daysBefore(today, 1), daysBefore(today, 1)];
    case 'last3Days':
      return [daysBefore(today, 2), t];
    case 'last7Days':
      return [daysBefore(today, 6), t];
    case 'last30Days':
      return [daysBefore(today, 29), t];
    case 'last90Days':
      return [daysBefore(today, 89), t];
    case 'lastYear':
      return [daysBefore(today, 364), t];
    case 'custom':
      return [date.from ?? '', date.to ?? ''];
  }
}

/** The study-list filters a quick search stands for on the day `today`. */
export function quickSearchFilters(criteria: QuickSearchCriteria, today: Date): ExamFilter[] {
  const range = studyDateRange(criteria.studyDate, today);
  return [{ field: 'studyDate', operator: 'range', values: range }, ...criteria.filters];
}

/**
 * The quick searches a user starts with: today, yesterday, the last 7 days. They are stored with
 * their key (shown translated); the titles by language are the stored title and how rows saved
 * before the key existed are recognised.
 */
export const DEFAULT_QUICK_SEARCHES: {
  key: DefaultQuickSearchKey;
  preset: StudyDatePreset;
  titles: Record<'chs' | 'en' | 'tib', string>;
}[] = [
  { key: 'today', preset: 'today', titles: { chs: '今天', en: 'Today', tib: 'དེ་རིང་།' } },
  { key: 'yesterday', preset: 'yesterday', titles: { chs: '昨天', en: 'Yesterday', tib: 'ཁ་སང་།' } },
  { key: 'last7Days', preset: 'last7Days', titles: { chs: '近7天', en: '7 days', tib: 'ཉིན་༧' } },
];

/**
 * The default a stored search stands for: its key, or for a row stored before keys (a title of
 * a default in any language, on that default's study date and no other filter) the key it matches.
 */
export function defaultQuickSearchKey(search: {
  titleKey?: string | null;
  title: string;
  criteria: { studyDate: { preset: StudyDatePreset }; filters: unknown[] };
}): DefaultQuickSearchKey | null {
  const byKey = DEFAULT_QUICK_SEARCHES.find((d) => d.key === search.titleKey);
  if (byKey) return byKey.key;
  const legacy = DEFAULT_QUICK_SEARCHES.find(
    (d) =>
      Object.values(d.titles).includes(search.title) &&
      search.criteria.studyDate.preset === d.preset &&
      search.criteria.filters.length === 0,
  );
  return legacy?.key ?? null;
}
