import { describe, expect, it } from 'vitest';
import {
  needsPositive,
  reportColorMatches,
  reportColorOf,
  type ReportColorRule,
  type ReportColorSubject,
} from './table-colors.match.js';

const subject: ReportColorSubject = { reportStatus: 'corrected', critical: false, positive: null, urgent: false };
const rule = (field: string, value: string, priority = 0, background = '#389e0d'): ReportColorRule => ({
  field,
  value,
  color: '#ffffff',
  background,
  priority,
});

describe('reportColorMatches', () => {
  it('matches a status only on that exact status', () => {
    expect(reportColorMatches(rule('status', 'corrected'), subject)).toBe(true);
    expect(reportColorMatches(rule('status', ' corrected '), subject)).toBe(true);
    expect(reportColorMatches(rule('status', 'final'), subject)).toBe(false);
    expect(reportColorMatches(rule('status', 'CORRECTED'), subject)).toBe(false);
    expect(reportColorMatches(rule('status', ''), { ...subject, reportStatus: '' })).toBe(false);
  });

  it.each(['critical', 'urgent'] as const)('matches the %s flag when true and when false', (field) => {
    const on = { ...subject, [field]: true };
    const off = { ...subject, [field]: false };
    expect(reportColorMatches(rule(field, 'true'), on)).toBe(true);
    expect(reportColorMatches(rule(field, 'true'), off)).toBe(false);
    expect(reportColorMatches(rule(field, 'false'), off)).toBe(true);
    expect(reportColorMatches(rule(field, 'false'), on)).toBe(false);
  });

  it('matches the positive flag when set, and an unset flag neither way', () => {
    expect(reportColorMatches(rule('positive', 'true'), { ...subject, positive: true })).toBe(true);
    expect(reportColorMatches(rule('positive', 'true'), { ...subject, positive: false })).toBe(false);
    expect(reportColorMatches(rule('positive', 'false'), { ...subject, positive: false })).toBe(true);
    expect(reportColorMatches(rule('positive', 'false'), { ...subject, positive: true })).toBe(false);
    expect(reportColorMatches(rule('positive', 'true'), subject)).toBe(false);
    expect(reportColorMatches(rule('positive', 'false'), subject)).toBe(false);
  });

  it('never matches a flag value other than true or false, nor an unknown field', () => {
    const all = { reportStatus: 'corrected', critical: true, positive: true, urgent: true };
    for (const value of ['1', 'yes', 'TRUE', '']) {
      expect(reportColorMatches(rule('critical', value), all)).toBe(false);
      expect(reportColorMatches(rule('urgent', value), all)).toBe(false);
      expect(reportColorMatches(rule('positive', value), all)).toBe(false);
    }
    expect(reportColorMatches(rule('modality', 'corrected'), all)).toBe(false);
  });
});

describe('reportColorOf', () => {
  it('answers the colours of the matching rule', () => {
    expect(reportColorOf([rule('status', 'corrected')], subject)).toEqual({ color: '#ffffff', background: '#389e0d' });
  });

  it('takes the lowest priority of several matches, whatever their order', () => {
    const urgent = { ...subject, urgent: true };
    const rules = [
      rule('status', 'corrected', 5, '#000005'),
      rule('urgent', 'true', 1, '#000001'),
      rule('status', 'final', 0, '#000000'),
    ];
    expect(reportColorOf(rules, urgent)?.background).toBe('#000001');
    expect(reportColorOf(rules, subject)?.background).toBe('#000005');
  });

  it('keeps the given order between equal priorities', () => {
    const rules = [rule('status', 'corrected', 2, '#aaaaaa'), rule('critical', 'false', 2, '#bbbbbb')];
    expect(reportColorOf(rules, subject)?.background).toBe('#aaaaaa');
    expect(reportColorOf([...rules].reverse(), subject)?.background).toBe('#bbbbbb');
  });

  it('answers null when nothing matches or there are no rules', () => {
    expect(reportColorOf([rule('status', 'final'), rule('critical', 'true')], subject)).toBeNull();
    expect(reportColorOf([], subject)).toBeNull();
  });

  it("does not reorder the caller's array", () => {
    const rules = [rule('status', 'x', 3), rule('status', 'y', 1)];
    reportColorOf(rules, subject);
    expect(rules.map((r) => r.priority)).toEqual([3, 1]);
  });
});

describe('needsPositive', () => {
  it('is true only when a rule looks at the positive flag', () => {
    expect(needsPositive([rule('status', 'final'), rule('positive', 'true')])).toBe(true);
    expect(needsPositive([rule('status', 'final'), rule('critical', 'true')])).toBe(false);
    expect(needsPositive([])).toBe(false);
  });
});
