import { describe, expect, it } from 'vitest';
import { colorRuleMatches, rowColor, type ColorRuleSubject } from './color-rules.js';

const exam: ColorRuleSubject = {
  modality: 'CT\\SR',
  bodyPart: 'Chest',
  patientSource: 'E',
  urgentFlag: true,
  reportStatus: 'partial',
  bucketId: 'b1',
};
const rule = (matchField: string, value: string, priority = 0, index = 0) => ({
  matchField,
  value,
  priority,
  index,
  foreColor: `#${matchField.length.toString(16).padStart(6, '0')}`,
  backgroundColor: '#ffffff',
});

describe('colorRuleMatches', () => {
  const cases: [string, string, boolean][] = [
    ['modality', 'CT', true],
    ['modality', 'sr', true],
    ['modality', 'MR', false],
    ['bodyPart', 'CHEST', true],
    ['bodyPart', 'HEAD', false],
    ['bodyPart', '', false],
    ['patientClass', 'e', true],
    ['patientClass', 'I', false],
    ['urgentFlag', 'true', true],
    ['urgentFlag', '1', true],
    ['urgentFlag', 'false', false],
    ['status', 'partial', true],
    ['status', 'final', false],
    ['bucketId', 'b1', true],
    ['bucketId', 'b2', false],
    ['unknown', 'x', false],
  ];
  for (const [field, value, hit] of cases) {
    it(`${field} = ${JSON.stringify(value)} ${hit ? 'matches' : 'does not match'}`, () => {
      expect(colorRuleMatches(rule(field, value), exam)).toBe(hit);
    });
  }
  it('matches urgentFlag false on a routine exam', () => {
    expect(colorRuleMatches(rule('urgentFlag', 'false'), { ...exam, urgentFlag: false })).toBe(true);
  });
});

describe('rowColor', () => {
  it('takes the lowest priority number first, then the lowest index', () => {
    const a = { ...rule('modality', 'CT', 5), foreColor: '#aaaaaa' };
    const b = { ...rule('bodyPart', 'chest', 1, 2), foreColor: '#bbbbbb' };
    const c = { ...rule('status', 'partial', 1, 1), foreColor: '#cccccc' };
    expect(rowColor([a, b, c], exam)).toEqual({ foreColor: '#cccccc', backgroundColor: '#ffffff' });
    expect(rowColor([a], exam)?.foreColor).toBe('#aaaaaa');
    expect(rowColor([rule('modality', 'US')], exam)).toBeNull();
    expect(rowColor([], exam)).toBeNull();
  });
});
