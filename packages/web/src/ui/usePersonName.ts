import { DEFAULT_LANGUAGE, displayPersonName } from '@yyp/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../i18n/language';

/**
 * Names as people write them, in the interface language (contracts displayPersonName): DICOM's
 * Li^Ming shows as "Li Ming", Wang^Xiaodong=王^小东 as 王小东 in Chinese and Tibetan.
 */
export function usePersonName(): (name: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return useCallback((name) => displayPersonName(name ?? '', language), [language]);
}
