import { examQuerySchema, type ExamFilter } from '@yyp/contracts';

/**
 * Links into the study list with filters applied (issue 26: a statistic's bar or row drills into
 * its exams). Shared by the features that link (statistics) and the list that reads them (studies),
 * so neither imports the other. The URL is
 *
 *   /studies?filters=<JSON ExamFilter[], URI-encoded>&from=<what the filters stand for>
 *
 * `filters` are the study list's own filters (contracts exams.ts), checked as exams/page-query
 * checks them; `from` names the drill's origin (a doctor, a modality) for the label the list shows.
 */
export const DRILL_FILTERS_PARAM = 'filters';
export const DRILL_FROM_PARAM = 'from';

export interface StudiesDrill {
  filters: ExamFilter[];
  /** what the filters stand for (a doctor's name, a modality); '' for nothing named */
  from: string;
}

/** The /studies URL of a drill. */
export function studiesDrillLink(drill: StudiesDrill): string {
  const params = new URLSearchParams();
  params.set(DRILL_FILTERS_PARAM, JSON.stringify(drill.filters));
  if (drill.from) params.set(DRILL_FROM_PARAM, drill.from);
  return `/studies?${params.toString()}`;
}

/** The drill a /studies URL carries, or null without one or with filters the list would refuse. */
export function drillOfParams(params: URLSearchParams): StudiesDrill | null {
  const text = params.get(DRILL_FILTERS_PARAM);
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = examQuerySchema.safeParse({ filters: raw });
  if (!parsed.success || parsed.data.filters.length === 0) return null;
  return { filters: parsed.data.filters, from: params.get(DRILL_FROM_PARAM)?.trim() ?? '' };
}

/** The URL's search params without the drill (the list's clear control). */
export function withoutDrill(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(DRILL_FILTERS_PARAM);
  next.delete(DRILL_FROM_PARAM);
  return next;
}
