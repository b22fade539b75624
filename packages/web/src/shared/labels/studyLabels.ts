import { useTranslation } from 'react-i18next';
import type { studyListEn } from '../../i18n/studies/en';
import { usePersonName } from '../../ui/usePersonName';

type L = (typeof studyListEn)['studyList'];
export type FieldKey = keyof L['field'];
export type ColKey = keyof L['col'];
type GenderKey = keyof L['gender'];
type SourceKey = keyof L['source'];
type StatusKey = keyof L['status'];
type AiKey = keyof L['ai'];
type AgeUnit = keyof L['ageUnit'];

/**
 * The study list's labels for codes the server sends (gender, patient source, report status, AI
 * status) and for field and column names, typed so a missing key fails the type check.
 */
export function useStudyLabels() {
  const { t } = useTranslation();
  const personName = usePersonName();
  return {
    t,
    /** a DICOM person name (Li^Ming) as people write it (Li Ming) */
    personName,
    field: (key: FieldKey) => t(`studyList.field.${key}`),
    col: (key: ColKey) => t(`studyList.col.${key}`),
    gender: (code: string) => (code ? t(`studyList.gender.${(code in GENDER ? code : 'U') as GenderKey}`) : ''),
    source: (code: string) => (code in SOURCE ? t(`studyList.source.${code as SourceKey}`) : code),
    status: (code: string) => t(`studyList.status.${(code in STATUS ? code : 'none') as StatusKey}`),
    ai: (code: string) => (code in AI ? t(`studyList.ai.${code as AiKey}`) : ''),
    age: (age: string | null) => {
      const m = age ? /^(\d{3})([YMWD])$/.exec(age) : null;
      return m ? t(`studyList.ageUnit.${m[2] as AgeUnit}`, { count: Number(m[1]) }) : '—';
    },
  };
}

const GENDER = { M: 1, F: 1, O: 1, U: 1 };
const SOURCE = { I: 1, O: 1, E: 1, P: 1, NO: 1 };
const STATUS = {
  none: 1,
  locked: 1,
  partial: 1,
  final: 1,
  hold: 1,
  cancelled: 1,
  advised: 1,
  printed: 1,
  corrected: 1,
  preliminary: 1,
};
const AI = { queued: 1, sent: 1, done: 1, failed: 1 };
