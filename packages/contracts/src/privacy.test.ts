import { describe, expect, it } from 'vitest';
import { maskIdentifier, maskPatientName, privateFieldsMasked } from './privacy.js';

describe('privateFieldsMasked (spec 000 §6: enablePrivacy gates privacy, view_privacy shows)', () => {
  // Every combination of group flag × caller right × confidential exam.
  it.each([
    // groupPrivacy, viewPrivacy, isPrivacy, masked
    [false, false, false, false], // privacy off: everyone who may see the exam sees it
    [false, false, true, true], // … except a confidential exam without view_privacy
    [false, true, false, false],
    [false, true, true, false], // view_privacy shows a confidential exam
    [true, false, false, true], // privacy on: masked without view_privacy
    [true, false, true, true],
    [true, true, false, false],
    [true, true, true, false],
  ])(
    'group privacy %s, view_privacy %s, confidential %s → masked %s',
    (groupPrivacy, viewPrivacy, isPrivacy, masked) => {
      expect(privateFieldsMasked({ groupPrivacy, viewPrivacy }, { isPrivacy })).toBe(masked);
    },
  );
});

describe('maskPatientName', () => {
  it.each([
    ['王小东', '王*东'],
    ['王^小东', '王*东'],
    ['欧阳小明', '欧*明'],
    ['王东', '王*'],
    ['李^四', '李*'],
    ['王', '*'],
    ['', ''],
    ['   ', ''],
    ['Zhang^San', 'Z*n'],
    ['  Secret^^Patient ', 'S*t'],
    ['Wang^Xiaodong=王^小东', 'W*g'],
    ['=王^小东', '王*东'],
    ['𠀋^一^丁', '𠀋*丁'],
  ])('%j → %j', (name, masked) => {
    expect(maskPatientName(name)).toBe(masked);
  });
  it('never shows more than two characters of the name', () => {
    const masked = maskPatientName('司马相如的名字很长');
    expect(Array.from(masked.replace('*', '')).length).toBeLessThanOrEqual(2);
  });
});

describe('maskIdentifier', () => {
  it.each([
    ['YYP12345678', 'YY*******78'],
    ['13812345678', '13*******78'],
    ['12345', '***45'],
    ['AB', '**'],
    ['', ''],
  ])('%j → %j', (value, masked) => {
    expect(maskIdentifier(value)).toBe(masked);
  });
  it('keeps the length and shows at most four characters', () => {
    const masked = maskIdentifier('PATIENT-000123456');
    expect(masked).toHaveLength(17);
    expect(masked.replace(/\*/g, '')).toHaveLength(4);
  });
});
