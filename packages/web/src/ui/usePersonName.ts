import { displayPersonName } from '@yyp/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';

/**
 * Names as people write them, in the interface language (contracts displayPersonName): DICOM's
 * Li^Ming shows as "Li Ming", Wang^Xiaodong=王^小东 as 王小东 in Chinese and Tibetan.
 */
export function usePersonName(): (name: string | null | undefined) => string {
  useTranslation(); // re-render when the language changes
  const language = currentLanguage();
  return useCallback((name) => displayPersonName(name ?? '', language), [language]);
}
