import type { Report } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { combinableLabel, combinableList, combineNoticeText, offersCombine, type CombinableExam } from './combine';

const exams: CombinableExam[] = [
  { examId: 'e2', modality: 'CT', bodyPart: '腹部', studyDate: '20260102' },
  { examId: 'e3', modality: 'MR\\PT', bodyPart: 'HEAD', studyDate: '20260102' },
];

describe('combine notice', () => {
  it('names each exam by modality and body part', () => {
    expect(combinableLabel(exams[0]!)).toBe('CT 腹部');
    expect(combinableLabel(exams[1]!)).toBe('MR/PT HEAD');
    expect(combinableLabel({ examId: 'e4', modality: 'DX', bodyPart: '', studyDate: '' })).toBe('DX');
    expect(combinableLabel({ examId: 'e5', modality: '', bodyPart: '', studyDate: '' })).toBe('e5');
  });

  it('lists them the way each language does', () => {
    expect(combinableList(exams, 'chs')).toBe('CT 腹部、MR/PT HEAD');
    expect(combinableList(exams, 'en')).toBe('CT 腹部, MR/PT HEAD');
    expect(combinableList(exams, 'tib')).toBe('CT 腹部། MR/PT HEAD');
  });

  it('says how many exams wait and which, in every language', () => {
    expect(combineNoticeText(i18n.getFixedT('chs'), 'chs', exams)).toBe(
      '该患者今日还有 2 个检查未写报告：CT 腹部、MR/PT HEAD',
    );
    expect(combineNoticeText(i18n.getFixedT('en'), 'en', exams.slice(0, 1))).toBe(
      'Other exams of this patient today without a report (1): CT 腹部',
    );
    expect(combineNoticeText(i18n.getFixedT('tib'), 'tib', exams)).toContain('CT 腹部། MR/PT HEAD');
  });

  it('is offered only when the server found exams, the report is being edited and the caller may combine', () => {
    const report = { autoCheckCombineReport: true, combinable: exams } as Report;
    expect(offersCombine(report, true, true)).toBe(true);
    expect(offersCombine(report, false, true)).toBe(false);
    expect(offersCombine(report, true, false)).toBe(false);
    expect(offersCombine({ ...report, autoCheckCombineReport: false }, true, true)).toBe(false);
    expect(offersCombine({ ...report, combinable: [] }, true, true)).toBe(false);
  });
});
