import { describe, expect, it } from 'vitest';
import { nameInitials } from './pinyin.js';

describe('nameInitials', () => {
  it.each([
    ['王小东', 'wxd'],
    ['王^小东', 'wxd'],
    ['欧阳^小明', 'oyxm'],
    ['单^田芳', 'stf'],
    ['Wang^Xiaodong=王^小东', 'wxd'],
    ['DOE^JANE', ''],
    ['', ''],
  ])('%j → %j', (name, initials) => {
    expect(nameInitials(name)).toBe(initials);
  });
});
