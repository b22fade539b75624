import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './limits.js';
import { displayPersonName } from './person-name.js';

describe('displayPersonName', () => {
  it.each([
    ['Li^Ming', 'Li Ming'],
    ['SMITH^JOHN', 'SMITH JOHN'],
    ['王^小东', '王小东'],
    ['单^田芳', '单田芳'],
    ['Smith^John^Paul', 'Smith John Paul'],
    ['Smith^John^^Dr^Jr', 'Dr Smith John Jr'],
    ['Smith^^^^PhD', 'Smith PhD'],
    ['Li^', 'Li'],
    ['^Ming', 'Ming'],
    ['Li ^ Ming ', 'Li Ming'],
    ['^^', ''],
    ['', ''],
    ['=', ''],
    ['山田^太郎', '山田太郎'],
    ['홍^길동', '홍길동'],
    ['𠀋^一', '𠀋一'],
  ])('%s reads %s in every language', (name, shown) => {
    for (const language of LANGUAGES) expect(displayPersonName(name, language)).toBe(shown);
  });

  it('keeps names without separators exactly as typed, masked ones included', () => {
    for (const language of LANGUAGES) {
      for (const name of ['王小东', 'Li Ming', ' spaced ', 'L*g', '王*东', '张伟']) {
        expect(displayPersonName(name, language)).toBe(name);
      }
    }
  });

  it('shows the ideographic group in Chinese and Tibetan and the alphabetic one in English', () => {
    const name = 'Wang^Xiaodong=王^小东';
    expect(displayPersonName(name, 'chs')).toBe('王小东');
    expect(displayPersonName(name, 'tib')).toBe('王小东');
    expect(displayPersonName(name, 'en')).toBe('Wang Xiaodong');
  });

  it('falls back to whichever group has a name', () => {
    for (const language of LANGUAGES) {
      expect(displayPersonName('=王^小东', language)).toBe('王小东');
      expect(displayPersonName('Wang^Xiaodong=', language)).toBe('Wang Xiaodong');
      expect(displayPersonName('Wang^Xiaodong=^', language)).toBe('Wang Xiaodong');
      expect(displayPersonName('==wang^xiaodong', language)).toBe('wang xiaodong');
    }
    expect(displayPersonName('Wang^Xiaodong=王^小东=wang^xiaodong', 'en')).toBe('Wang Xiaodong');
  });
});
