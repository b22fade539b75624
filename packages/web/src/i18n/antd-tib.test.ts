import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { describe, expect, it } from 'vitest';
import { antdLocaleFor } from './language';

const TIBETAN = /[\u0F00-\u0FFF]/;

/** Every string in a locale tree, with its path. */
function strings(tree: unknown, path = ''): [string, string][] {
  if (typeof tree === 'string') return [[path, tree]];
  if (Array.isArray(tree)) return tree.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (tree && typeof tree === 'object') {
    return Object.entries(tree).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  }
  return [];
}

describe('Ant Design locale per interface language', () => {
  it('gives chs and en the shipped locales', () => {
    expect(antdLocaleFor('chs')).toBe(zhCN);
    expect(antdLocaleFor('en')).toBe(enUS);
  });

  it('gives tib Tibetan texts where the study list shows them (date range, page size, empty table)', () => {
    const tib = antdLocaleFor('tib');
    expect(tib.locale).toBe('bo');
    for (const text of [
      ...(tib.DatePicker?.lang.rangePlaceholder ?? []),
      tib.DatePicker?.lang.placeholder,
      tib.Pagination?.items_per_page,
      tib.Table?.emptyText,
      tib.Empty?.description,
      tib.Modal?.okText,
      tib.Popconfirm?.cancelText,
    ]) {
      expect(text).toMatch(TIBETAN);
    }
  });

  it('writes every text it changes from en_US in Tibetan script, and keeps the formats', () => {
    const en = new Map(strings(enUS));
    const changed = strings(antdLocaleFor('tib')).filter(([path, text]) => en.get(path) !== text);
    expect(changed.length).toBeGreaterThan(40);
    const notTibetan = changed.filter(
      ([path, text]) => path !== 'locale' && !path.endsWith('.locale') && !TIBETAN.test(text),
    );
    expect(notTibetan).toEqual([]);
    expect(antdLocaleFor('tib').DatePicker?.lang.yearFormat).toBe(enUS.DatePicker?.lang.yearFormat);
  });
});
