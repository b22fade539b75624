import { pinyin } from 'pinyin-pro';

/**
 * Lower-case pinyin initials of the Chinese characters of a patient name (王^小东 → "wxd",
 * 单^田芳 → "stf" with the surname reading), so the study list finds a patient by typing a few
 * letters. Other characters are left out: a Latin name is searched by the name itself. Of a name
 * with alphabetic and ideographic groups (Wang^Xiaodong=王^小东) every group counts, so the
 * ideographic one is found.
 */
export function nameInitials(name: string): string {
  if (!/[\u3400-\u9fff\uf900-\ufaff]|[\ud840-\ud87f][\udc00-\udfff]/.test(name)) return '';
  let out = '';
  for (const group of name.split('=')) {
    const text = group.replace(/[\^\s]+/g, '');
    if (!text) continue;
    const letters = pinyin(text, {
      pattern: 'first',
      toneType: 'none',
      type: 'array',
      nonZh: 'removed',
      mode: 'surname',
      surname: 'head',
      v: true,
    });
    out += letters
      .join('')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
  }
  return out;
}
