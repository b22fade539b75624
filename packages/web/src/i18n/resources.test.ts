import { errorCodes } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { clientErrorCodes } from '../api/errors';
import { chs } from './chs';
import { en } from './en';
import { tib } from './tib';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      out.set(path, value);
    } else {
      for (const [k, v] of flatten(value, path)) {
        out.set(k, v);
      }
    }
  }
  return out;
}

const languages = { chs: flatten(chs), en: flatten(en), tib: flatten(tib) };
const enKeys = [...languages.en.keys()].sort();

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

describe('translation resources', () => {
  it.each(Object.entries(languages))('%s has exactly the key set of en', (_name, messages) => {
    expect([...messages.keys()].sort()).toEqual(enKeys);
  });

  it.each(Object.entries(languages))('%s has no empty value', (_name, messages) => {
    const empty = [...messages].filter(([, value]) => value.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it.each(['chs', 'tib'] as const)('%s keeps the interpolation placeholders of en', (name) => {
    const wrong = enKeys.filter((key) => {
      const expected = placeholders(languages.en.get(key) ?? '');
      return JSON.stringify(placeholders(languages[name].get(key) ?? '')) !== JSON.stringify(expected);
    });
    expect(wrong).toEqual([]);
  });

  it('translates every error code of the contracts and of the client', () => {
    for (const code of [...errorCodes, ...clientErrorCodes]) {
      expect(languages.en.get(`errors.${code}`), code).toBeTruthy();
    }
  });

  it('writes tib in Tibetan script (the language names excepted)', () => {
    const tibetan = /[\u0F00-\u0FFF]/;
    const notTibetan = [...languages.tib]
      .filter(([key]) => !['language.chs', 'language.en'].includes(key))
      .filter(([, value]) => !tibetan.test(value))
      .map(([key]) => key);
    expect(notTibetan).toEqual([]);
  });

  it('writes chs in Chinese (the language names excepted)', () => {
    const han = /[\u4E00-\u9FFF]/;
    const notChinese = [...languages.chs]
      .filter(([key]) => !['language.en', 'language.tib'].includes(key))
      .filter(([, value]) => !han.test(value))
      .map(([key]) => key);
    expect(notChinese).toEqual([]);
  });
});
