import type { ReportColor } from '@yyp/contracts';

/** What a report table colour looks at, as the server knows it for a list row. */
export interface ReportColorSubject {
  reportStatus: string;
  /** an open (not yet handled) critical value */
  critical: boolean;
  /** the report's positive-finding flag; null until the doctor sets it */
  positive: boolean | null;
  urgent: boolean;
}

export interface ReportColorRule {
  field: string;
  value: string;
  color: string;
  background: string;
  priority: number;
}

/** Whether one colour matches: the status itself, or a flag equal to 'true' / 'false' (an unset positive flag matches neither). */
export function reportColorMatches(rule: ReportColorRule, subject: ReportColorSubject): boolean {
  const value = rule.value.trim();
  const flag = value === 'true' ? true : value === 'false' ? false : undefined;
  switch (rule.field) {
    case 'status':
      return value !== '' && subject.reportStatus === value;
    case 'critical':
      return flag !== undefined && subject.critical === flag;
    case 'urgent':
      return flag !== undefined && subject.urgent === flag;
    case 'positive':
      return flag !== undefined && subject.positive === flag;
    default:
      return false;
  }
}

/**
 * The colours of the first matching report table colour, lower priority first; colours of equal
 * priority keep the order they come in (the store's: oldest first). null when none matches.
 */
export function reportColorOf(rules: readonly ReportColorRule[], subject: ReportColorSubject): ReportColor | null {
  const ordered = [...rules].sort((a, b) => a.priority - b.priority);
  const hit = ordered.find((r) => reportColorMatches(r, subject));
  return hit ? { color: hit.color, background: hit.background } : null;
}

/** Whether any of the rules needs the report's positive flag (only then is it looked up). */
export function needsPositive(rules: readonly ReportColorRule[]): boolean {
  return rules.some((r) => r.field === 'positive');
}
