/**
 * Colour rules (spec 000 §3): the study list paints a row with the first rule of the exam's group
 * that matches it; a lower priority number comes first, then the lower index.
 */
export interface ColorRuleLike {
  priority: number;
  index: number;
  foreColor: string;
  backgroundColor: string;
  matchField: string;
  value: string;
}

/** What a colour rule can look at in an exam. */
export interface ColorRuleSubject {
  modality: string;
  bodyPart: string;
  patientSource: string;
  urgentFlag: boolean;
  reportStatus: string;
  bucketId: string;
}

const truthy = (v: string) => ['true', '1', 'yes', 'y'].includes(v.trim().toLowerCase());

export function colorRuleMatches(rule: ColorRuleLike, exam: ColorRuleSubject): boolean {
  const value = rule.value.trim();
  switch (rule.matchField) {
    case 'modality':
      return exam.modality
        .split('\\')
        .map((m) => m.trim().toUpperCase())
        .includes(value.toUpperCase());
    case 'bodyPart':
      return value !== '' && exam.bodyPart.trim().toUpperCase() === value.toUpperCase();
    case 'patientClass':
      return value !== '' && exam.patientSource.toUpperCase() === value.toUpperCase();
    case 'urgentFlag':
      return exam.urgentFlag === truthy(value);
    case 'status':
      return exam.reportStatus === value;
    case 'bucketId':
      return exam.bucketId === value;
    default:
      return false;
  }
}

/** The first matching rule's colours, or null. */
export function rowColor(
  rules: readonly ColorRuleLike[],
  exam: ColorRuleSubject,
): { foreColor: string; backgroundColor: string } | null {
  const ordered = [...rules].sort((a, b) => a.priority - b.priority || a.index - b.index);
  const hit = ordered.find((r) => colorRuleMatches(r, exam));
  return hit ? { foreColor: hit.foreColor, backgroundColor: hit.backgroundColor } : null;
}
