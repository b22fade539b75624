import { describe, expect, it } from 'vitest';
import { diffText, diffTokens, tokenize } from './diff.js';

const apply = (parts: { op: string; text: string }[], side: 'before' | 'after') =>
  parts
    .filter((p) => p.op === 'equal' || p.op === (side === 'before' ? 'delete' : 'insert'))
    .map((p) => p.text)
    .join('');

describe('report diff', () => {
  it('splits Latin text into words and Chinese into characters', () => {
    expect(tokenize('Mild effusion, 3.5 cm')).toEqual(['Mild', ' ', 'effusion', ',', ' ', '3.5', ' ', 'cm']);
    expect(tokenize('双肺纹理清晰')).toEqual(['双', '肺', '纹', '理', '清', '晰']);
  });

  it('marks one changed Chinese character, not the sentence', () => {
    expect(diffText('右肺上叶结节', '左肺上叶结节')).toEqual([
      { op: 'delete', text: '右' },
      { op: 'insert', text: '左' },
      { op: 'equal', text: '肺上叶结节' },
    ]);
  });

  it('marks whole English words', () => {
    expect(diffText('no pleural effusion', 'small pleural effusion')).toEqual([
      { op: 'delete', text: 'no' },
      { op: 'insert', text: 'small' },
      { op: 'equal', text: ' pleural effusion' },
    ]);
  });

  it('rebuilds both texts from the parts, for many random edits', () => {
    const alphabet = ['肺', '肝', '结', '节', ' ', 'cm', '3', '，', 'a', 'b'];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: rand(40) }, () => alphabet[rand(alphabet.length)]!).join('');
      const b = Array.from({ length: rand(40) }, () => alphabet[rand(alphabet.length)]!).join('');
      const parts = diffText(a, b);
      expect(apply(parts, 'before')).toBe(a);
      expect(apply(parts, 'after')).toBe(b);
    }
  });

  it('answers equal text as one equal part and empty text as nothing', () => {
    expect(diffText('同上', '同上')).toEqual([{ op: 'equal', text: '同上' }]);
    expect(diffText('', '')).toEqual([]);
    expect(diffText('', '新增')).toEqual([{ op: 'insert', text: '新增' }]);
  });

  it('falls back to one deletion and one insertion past the edit limit', () => {
    const a = Array.from({ length: 5000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 5000 }, (_, i) => `b${i}`);
    const parts = diffTokens(a, b);
    expect(parts.map((p) => p.op)).toEqual(['delete', 'insert']);
    expect(apply(parts, 'before')).toBe(a.join(''));
  });
});
