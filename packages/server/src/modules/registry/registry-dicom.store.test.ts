import { describe, expect, it } from 'vitest';
import { matchesText } from '../../dicom/mwl.js';
import { patientNamePattern } from './registry-dicom.store.js';

/** SQL LIKE of `pattern` against lower(name), as PostgreSQL reads it (backslash escapes). */
function like(pattern: string, name: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u').test(name.toLowerCase());
}

describe('the worklist patient name pre-filter', () => {
  it('matches everything matchesText matches (wildcards, any case, trailing empty components)', () => {
    const names = [
      '王^小东',
      '王小东',
      'WANG^XIAODONG',
      'wang^xiaodong^^',
      'DOE^JOHN^',
      'DOE^JOHNNY',
      'O_NEIL%',
      '李^四',
    ];
    const keys = [
      '王*',
      '王^小东',
      '*小东',
      '王?小东',
      'wang*',
      'WANG^XIAODONG',
      'doe^john',
      'DOE^JOHN^',
      'D?E*',
      'O_NEIL%',
      '*',
    ];
    for (const key of keys) {
      const pattern = patientNamePattern(key);
      for (const name of names) {
        if (matchesText(key, name, true)) expect(pattern === null || like(pattern, name), `${key} ${name}`).toBe(true);
      }
    }
    expect(patientNamePattern('王*')).toBe('王%');
    expect(patientNamePattern('DOE^JOHN^')).toBe('doe^john%');
    expect(patientNamePattern('O_NEIL%')).toBe('o\\_neil\\%%');
  });

  it('leaves out keys that match anything and keys with letters PostgreSQL may case otherwise', () => {
    expect(patientNamePattern('')).toBeNull();
    expect(patientNamePattern('*')).toBeNull();
    expect(patientNamePattern('Mü*')).toBeNull();
    expect(patientNamePattern('ÉDOUARD')).toBeNull();
  });
});
