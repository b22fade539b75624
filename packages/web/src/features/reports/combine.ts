import type { Language, Report } from '@yyp/contracts';
import type { TFunction } from 'i18next';

export type CombinableExam = Report['combinable'][number];

/** How a list of exams is joined in running text of each language. */
const LIST_SEPARATOR: Record<Language, string> = { chs: '、', en: ', ', tib: '། ' };

/** One exam as the notice names it: modality and body part ("CT 腹部"), the modality alone without one. */
export function combinableLabel(exam: CombinableExam): string {
  return `${exam.modality.replace(/\\/g, '/')} ${exam.bodyPart}`.trim() || exam.examId;
}

/** The exams named in running text of `language`. */
export function combinableList(exams: readonly CombinableExam[], language: Language): string {
  return exams.map(combinableLabel).join(LIST_SEPARATOR[language]);
}

/**
 * Whether the editor offers to write the patient's other exams of the day in this report
 * (autoCheckCombineReport): only on a report the caller is editing and may combine.
 */
export function offersCombine(report: Report, writable: boolean, canCombine: boolean): boolean {
  return report.autoCheckCombineReport && report.combinable.length > 0 && writable && canCombine;
}

/** "该患者今日还有 2 个检查未写报告：CT 腹部、MR 头颅" */
export function combineNoticeText(t: TFunction, language: Language, exams: readonly CombinableExam[]): string {
  return t('report.combine.notice', { count: exams.length, exams: combinableList(exams, language) });
}
