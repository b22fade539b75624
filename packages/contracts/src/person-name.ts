import type { Language } from './limits.js';

/** Han ideographs (with extensions and compatibility forms), kana and hangul: written without spaces. */
const IDEOGRAPHIC = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\ud840-\ud87f][\udc00-\udfff]/;

const hasLetters = (group: string) => group.replace(/[\^\s]/g, '') !== '';

/** The first of a DICOM person name's groups (alphabetic=ideographic=phonetic) that holds a name. */
export function firstNamedGroup(name: string): string {
  return name.split('=').find(hasLetters) ?? '';
}

/**
 * A patient or physician name as people write it, from a DICOM person name (PS3.5 §6.2: up to
 * three groups, alphabetic=ideographic=phonetic, each family^given^middle^prefix^suffix), so no
 * screen shows the separators: Li^Ming → "Li Ming", 王^小东 → "王小东", Smith^John^^Dr → "Dr Smith
 * John". Of Wang^Xiaodong=王^小东 the Chinese and Tibetan interfaces show the ideographic group
 * (王小东) and the English one the alphabetic group. A name without separators (typed at the
 * front desk, or masked) is answered as it is.
 */
export function displayPersonName(name: string, language: Language): string {
  if (!name.includes('^') && !name.includes('=')) return name;
  const ideographic = name.split('=')[1] ?? '';
  const group = language !== 'en' && hasLetters(ideographic) ? ideographic : firstNamedGroup(name);
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = group.split('^').map((c) => c.trim());
  const parts = [prefix, family, given, middle, suffix].filter((c) => c !== '');
  return parts.join(IDEOGRAPHIC.test(group) ? '' : ' ');
}
