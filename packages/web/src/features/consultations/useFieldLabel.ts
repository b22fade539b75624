import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { consultationsEn } from '../../i18n/consultations/en';

export type ConsultationField = keyof typeof consultationsEn.consultations.field;

/** A consultation field's label in the interface language. */
export function useFieldLabel(): (key: ConsultationField) => string {
  const { t } = useTranslation();
  return useCallback((key: ConsultationField) => t(`consultations.field.${key}`), [t]);
}
