import { DEFAULT_LANGUAGE, type Language } from '@yyp/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { chs } from './chs';
import { en } from './en';
import { applyLanguageToPage, readStoredLanguage, storeLanguage } from './language';
import { tib } from './tib';

export const resources = {
  chs: { translation: chs },
  en: { translation: en },
  tib: { translation: tib },
} as const;

const initialLanguage = readStoredLanguage();

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['chs', 'en', 'tib'],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
applyLanguageToPage(initialLanguage);

/** Switch the interface language and remember the choice in this browser. */
export async function setLanguage(language: Language): Promise<void> {
  storeLanguage(language);
  applyLanguageToPage(language);
  await i18n.changeLanguage(language);
}

export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return language === 'en' || language === 'tib' ? language : 'chs';
}

export { i18n };
