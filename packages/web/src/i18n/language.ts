import { DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, type Language } from '@yyp/contracts';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { antdTib } from './antd-tib';
import dayjs from 'dayjs';
import 'dayjs/locale/bo';
import 'dayjs/locale/zh-cn';
import updateLocale from 'dayjs/plugin/updateLocale';

// The date pickers head their day columns with weekdaysMin, which dayjs 'bo' gives as whole names
// (མིག་དམར་, པ་སངས་): they wrapped onto two lines in the pickers' narrow columns. One syllable each,
// as Tibetan calendars shorten them.
dayjs.extend(updateLocale);
dayjs.updateLocale('bo', { weekdaysMin: ['ཉི་', 'ཟླ་', 'མིག་', 'ལྷག་', 'ཕུར་', 'སངས་', 'སྤེན་'] });

/** Local storage key of the chosen interface language (spec 000 §1: chs default, en, tib). */
export const LANGUAGE_STORAGE_KEY = LANGUAGE_KEY;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function readStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

/**
 * Ant Design's own texts (pickers, pagination, tables, dialogs) in the interface language; antd
 * ships no Tibetan locale, so tib has ours (antd-tib.ts). Every text we render ourselves comes from
 * tib.ts.
 */
export function antdLocaleFor(language: Language): Locale {
  return language === 'chs' ? zhCN : language === 'tib' ? antdTib : enUS;
}

/** dayjs does have Tibetan ('bo'): dates in tib use Tibetan month and weekday names. */
const dayjsLocales: Record<Language, string> = { chs: 'zh-cn', en: 'en', tib: 'bo' };
const htmlLangs: Record<Language, string> = { chs: 'zh-CN', en: 'en', tib: 'bo' };

export function applyLanguageToPage(language: Language): void {
  dayjs.locale(dayjsLocales[language]);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = htmlLangs[language];
  }
}
