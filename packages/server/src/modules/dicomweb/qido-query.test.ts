import { describe, expect, it } from 'vitest';
import { FUZZY_WARNING, MATCHING_KEYS, parseSearchQuery, QueryRefused, type Level } from './qido-query.js';

const LEVELS: Level[] = ['study', 'series', 'instance'];
const RANK: Record<Level, number> = { study: 0, series: 1, instance: 2 };

/** A value of the key's form, for the exhaustive tests. */
const SAMPLE: Record<string, string> = {
  text: 'ABC*',
  pn: 'Zhang*',
  uid: '1.2.3',
  date: '20260101-20261231',
  time: '080000-170000',
  int: '3',
  modalities: 'CT',
};

function refusal(level: Level, q: Record<string, string | string[]>): QueryRefused {
  try {
    parseSearchQuery(level, q);
  } catch (err) {
    expect(err).toBeInstanceOf(QueryRefused);
    return err as QueryRefused;
  }
  throw new Error(`${JSON.stringify(q)} was accepted at ${level} level`);
}

describe('QIDO-RS matching keys by level', () => {
  // Every key of PS3.18 Table 10.6.1-5 the archive keeps is applied.
  it.each([
    'PatientName',
    'PatientID',
    'StudyDate',
    'StudyTime',
    'AccessionNumber',
    'ModalitiesInStudy',
    'ReferringPhysicianName',
    'StudyInstanceUID',
    'StudyID',
    'Modality',
    'SeriesInstanceUID',
    'SeriesNumber',
    'SOPClassUID',
    'SOPInstanceUID',
    'InstanceNumber',
  ])('knows %s', (keyword) => {
    expect(MATCHING_KEYS.some((k) => k.keyword === keyword)).toBe(true);
  });

  for (const key of MATCHING_KEYS) {
    for (const level of LEVELS) {
      const applies = RANK[key.level] <= RANK[level];
      it(`${key.keyword} (${key.tag}) ${applies ? 'applies' : 'is refused'} at ${level} level, by keyword and by tag`, () => {
        for (const name of [key.keyword, key.tag, key.tag.toLowerCase()]) {
          const q = { [name]: SAMPLE[key.kind]! };
          if (applies) {
            const c = parseSearchQuery(level, q).conditions.get(key.keyword);
            expect(c?.key).toBe(key);
          } else {
            expect(refusal(level, q).message).toContain(`attribute of the ${key.level}`);
          }
        }
      });
    }
  }
});

describe('QIDO-RS query parameters', () => {
  it('refuses an unknown parameter, a keyword it does not match on and a sequence path, with a Warning', () => {
    for (const name of [
      'Foo',
      'PerformedProcedureStepStartDate',
      '00400244',
      'RequestAttributesSequence.RequestedProcedureID',
      'patientid',
    ]) {
      const err = refusal('instance', { [name]: 'x' });
      expect(err.status).toBe(400);
      expect(err.warning).toMatch(/^299 yyp "The search parameter .* is not supported"$/);
    }
  });

  it('refuses a key given twice, by the same name or by keyword and tag', () => {
    expect(refusal('study', { PatientID: ['A', 'B'] }).message).toContain('more than once');
    expect(refusal('study', { PatientID: 'A', '00100020': 'B' }).message).toContain('more than once');
  });

  it('takes limit, offset, includefield and fuzzymatching as controls', () => {
    const s = parseSearchQuery('study', { limit: '5', offset: '10', includefield: 'all', fuzzymatching: 'false' });
    expect(s).toMatchObject({ limit: 5, offset: 10, warnings: [] });
    expect(s.conditions.size).toBe(0);
  });

  it('answers fuzzymatching=true with literal matching and the PS3.18 warning; refuses other values', () => {
    expect(parseSearchQuery('study', { fuzzymatching: 'true', PatientName: 'Li' }).warnings).toEqual([FUZZY_WARNING]);
    expect(refusal('study', { fuzzymatching: 'yes' }).message).toContain('true or false');
  });

  it('leaves out universal matching (empty or *)', () => {
    expect(parseSearchQuery('study', { PatientName: '', PatientID: '*', StudyInstanceUID: '' }).conditions.size).toBe(
      0,
    );
  });
});

describe('QIDO-RS values', () => {
  const cond = (level: Level, q: Record<string, string>, keyword: string) =>
    parseSearchQuery(level, q).conditions.get(keyword);

  it('dates: single, open and closed ranges, the ACR-NEMA form; anything else refused', () => {
    expect(cond('study', { StudyDate: '20261115' }, 'StudyDate')).toMatchObject({ from: '20261115', to: '20261115' });
    expect(cond('study', { StudyDate: '20261101-' }, 'StudyDate')).toEqual(
      expect.objectContaining({ from: '20261101' }),
    );
    expect(cond('study', { StudyDate: '20261101-' }, 'StudyDate')).not.toHaveProperty('to');
    expect(cond('study', { StudyDate: '-20261130' }, 'StudyDate')).toMatchObject({ to: '20261130' });
    expect(cond('study', { '00080020': '2026.11.01-2026.11.30' }, 'StudyDate')).toMatchObject({
      from: '20261101',
      to: '20261130',
    });
    for (const bad of ['2026-11-15', '20261', 'today', '-', '20261101-20261130-20261201', '2026111a']) {
      expect(refusal('study', { StudyDate: bad }).status).toBe(400);
    }
    expect(refusal('study', { PatientBirthDate: 'x' }).message).toContain('PatientBirthDate');
  });

  it('times: HH, HHMM, HHMMSS and fractions, padded to HHMMSS; ranges', () => {
    expect(cond('study', { StudyTime: '14' }, 'StudyTime')).toMatchObject({ from: '140000', to: '140000' });
    expect(cond('study', { StudyTime: '0930-171500.5' }, 'StudyTime')).toMatchObject({ from: '093000', to: '171500' });
    expect(cond('study', { StudyTime: '-0800' }, 'StudyTime')).toMatchObject({ to: '080000' });
    for (const bad of ['9', '14:30', '143', '1430001', 'noon']) {
      expect(refusal('study', { StudyTime: bad }).status).toBe(400);
    }
  });

  it('UIDs: one or a list (comma or backslash); anything else refused, wildcards included', () => {
    expect(cond('study', { StudyInstanceUID: '1.2.3,1.2.4\\1.2.5' }, 'StudyInstanceUID')).toMatchObject({
      values: ['1.2.3', '1.2.4', '1.2.5'],
    });
    for (const bad of ['1.2.*', 'abc', '1..2', '1.2,', `1.${'2'.repeat(70)}`]) {
      expect(refusal('instance', { SOPInstanceUID: bad }).message).toContain('not a UID');
    }
  });

  it('integers: one value in 32 bits', () => {
    expect(cond('series', { SeriesNumber: '12' }, 'SeriesNumber')).toMatchObject({ value: 12 });
    expect(cond('instance', { '00200013': '-1' }, 'InstanceNumber')).toMatchObject({ value: -1 });
    for (const bad of ['1.5', 'x', '*', '99999999999', '1-3']) {
      expect(refusal('instance', { InstanceNumber: bad }).message).toContain('not an integer');
    }
  });

  it('ModalitiesInStudy: any of a list, upper-cased; text and names keep wildcards', () => {
    expect(cond('study', { ModalitiesInStudy: 'ct\\MR,CT' }, 'ModalitiesInStudy')).toMatchObject({
      values: ['CT', 'MR'],
    });
    expect(refusal('study', { ModalitiesInStudy: 'C*' }).message).toContain('not a modality');
    expect(cond('study', { PatientName: 'Zh?ng*' }, 'PatientName')).toMatchObject({ kind: 'pn', value: 'Zh?ng*' });
    expect(cond('series', { Modality: 'C?' }, 'Modality')).toMatchObject({ kind: 'text', value: 'C?' });
  });
});
